import * as fs from 'fs';
import * as path from 'path';
import { ShadowGit, splitNul } from './shadowGit';

export interface ChangedFile {
	path: string;
	status: 'added' | 'modified' | 'deleted';
}

export interface CheckpointLimits {
	/** Files above this size are left out of checkpoints (and so cannot be restored). */
	maxFileBytes: number;
	/** More new files than this in one snapshot: the checkpoint is refused, not half taken. */
	maxFiles: number;
}

export const DEFAULT_LIMITS: CheckpointLimits = { maxFileBytes: 2 * 1024 * 1024, maxFiles: 20_000 };

/**
 * Never in a checkpoint, besides whatever the workspace's own .gitignore files exclude:
 * dependency and cache folders that are large, re-creatable, and not the user's work.
 */
export const DEFAULT_EXCLUDES = [
	'node_modules/',
	'.venv/',
	'venv/',
	'__pycache__/',
	'.mypy_cache/',
	'.pytest_cache/',
	'.gradle/',
	'.DS_Store',
	'Thumbs.db',
];

export class CheckpointError extends Error {}

export interface Snapshot {
	commit: string;
	/** Left out: too large, or a nested repository. */
	skipped: string[];
}

/**
 * Snapshots of the workspace as commits in a shadow repository (ShadowGit). One operation at a
 * time: two snapshots racing on one index would mix their files.
 */
export class CheckpointStore {
	private _queue: Promise<unknown> = Promise.resolve();

	private constructor(
		readonly git: ShadowGit,
		private readonly _limits: CheckpointLimits,
	) {}

	/**
	 * `secrets`: the deny-read list (and its allow exceptions). Those files are never copied into
	 * Keel's storage; the price is that a restore cannot bring back a secret a command changed.
	 */
	static async open(
		gitDir: string,
		workTree: string,
		limits: CheckpointLimits = DEFAULT_LIMITS,
		secrets?: { denyRead: readonly string[]; allowRead: readonly string[] },
		gitPath?: string,
	): Promise<CheckpointStore> {
		const git = new ShadowGit(gitDir, workTree, gitPath);
		await git.init([
			...DEFAULT_EXCLUDES,
			...(secrets?.denyRead ?? []),
			...(secrets?.allowRead ?? []).map(glob => `!${glob}`),
		]);
		return new CheckpointStore(git, limits);
	}

	get workTree(): string {
		return this.git.workTree;
	}

	private _serial<T>(task: () => Promise<T>): Promise<T> {
		const next = this._queue.then(task, task);
		this._queue = next.catch(() => undefined);
		return next;
	}

	/** Records the workspace as it is now; `ref` keeps the commit from ever being collected. */
	snapshot(ref: string, message: string): Promise<Snapshot> {
		return this._serial(async () => {
			const untracked = splitNul(await this.git.run(['ls-files', '-z', '-o', '--exclude-standard']));
			if (untracked.length > this._limits.maxFiles) {
				throw new CheckpointError(
					`the workspace has ${untracked.length} files not yet in a checkpoint, more than keel.checkpoints.maxFiles (${this._limits.maxFiles}); add build output to .gitignore or raise the limit`,
				);
			}
			const changed = splitNul(await this.git.run(['ls-files', '-z', '-m', '-d']));
			const add: string[] = [];
			const skipped: string[] = [];
			for (const file of new Set([...untracked, ...changed])) {
				const stat = lstatOrUndefined(path.join(this.workTree, file));
				if (stat?.isDirectory()) {
					skipped.push(file); // a nested repository: its own git keeps it
				} else if (stat?.isFile() && stat.size > this._limits.maxFileBytes) {
					skipped.push(file);
				} else {
					add.push(file); // present, or deleted (then `add -A` records the deletion)
				}
			}
			if (add.length > 0) {
				await this.git.run(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], add.join('\0'));
			}
			const tree = (await this.git.run(['write-tree'])).trim();
			const commit = (await this.git.run(['commit-tree', tree, '-m', message])).trim();
			await this.git.run(['update-ref', `refs/keel/${safeRef(ref)}`, commit]);
			return { commit, skipped };
		});
	}

	/** What changed from `from` to `to`, as paths relative to the workspace. */
	diff(from: string, to: string): Promise<ChangedFile[]> {
		return this._serial(async () =>
			parseNameStatus(await this.git.run(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to])),
		);
	}

	/** The content of a file in a snapshot, or undefined when it was not there. */
	show(commit: string, file: string): Promise<Buffer | undefined> {
		return this._serial(async () => {
			const listed = splitNul(await this.git.run(['ls-tree', '-z', '--name-only', commit, '--', file]));
			if (listed.length === 0) {
				return undefined;
			}
			return Buffer.from(await this.git.run(['show', `${commit}:${file}`]), 'utf8');
		});
	}

	/**
	 * Puts `files` back the way they are in `commit`: re-written when the snapshot has them,
	 * removed when it does not (a file the turn created).
	 */
	checkout(commit: string, files: readonly string[]): Promise<void> {
		return this._serial(async () => {
			const present = new Set(splitNul(await this.git.run(['ls-tree', '-r', '-z', '--name-only', commit])));
			const restore = files.filter(file => present.has(file));
			if (restore.length > 0) {
				await this.git.run(
					['checkout', commit, '--pathspec-from-file=-', '--pathspec-file-nul'],
					restore.join('\0'),
				);
			}
			for (const file of files.filter(file => !present.has(file))) {
				const absolute = path.join(this.workTree, file);
				fs.rmSync(absolute, { force: true });
				removeEmptyParents(path.dirname(absolute), this.workTree);
			}
		});
	}
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
	try {
		return fs.lstatSync(file);
	} catch {
		return undefined;
	}
}

/** Folders the turn created and that are empty once its files are gone; never the root. */
function removeEmptyParents(folder: string, root: string): void {
	for (let dir = folder; dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
		try {
			fs.rmdirSync(dir);
		} catch {
			return; // not empty, or already gone
		}
	}
}

export function safeRef(ref: string): string {
	return ref.replace(/[^A-Za-z0-9/_-]+/g, '_').replace(/\/+/g, '/');
}

export function parseNameStatus(output: string): ChangedFile[] {
	const parts = splitNul(output);
	const files: ChangedFile[] = [];
	for (let i = 0; i + 1 < parts.length; i += 2) {
		const code = parts[i][0];
		files.push({ path: parts[i + 1], status: code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified' });
	}
	return files;
}
