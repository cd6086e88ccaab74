/**
 * git, asked by the gate what a git command will read, without running any of the repository's
 * own code. The repository's configuration can name programs git runs on its own: an fsmonitor
 * on every index refresh, hooks, an external diff, textconv and filter drivers from attributes,
 * a pager, gpg, ssh, credential helpers, and `include.path` can pull more of it from anywhere.
 * Every question runs with all of them switched off: `-c` overrides for the fixed keys and for
 * every driver the repository's configuration defines (read first with `git config --list`,
 * which runs nothing), no system or global configuration, hooks pointed at an empty folder, no
 * network, no lazy fetch, no optional locks (nothing is written), a bounded time and output.
 * The git binary is found on PATH with relative entries left out, so a `git` inside the
 * workspace is never the one asked.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { resolveExecutable } from './programs';
import { DRIVER_KEY, PROGRAM_KEYS, parseConfigListing, type ConfigEntry } from './gitPrograms';

// What git is asked is shell analysis's question (shell/git/gitQuestions.ts); the gate answers it.
import type { GitAnswer, GitAskOptions, GitQuestions, GitRepository } from '../shell/git/gitQuestions';

export type { GitAnswer, GitAskOptions, GitQuestions, GitRepository };

/** Every program key off, and what keeps a question from touching the network, submodules or colours. */
const FIXED_OFF = [
	...PROGRAM_KEYS.filter(([key]) => key !== 'core.hooksPath').map(([key, value]) => `${key}=${value}`),
	'diff.submodule=short',
	'submodule.recurse=false',
	'status.submoduleSummary=false',
	'log.showSignature=false',
	'protocol.allow=never',
	'fetch.recurseSubmodules=false',
	'color.ui=never',
	'core.quotePath=false',
];
/** Per-driver keys, and every alias: a question never expands one. */
const OFF_KEY = new RegExp(`${DRIVER_KEY.source}|^alias\\..+$`, 'i');
const TIMEOUT_MS = 10_000;
const MAX_OUTPUT = 64 * 1024 * 1024;

let emptyFolder: string | undefined;
/** An empty folder for HOME and hooks: nothing in it to read or run. */
function empty(): string {
	if (!emptyFolder || !fs.existsSync(emptyFolder)) {
		emptyFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-git-'));
	}
	return emptyFolder;
}

function run(
	git: string,
	cwd: string,
	args: readonly string[],
	env: Record<string, string>,
	input?: string,
): Promise<GitAnswer | undefined> {
	return new Promise(resolve => {
		const child = execFile(
			git,
			[...args],
			{ cwd, env, encoding: 'buffer', timeout: TIMEOUT_MS, maxBuffer: MAX_OUTPUT, windowsHide: true },
			(error, stdout, stderr) => {
				const code = error
					? typeof (error as { code?: unknown }).code === 'number'
						? (error as { code: number }).code
						: -1
					: 0;
				// Killed for time or size: no answer, so the caller asks the user.
				if (error && (error as { killed?: boolean }).killed) return resolve(undefined);
				if (error && code === -1) return resolve(undefined);
				resolve({ code, stdout: stdout as Buffer, stderr: (stderr as Buffer).toString('utf8') });
			},
		);
		// git may exit before reading its input (a question that needs none): that is not an error.
		child.stdin?.on('error', () => undefined);
		child.stdin?.end(input ?? '');
	});
}

export class GitOracle implements GitQuestions {
	private _git: string | undefined;
	/** The driver list per repository and options, kept for a moment: one judgement asks git several questions. */

	constructor(private readonly _searchPath: string = process.env.PATH ?? '') {}

	private _binary(): string | undefined {
		if (this._git === undefined) {
			// Only absolute PATH entries: a relative one would find a `git` the workspace put there.
			const absolute = this._searchPath
				.split(path.delimiter)
				.filter(entry => path.isAbsolute(entry))
				.join(path.delimiter);
			try {
				this._git = resolveExecutable('git', path.parse(process.cwd()).root, absolute).found;
			} catch {
				return undefined;
			}
		}
		return this._git;
	}

	private _env(extra: Record<string, string> | undefined): Record<string, string> {
		const home = empty();
		return {
			PATH: this._searchPath,
			HOME: home,
			XDG_CONFIG_HOME: home,
			GIT_CONFIG_NOSYSTEM: '1',
			GIT_CONFIG_GLOBAL: os.devNull,
			GIT_OPTIONAL_LOCKS: '0',
			GIT_TERMINAL_PROMPT: '0',
			GIT_NO_LAZY_FETCH: '1',
			GIT_PAGER: 'cat',
			PAGER: 'cat',
			GIT_ATTR_NOSYSTEM: '1',
			LC_ALL: 'C',
			...(process.platform === 'win32' ? { SYSTEMROOT: process.env.SYSTEMROOT ?? '' } : {}),
			...extra,
		};
	}

	/**
	 * `-c key=` for every program-valued key the repository's configuration (and its includes)
	 * defines, read afresh for every question: the command approved a moment ago may have written a
	 * driver into `.git/config`, and a listing kept from before it would let this question run it.
	 */
	private async _driversOff(
		git: string,
		cwd: string,
		env: Record<string, string>,
		base: string[],
	): Promise<string[] | undefined> {
		const listed = await run(git, cwd, [...base, 'config', '--list', '--null', '--includes'], env);
		if (!listed) return undefined;
		const keys = new Set<string>();
		for (const entry of listed.stdout.toString('utf8').split('\0')) {
			const key = entry.split('\n')[0];
			if (key && (OFF_KEY.test(key) || key.toLowerCase() === 'diff.external'))
				keys.add(key.toLowerCase() === 'diff.external' ? 'diff.external' : key);
		}
		// An empty diff.external is run as a program (and fails): `:` prints nothing, which a question never needs.
		if (keys.delete('diff.external')) keys.add('diff.external=:');
		const off = [...keys].flatMap(key => [
			'-c',
			// Empty, a textconv or a per-driver diff command is run as a program and fails the question.
			key.includes('=')
				? key
				: /^diff\..+\.textconv$/i.test(key)
					? `${key}=cat`
					: /^diff\..+\.command$/i.test(key)
						? `${key}=:`
						: `${key}=`,
		]);
		return off;
	}

	async configuration(cwd: string): Promise<{ entries: ConfigEntry[]; gitDirs: string[] } | undefined> {
		const git = this._binary();
		if (!git) return undefined;
		// The user's own files count here (a terminal reads them), so HOME and the system file stay.
		const env: Record<string, string> = {
			...this._env(undefined),
			HOME: process.env.HOME ?? os.homedir(),
			...(process.env.XDG_CONFIG_HOME ? { XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME } : {}),
		};
		delete env.GIT_CONFIG_NOSYSTEM;
		delete env.GIT_CONFIG_GLOBAL;
		// Listing the configuration and asking where the git folders are run no program of the
		// repository's, so they may read a repository someone else owns (the sandbox user's files,
		// seen from a host running as root): its git, in the container, will read that configuration.
		const safe = ['-c', 'safe.directory=*'];
		const [listed, dirs] = await Promise.all([
			run(git, cwd, [...safe, 'config', '--list', '--show-origin', '--show-scope', '--includes', '-z'], env),
			run(git, cwd, [...safe, 'rev-parse', '--absolute-git-dir', '--git-common-dir'], this._env(undefined)),
		]);
		if (!listed || listed.code !== 0) return undefined;
		const gitDirs =
			dirs?.code === 0
				? dirs.stdout
						.toString('utf8')
						.split('\n')
						.filter(Boolean)
						.map(dir => path.resolve(cwd, dir))
				: [];
		// Real paths: a file included through a link is the file it leads to.
		const real = (file: string) => {
			try {
				return fs.realpathSync.native(file);
			} catch {
				return file;
			}
		};
		const entries = parseConfigListing(listed.stdout.toString('utf8'), cwd).map(entry =>
			entry.file ? { ...entry, file: real(entry.file) } : entry,
		);
		return { entries, gitDirs: gitDirs.map(real) };
	}

	async repository(cwd: string, options: GitAskOptions = {}): Promise<GitRepository | undefined> {
		const where = await this.ask(cwd, ['rev-parse', '--absolute-git-dir', '--is-inside-work-tree'], options);
		if (!where || where.code !== 0) return undefined;
		const [gitDir, inside] = where.stdout.toString('utf8').split('\n');
		if (inside !== 'true') return { gitDir, prefix: '' };
		const top = await this.ask(cwd, ['rev-parse', '--show-toplevel', '--show-prefix'], options);
		if (!top || top.code !== 0) return undefined;
		const [toplevel, prefix] = top.stdout.toString('utf8').split('\n');
		let real: string;
		try {
			real = fs.realpathSync(toplevel);
		} catch {
			return undefined;
		}
		return { gitDir, toplevel: real, prefix: prefix ?? '' };
	}

	async ask(cwd: string, args: readonly string[], options: GitAskOptions = {}): Promise<GitAnswer | undefined> {
		const git = this._binary();
		if (!git) return undefined;
		const env = this._env(options.env);
		const fixed = [
			...(options.globals ?? []),
			...FIXED_OFF.flatMap(setting => ['-c', setting]),
			'-c',
			`core.hooksPath=${empty()}`,
			'--no-pager',
		];
		const drivers = await this._driversOff(git, cwd, env, fixed);
		if (!drivers) return undefined;
		return run(git, cwd, [...fixed, ...drivers, ...args], env, options.input);
	}
}
