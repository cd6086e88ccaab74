/**
 * The only seams between the engine and the outside world. The host implements them over
 * the VS Code API; tests implement them in memory or on disk.
 */
import { sleep } from './util/abort';

export type FileType = 'file' | 'directory' | 'symlink' | 'unknown';

export interface FileStat {
	type: FileType;
	size: number;
	mtime: number;
	/** Hard-link count where the file system reports it: above 1, a write also changes other paths. */
	links?: number;
}

/**
 * Files of the open workspace. Every path here is workspace-relative and already checked by
 * the path policy (gate/paths/paths.ts); implementations must not be handed raw model input.
 */
export interface Workspace {
	/** A display name for the root, e.g. the folder name; never used to resolve files. */
	readonly rootName: string;
	/**
	 * The workspace's folders, each its own Workspace, when it is multi-root: then every path
	 * starts with a folder's name (gate/paths/workspaceFolders.ts). Absent or one entry: a single folder.
	 */
	folders?(): ReadonlyArray<{ name: string; workspace: Workspace }>;
	stat(relativePath: string): Promise<FileStat | undefined>;
	readFile(relativePath: string): Promise<Uint8Array>;
	readDirectory(relativePath: string): Promise<Array<[name: string, type: FileType]>>;
	/** Glob relative to the root; honours the editor's excludes where the implementation has them. */
	findFiles(glob: string, maxResults: number, signal?: AbortSignal): Promise<string[]>;
	writeFile(relativePath: string, content: Uint8Array): Promise<void>;
	/**
	 * Where the workspace really is on disk: the root's absolute path with symlinks resolved.
	 * Undefined for a workspace that is not on the local disk (then grep and the symlink walk
	 * are unavailable and the guard refuses anything it cannot prove is inside).
	 */
	rootRealPath(): Promise<string | undefined>;
	/**
	 * The canonical absolute path of an existing entry (every symlink resolved), `'dangling'`
	 * for a symlink that points at nothing, undefined when nothing exists at the path.
	 */
	realPath(relativePath: string): Promise<string | 'dangling' | undefined>;
	/** Replace a text file the way the editor does: open editors update, undo works. */
	writeText(relativePath: string, text: string): Promise<void>;
	createDirectory(relativePath: string): Promise<void>;
	delete(relativePath: string, options: { recursive: boolean }): Promise<void>;
	rename(from: string, to: string, options: { overwrite: boolean }): Promise<void>;
	copy(from: string, to: string, options: { overwrite: boolean }): Promise<void>;
}

export interface Logger {
	info(message: string): void;
	warn(message: string): void;
	error(message: string, error?: unknown): void;
}

export interface Clock {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
	now: () => Date.now(),
	sleep,
};

export const nullLogger: Logger = { info() {}, warn() {}, error() {} };

/** Where a command ran; shown on the card and in the result so the user always knows. */
export type CommandBackend = 'sandbox' | 'terminal';

export interface CommandRequest {
	command: string;
	/** Workspace-relative folder, already checked by the path policy; '' is the root. */
	cwd: string;
	timeoutMs: number;
	/** Cap on the output kept, per stream; the middle is dropped and `truncated` set. */
	outputLimitBytes: number;
	signal?: AbortSignal;
	/** Live output for the card, already capped; stderr is not separable in a terminal. */
	onOutput?(text: string): void;
	/** Set for the command on top of the backend's own environment (git's configuration overrides). */
	env?: Readonly<Record<string, string>>;
}

/** The result envelope every backend returns; exitCode is undefined only when it is unknowable. */
export interface CommandResult {
	backend: CommandBackend;
	stdout: string;
	stderr: string;
	exitCode: number | undefined;
	durationMs: number;
	truncated: boolean;
	timedOut: boolean;
	cancelled?: boolean;
	/** A sandbox limit the command ran into: a process OOM-killed, or forks refused at the pids limit. */
	limitHit?: 'memory' | 'pids';
	/** The sandbox mounted the workspace from this path on the engine's machine (Keel runs in a container there). */
	mappedTo?: string;
	/**
	 * The engine did not see the workspace, so the command ran on a copy in a volume there: what
	 * it changed, for the file tools to propose (nothing here changed yet), and what stayed there.
	 */
	copied?: {
		engine: string;
		changes: Array<{ path: string; content?: string; deleted?: true }>;
		leftInCopy: string[];
	};
}

/**
 * Runs shell commands somewhere the user chose: the Docker sandbox (core/exec) or their
 * terminal (host). Failures to run at all (no engine, build failed) throw an ExecError;
 * a command that ran and failed is a result.
 */
export interface CommandRunner {
	readonly backend: CommandBackend;
	run(request: CommandRequest): Promise<CommandResult>;
}
