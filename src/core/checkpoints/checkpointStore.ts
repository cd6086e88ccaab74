import { Gate } from '../gate/gate';
import { defaultPathPolicy } from '../gate/paths/pathPolicy';
import { PathRefused } from '../gate/paths/paths';
import { purgeKeptOut } from './checkpointPurge';
import { splitNul } from '../util/splitNul';
import { ShadowGit } from './shadowGit';

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
 * dependency and cache folders that are large, re-creatable, and not the user's work. Secrets
 * are not here: git's ignore syntax is not Keel's (case, braces, extglobs) and the workspace's
 * own .gitignore could re-include them (`!.env`), so the gate decides those file by file.
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
	/** Left out: too large, a nested repository, or hard-linked to another file. */
	skipped: string[];
}

/** A file a restore left alone, and why (named in the chat). */
export interface Refused {
	path: string;
	reason: string;
}

/**
 * Snapshots of the workspace as commits in a shadow repository (ShadowGit). One operation at a
 * time: two snapshots racing on one index would mix their files.
 */
export class CheckpointStore {
	private _queue: Promise<unknown> = Promise.resolve();
	/** Commits rewritten by the purge when this store was opened: old → new. */
	purged = new Map<string, string>();

	private constructor(
		readonly git: ShadowGit,
		private readonly _limits: CheckpointLimits,
		private readonly _gate: Gate,
	) {}

	/**
	 * `gate` decides which files are never copied into Keel's storage (deny-read and deny rules,
	 * with the same matching as the tools; the price is that a restore cannot bring back a
	 * secret a command changed) and checks each write and delete of a restore. Whatever an older
	 * version, or an older deny list, let in is purged here.
	 */
	static async open(
		gitDir: string,
		workTree: string,
		limits: CheckpointLimits = DEFAULT_LIMITS,
		gate: Gate = new Gate({ policy: () => defaultPathPolicy }),
		gitPath?: string,
	): Promise<CheckpointStore> {
		const git = new ShadowGit(gitDir, workTree, gitPath);
		const fresh = await git.init(DEFAULT_EXCLUDES);
		const store = new CheckpointStore(git, limits, gate);
		store.purged = await purgeKeptOut(
			git,
			file => gate.keptOutOfStores(file) !== undefined,
			gate.storeFingerprint(),
			fresh,
		);
		return store;
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
			const keep = (file: string) => this._gate.keptOutOfStores(file) === undefined;
			const untracked = splitNul(await this.git.run(['ls-files', '-z', '-o', '--exclude-standard'])).filter(keep);
			if (untracked.length > this._limits.maxFiles) {
				throw new CheckpointError(
					`the workspace has ${untracked.length} files not yet in a checkpoint, more than keel.checkpoints.maxFiles (${this._limits.maxFiles}); add build output to .gitignore or raise the limit`,
				);
			}
			const changed = splitNul(await this.git.run(['ls-files', '-z', '-m', '-d'])).filter(keep);
			const add: string[] = [];
			const skipped: string[] = [];
			for (const file of new Set([...untracked, ...changed])) {
				const stat = this.git.lstat(file);
				if (stat?.isDirectory()) {
					skipped.push(file); // a nested repository: its own git keeps it
				} else if (stat?.isFile() && (stat.size > this._limits.maxFileBytes || stat.nlink > 1)) {
					// A hard link shares its bytes with a path that may be outside or deny-listed: read_file refuses it too.
					skipped.push(file);
				} else {
					add.push(file); // present, or deleted (then `add -A` records the deletion)
				}
			}
			// A tracked file beneath what is now a symlink is gone from the work tree as git sees it
			// (git refuses to add "beyond a symbolic link"): recorded as deleted; the link itself is added.
			const beyond = add.filter(file => this._beyondLink(file));
			const present = add.filter(file => !beyond.includes(file));
			if (beyond.length > 0) {
				await this.git.run(
					['rm', '--cached', '-q', '-f', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'],
					beyond.join('\0'),
				);
			}
			if (present.length > 0) {
				await this.git.run(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], present.join('\0'));
			}
			const tree = (await this.git.run(['write-tree'])).trim();
			const commit = (await this.git.run(['commit-tree', tree, '-m', message])).trim();
			await this.git.run(['update-ref', `refs/keel/${safeRef(ref)}`, commit]);
			return { commit, skipped };
		});
	}

	/** A folder above `file` is a symlink now. */
	private _beyondLink(file: string): boolean {
		const parts = file.split('/');
		return parts.slice(0, -1).some((_, i) => this.git.lstat(parts.slice(0, i + 1).join('/'))?.isSymbolicLink());
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
			const entry = (await this._entries(commit, [file])).get(file);
			return entry ? this.git.runBytes(['cat-file', 'blob', entry.object]) : undefined;
		});
	}

	/**
	 * Puts `files` back the way they are in `commit`: re-written when the snapshot has them,
	 * removed when it does not (a file the turn created). Each write and delete passes the gate
	 * when it is done (gate/restoreFiles.ts); `approved` are the protected files the user allowed.
	 * Returns what was left alone, and why.
	 */
	checkout(commit: string, files: readonly string[], approved: ReadonlySet<string> = new Set()): Promise<Refused[]> {
		return this._serial(async () => {
			const entries = await this._entries(commit, files);
			const disk = this._gate.restorer(this.workTree, approved);
			const refused: Refused[] = [];
			const attempt = (file: string, act: () => void) => {
				try {
					act();
				} catch (error) {
					refused.push({ path: file, reason: error instanceof PathRefused ? error.message : String(error) });
				}
			};
			// Deletions first, deepest first: a link the restore puts back must not have files to delete beneath it.
			const removed = files.filter(f => !entries.has(f)).sort((a, b) => depth(b) - depth(a));
			for (const file of removed) {
				attempt(file, () => {
					disk.remove(file);
					disk.prune(file);
				});
			}
			const written = files.filter(f => entries.has(f)).sort((a, b) => depth(a) - depth(b));
			// Blobs in batches: one git process per hundred files, and never every blob in memory at once.
			// The next batch is read while this one is written, so git and the writes overlap.
			const read = (start: number) =>
				this.git.blobs(written.slice(start, start + 100).map(file => entries.get(file)!.object));
			let next = read(0);
			for (let start = 0; start < written.length; start += 100) {
				const batch = written.slice(start, start + 100);
				const blobs = await next;
				next = start + 100 < written.length ? read(start + 100) : Promise.resolve([]);
				batch.forEach((file, i) => {
					const entry = entries.get(file)!;
					attempt(file, () =>
						entry.mode === '120000'
							? disk.link(file, blobs[i].toString('utf8'))
							: disk.write(file, blobs[i], entry.mode === '100755'),
					);
				});
			}
			return refused;
		});
	}

	/** Mode and object of each of `files` in `commit` that it has. */
	private async _entries(
		commit: string,
		files: readonly string[],
	): Promise<Map<string, { mode: string; object: string }>> {
		const wanted = new Set(files);
		const out = new Map<string, { mode: string; object: string }>();
		// A short list is named to git (literal pathspecs); a long one would not fit a command line.
		const named = files.length <= 200 ? ['--', ...files] : [];
		for (const line of splitNul(await this.git.run(['ls-tree', '-r', '-z', '--full-tree', commit, ...named]))) {
			const tab = line.indexOf('\t');
			const file = line.slice(tab + 1);
			if (wanted.has(file)) {
				const [mode, , object] = line.slice(0, tab).split(' ');
				out.set(file, { mode, object });
			}
		}
		return out;
	}
}

function depth(file: string): number {
	return file.split('/').length;
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
