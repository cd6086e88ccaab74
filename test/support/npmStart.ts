// Runs `npm start` as README writes it, from the repository root, and reads the URL it prints:
// nothing in its environment a user would not have (fromTheRun below). The one thing a test
// chooses is the user: a fresh HOME, as a newcomer's is for Keel (no ~/.cache/keel yet, so this
// is a first start every time, and the developer's own ~/.cache/keel stays untouched), with no
// XDG folders set, so the default places are the ones used. stop() ends the whole process group: npm, the script and the code-server it
// execs, with the extension host and pty host code-server forks.
import { type ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { REPO_ROOT } from './codeServer';
import { killGroup, stopGroup } from './processes';

export interface NpmStart {
	/** The fresh HOME the command ran with. */
	home: string;
	/** The URL the command printed ("Keel is ready: open …"). */
	url: string;
	/** When `npm start` was spawned (Date.now()). */
	startedAt: number;
	/** Milliseconds from spawning `npm start` to the printed URL. */
	readyMs: number;
	/** Everything printed so far, stdout and stderr. */
	output(): string;
	stop(): Promise<void>;
}

const READY = /Keel is ready: open (http:\/\/127\.0\.0\.1:\d+\/\S*)/;

/**
 * `npm start` (args: what follows `--`), with `env` merged over the test's environment.
 * Waits for the printed URL; a command that exits first, or never prints it, is an error
 * carrying its output.
 */
export async function npmStart(
	args: string[] = [],
	env: Record<string, string> = {},
	timeoutMs = 240_000,
): Promise<NpmStart> {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-npm-start-'));
	const home = path.join(root, 'home');
	fs.mkdirSync(home);
	const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !fromTheRun(name)));
	const t0 = Date.now();
	const child = spawn('npm', ['start', ...(args.length ? ['--', ...args] : [])], {
		cwd: REPO_ROOT,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...base, HOME: home, ...env },
	});
	live.add(child);
	watchForAbort();
	let printed = '';
	const collect = (chunk: Buffer) => {
		printed += chunk.toString();
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	const stop = async () => {
		live.delete(child);
		await stopGroup(child);
		if (process.env.KEEL_KEEP_TMP !== '1') fs.rmSync(root, { recursive: true, force: true });
	};
	try {
		const url = await new Promise<string>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`no URL within ${timeoutMs} ms`)), timeoutMs);
			const check = () => {
				if (printed.includes('Starting VS Code with Keel loaded')) {
					clearTimeout(timer);
					reject(new Error('a desktop `code` is on PATH, so npm start opened it instead of code-server'));
				}
				const match = READY.exec(printed);
				if (match) {
					clearTimeout(timer);
					resolve(match[1]);
				}
			};
			child.stdout.on('data', check);
			child.once('exit', code => {
				clearTimeout(timer);
				reject(new Error(`npm start exited (${code}) before printing a URL`));
			});
		});
		return { home, url, startedAt: t0, readyMs: Date.now() - t0, output: () => printed, stop };
	} catch (error) {
		await stop();
		throw new Error(`${(error as Error).message}\n--- npm start printed ---\n${printed.slice(-3000)}`, {
			cause: error,
		});
	}
}

/**
 * Variables of the test run a user typing `npm start` would not have: the outer npm's (`npm
 * test` sets npm_config_*, INIT_CWD…, which the inner npm would take as its configuration and
 * as where the command was typed), the developer's own XDG folders (the user's are the fresh
 * HOME's), and every KEEL_* knob but two: KEEL_VSCODE, which the e2e-oldest tier sets to run
 * the oldest code-server (`KEEL_VSCODE=oldest npm start` in docs/development.md), and KEEL_CACHE, where the
 * run keeps the code-servers it installed (scripts/lib/setup.sh always sets it; unset, `npm
 * start` would install them again in the fresh HOME's ~/.cache/keel/tools).
 */
function fromTheRun(name: string): boolean {
	if (name === 'KEEL_VSCODE' || name === 'KEEL_CACHE') return false;
	return /^(?:npm_|KEEL_)/.test(name) || name === 'INIT_CWD' || /^XDG_(?:CACHE|CONFIG|DATA|STATE)_HOME$/.test(name);
}

// The command runs in its own process group, so Ctrl-C on the test run does not reach it.
const live = new Set<ChildProcess>();
let watching = false;
function watchForAbort(): void {
	if (watching) return;
	watching = true;
	process.on('exit', () => live.forEach(c => killGroup(c, 'SIGKILL')));
}
