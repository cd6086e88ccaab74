import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/**
 * The git CLI pointed at a repository of Keel's own (GIT_DIR in Keel's storage) with the
 * workspace as its work tree. The user's `.git` is never read or written: git skips any `.git`
 * entry of a work tree, and nothing here runs without GIT_DIR set. Their global and system
 * git config are ignored too, so hooks, signing or autocrlf settings cannot change a snapshot.
 */
export class ShadowGit {
	constructor(
		readonly gitDir: string,
		readonly workTree: string,
		private readonly _gitPath = 'git',
	) {}

	private _env(withWorkTree: boolean): NodeJS.ProcessEnv {
		const env: NodeJS.ProcessEnv = {};
		for (const [key, value] of Object.entries(process.env)) {
			// An inherited GIT_INDEX_FILE or GIT_DIR (e.g. from a hook) would point git elsewhere.
			if (!key.startsWith('GIT_')) {
				env[key] = value;
			}
		}
		return {
			...env,
			GIT_DIR: this.gitDir,
			...(withWorkTree ? { GIT_WORK_TREE: this.workTree } : {}),
			GIT_CONFIG_NOSYSTEM: '1',
			GIT_CONFIG_GLOBAL: process.platform === 'win32' ? 'NUL' : '/dev/null',
			GIT_AUTHOR_NAME: 'Keel',
			GIT_AUTHOR_EMAIL: 'checkpoints@keel.invalid',
			GIT_COMMITTER_NAME: 'Keel',
			GIT_COMMITTER_EMAIL: 'checkpoints@keel.invalid',
			GIT_TERMINAL_PROMPT: '0',
			// Paths are file names, never globs: a file called `*.ts` must not match every file.
			GIT_LITERAL_PATHSPECS: '1',
		};
	}

	/** Runs git; `input` goes to stdin. Rejects with git's own stderr, which says what went wrong. */
	async run(args: string[], input?: string, withWorkTree = true, env: NodeJS.ProcessEnv = {}): Promise<string> {
		return (await this.runBytes(args, input, withWorkTree, env)).toString('utf8');
	}

	/** The same, with stdout as bytes: file contents are not text. */
	runBytes(args: string[], input?: string, withWorkTree = true, env: NodeJS.ProcessEnv = {}): Promise<Buffer> {
		return new Promise((resolve, reject) => {
			const child = execFile(
				this._gitPath,
				[
					'-c',
					'core.autocrlf=false',
					'-c',
					'core.safecrlf=false',
					'-c',
					'commit.gpgsign=false',
					'-c',
					'core.quotepath=false',
					...args,
				],
				{
					cwd: this.workTree,
					env: { ...this._env(withWorkTree), ...env },
					maxBuffer: 256 * 1024 * 1024,
					encoding: 'buffer',
				},
				(error, stdout, stderr) => {
					if (error) {
						const why =
							(error as NodeJS.ErrnoException).code === 'ENOENT'
								? 'git is not installed or not on PATH'
								: stderr.toString('utf8').trim() || error.message;
						reject(new Error(`git ${args[0]} failed: ${why}`));
						return;
					}
					resolve(stdout);
				},
			);
			if (input !== undefined) {
				child.stdin?.end(input);
			}
		});
	}

	/** Creates the repository on first use: no hooks, no automatic gc (it would drop checkpoints). True when it did. */
	async init(excludes: readonly string[]): Promise<boolean> {
		const fresh = !fs.existsSync(path.join(this.gitDir, 'HEAD'));
		if (fresh) {
			fs.mkdirSync(this.gitDir, { recursive: true });
			// init refuses GIT_WORK_TREE; the work tree is given to every later command instead.
			await this.run(['init', '--quiet', '--bare', '--template='], undefined, false);
			await this.run(['config', 'core.bare', 'false']);
			await this.run(['config', 'gc.auto', '0']);
			await this.run(['config', 'core.fsmonitor', 'false']);
		}
		fs.mkdirSync(path.join(this.gitDir, 'info'), { recursive: true });
		fs.writeFileSync(
			path.join(this.gitDir, 'info', 'exclude'),
			`# Written by Keel: never in checkpoints.\n${excludes.join('\n')}\n`,
		);
		return fresh;
	}

	/** The contents of `objects` (blob ids), in order, read by one `git cat-file --batch`. */
	async blobs(objects: readonly string[]): Promise<Buffer[]> {
		if (objects.length === 0) {
			return [];
		}
		const out = await this.runBytes(['cat-file', '--batch'], `${objects.join('\n')}\n`);
		const blobs: Buffer[] = [];
		let at = 0;
		for (const object of objects) {
			const end = out.indexOf(0x0a, at);
			const [id, type, size] = out.subarray(at, end).toString('utf8').split(' ');
			if (type !== 'blob' || !id.startsWith(object.slice(0, 7))) {
				throw new Error(`git cat-file: ${object} is not a blob in the checkpoint repository`);
			}
			at = end + 1;
			blobs.push(out.subarray(at, at + Number(size)));
			at += Number(size) + 1;
		}
		return blobs;
	}

	/** A small file of Keel's own beside the repository (never in the work tree). */
	notePath(name: string): string {
		return path.join(this.gitDir, name);
	}

	readNote(name: string): string | undefined {
		try {
			return fs.readFileSync(this.notePath(name), 'utf8');
		} catch {
			return undefined;
		}
	}

	writeNote(name: string, text: string): void {
		fs.writeFileSync(this.notePath(name), text);
	}

	removeNote(name: string): void {
		fs.rmSync(this.notePath(name), { force: true });
	}

	/** The entry as it is on disk now (not following a link), or undefined; checkpoints decide by it what to copy. */
	lstat(file: string): fs.Stats | undefined {
		try {
			return fs.lstatSync(path.join(this.workTree, file));
		} catch {
			return undefined;
		}
	}

	static available(gitPath = 'git'): Promise<boolean> {
		return new Promise(resolve => execFile(gitPath, ['--version'], error => resolve(!error)));
	}
}
