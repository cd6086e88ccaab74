// Runs `npm start` as README writes it, from the repository root, and reads the URL it prints:
// no KEEL_* variable of the script's own, nothing a user would not have. The one thing a test
// chooses is the user: a fresh HOME (an empty per-user cache, as on a bare machine, and the
// developer's own ~/.cache/keel untouched), without XDG_CACHE_HOME, so the default place is
// the one used. stop() ends the whole process group: npm, the script and the code-server it
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
	const base = { ...process.env };
	// The script's own knobs and the XDG cache folder are the developer's, not a newcomer's.
	for (const name of ['XDG_CACHE_HOME', 'KEEL_PORT']) delete base[name];
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
	const t0 = Date.now();
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
		return { home, url, readyMs: Date.now() - t0, output: () => printed, stop };
	} catch (error) {
		await stop();
		throw new Error(`${(error as Error).message}\n--- npm start printed ---\n${printed.slice(-3000)}`, {
			cause: error,
		});
	}
}

// The command runs in its own process group, so Ctrl-C on the test run does not reach it.
const live = new Set<ChildProcess>();
let watching = false;
function watchForAbort(): void {
	if (watching) return;
	watching = true;
	process.on('exit', () => live.forEach(c => killGroup(c, 'SIGKILL')));
}
