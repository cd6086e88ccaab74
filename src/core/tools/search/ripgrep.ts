/**
 * ripgrep as a child process: the file lister behind find_path and the searcher behind grep.
 * Output is streamed and the process is killed as soon as the page is full, because match
 * handling, not searching, is what costs when matches are many (ripgrep README, P4).
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as readline from 'readline';
import { onAbort } from '../../util/abort';

/** The bundled binary from @vscode/ripgrep when it is there (tests, benches); the host passes VS Code's own. */
export function bundledRgPath(): string | undefined {
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const candidate = (require('@vscode/ripgrep') as { rgPath: string }).rgPath;
		return fs.existsSync(candidate) ? candidate : undefined;
	} catch {
		return undefined;
	}
}

/** Common flags: honour .gitignore even outside a git repo, see dotfiles but never .git itself. */
function baseArgs(excludes: string[]): string[] {
	const args = ['--no-require-git', '--hidden', '--no-config', '--glob', '!.git'];
	for (const glob of excludes) {
		args.push('--iglob', glob.startsWith('!') ? glob : `!${glob}`);
	}
	return args;
}

/** Runs rg, hands each stdout line to `onLine` until it returns false, then kills rg. */
function runRg(
	rg: string,
	cwd: string,
	args: string[],
	onLine: (line: string) => boolean,
	signal?: AbortSignal,
): Promise<{ stopped: boolean; stderr: string; code: number | null }> {
	return new Promise((resolve, reject) => {
		const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
		let stopped = false;
		let stderr = '';
		const stop = () => {
			stopped = true;
			child.kill();
		};
		const cancelled = onAbort(signal, stop);
		child.stderr.on('data', chunk => (stderr = (stderr + chunk).slice(-2000)));
		const lines = readline.createInterface({ input: child.stdout });
		lines.on('line', line => {
			if (!stopped && !onLine(line)) {
				stop();
				lines.close();
			}
		});
		child.on('error', reject);
		child.on('close', code => {
			cancelled.dispose();
			resolve({ stopped, stderr, code });
		});
	});
}

export interface ListFilesOptions {
	rg: string;
	cwd: string;
	glob: string;
	excludes: string[];
	max: number;
	signal?: AbortSignal;
}

export async function rgListFiles(options: ListFilesOptions): Promise<{ files: string[]; hasMore: boolean }> {
	const files: string[] = [];
	let hasMore = false;
	const args = ['--files', ...baseArgs(options.excludes), '--glob', options.glob];
	await runRg(
		options.rg,
		options.cwd,
		args,
		line => {
			if (files.length >= options.max) {
				hasMore = true;
				return false;
			}
			files.push(line.replace(/\\/g, '/').replace(/^\.\//, ''));
			return true;
		},
		options.signal,
	);
	return { files: files.sort(), hasMore };
}

export interface SearchOptions {
	rg: string;
	cwd: string;
	pattern: string;
	fixedStrings: boolean;
	caseSensitive: boolean | undefined;
	/** Path filter: glob relative to the root. */
	include?: string;
	excludes: string[];
	context: number;
	offset: number;
	limit: number;
	signal?: AbortSignal;
}

export interface SearchLine {
	path: string;
	line: number;
	text: string;
	match: boolean;
}

export interface SearchResult {
	lines: SearchLine[];
	matches: number;
	hasMore: boolean;
	/** Matches counted before rg stopped (offset + page + 1 at most): what a search over several folders skips by. */
	seen: number;
	error?: string;
}

export async function rgSearch(options: SearchOptions): Promise<SearchResult> {
	const args = ['--json', ...baseArgs(options.excludes), '--max-columns', '400', '--max-columns-preview'];
	args.push(
		options.caseSensitive === undefined
			? '--smart-case'
			: options.caseSensitive
				? '--case-sensitive'
				: '--ignore-case',
	);
	if (options.fixedStrings) {
		args.push('--fixed-strings');
	}
	if (options.context > 0) {
		args.push('--context', String(options.context));
	}
	if (options.include) {
		args.push('--glob', options.include);
	}
	args.push('--regexp', options.pattern, '--', '.');
	const lines: SearchLine[] = [];
	let seen = 0;
	let hasMore = false;
	let pendingContext: SearchLine[] = [];
	const run = await runRg(
		options.rg,
		options.cwd,
		args,
		raw => {
			const event = JSON.parse(raw) as { type: string; data: RgData };
			if (event.type !== 'match' && event.type !== 'context') {
				return true;
			}
			const entry: SearchLine = {
				path: (event.data.path.text ?? '').replace(/\\/g, '/').replace(/^\.\//, ''),
				line: event.data.line_number,
				text: (event.data.lines.text ?? '').replace(/\r?\n$/, ''),
				match: event.type === 'match',
			};
			if (!entry.match) {
				// Context before the first match of the page belongs to the page only if that match does.
				if (seen > options.offset) {
					lines.push(entry);
				} else {
					pendingContext.push(entry);
					pendingContext = pendingContext.slice(-options.context);
				}
				return true;
			}
			seen++;
			if (seen <= options.offset) {
				pendingContext = [];
				return true;
			}
			if (seen > options.offset + options.limit) {
				hasMore = true;
				return false;
			}
			lines.push(...pendingContext.filter(c => c.path === entry.path), entry);
			pendingContext = [];
			return true;
		},
		options.signal,
	);
	// rg exits 1 for "no match" and 2 for errors such as a bad regex.
	const error = !run.stopped && run.code === 2 && seen === 0 ? run.stderr.trim() : undefined;
	return {
		lines,
		matches: Math.min(seen, options.offset + options.limit) - Math.min(seen, options.offset),
		hasMore,
		seen,
		error,
	};
}

interface RgData {
	path: { text?: string };
	line_number: number;
	lines: { text?: string };
}
