/**
 * grep through the tool (guard → spawn rg → parse --json → page → shape) versus ripgrep alone,
 * on the same generated tree (≈30,000 files, a .gitignore'd dist/). Each tool run is a real
 * search: the session's result cache is off for it, and every result is checked to be a fresh
 * one. The reference runs the tool's own rg command line and, like the tool, stops rg once the
 * page is full, so both do the same search. What the result cache answers for a call repeated
 * in a session is its own row. 3 warm-up runs, 10 measured, interleaved; mean ± sd, match counts
 * printed so a mismatch is visible. Budget: the tool's search ≤ rg + 50 ms at p50.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as readline from 'readline';
import type { ToolDefinition } from '../src/core/tools/defineTool';
import { NodeWorkspace } from '../src/core/tools/files/nodeWorkspace';
import { defaultCacheSettings } from '../src/core/tools/resultCache';
import { bundledRgPath } from '../src/core/tools/search/ripgrep';
import { defaultToolDeps } from '../src/core/tools/toolDeps';
import { createToolset } from '../src/core/tools/toolset';
import { defaultToolSystemConfig } from '../src/core/tools/toolSystemConfig';
import { percentile, printTable, timeIt } from './table';

export const title = 'grep: the tool searching vs ripgrep alone, and a cache hit (generated tree, ~30k files)';

const FILES = 30_000;
const ROOT = path.join(os.tmpdir(), `keel-grep-bench-${FILES}`);
const WARMUP = 3;
const MEASURED = 10;
const BUDGET_MS = 50;

function generate(): void {
	if (fs.existsSync(path.join(ROOT, '.done'))) {
		return;
	}
	fs.rmSync(ROOT, { recursive: true, force: true });
	const words = ['alpha', 'beta', 'gamma', 'delta', 'render', 'parse', 'value', 'items', 'config', 'handler'];
	for (let i = 0; i < FILES; i++) {
		const dir = path.join(ROOT, i % 10 === 0 ? 'dist' : 'src', `pkg${i % 97}`, `mod${i % 13}`);
		fs.mkdirSync(dir, { recursive: true });
		const lines = Array.from(
			{ length: 40 },
			(_, l) =>
				`export function ${words[(i + l) % 10]}${l}(x: number) { return x * ${l}; } // ${words[(i * l) % 10]}`,
		);
		if (i % 400 === 7) {
			lines.push('const rareNeedleToken = 42;');
		}
		fs.writeFileSync(path.join(dir, `file${i}.ts`), lines.join('\n'));
	}
	fs.writeFileSync(path.join(ROOT, '.gitignore'), 'dist/\n');
	fs.writeFileSync(path.join(ROOT, '.done'), '');
}

function stats(values: number[]): string {
	const mean = values.reduce((a, b) => a + b, 0) / values.length;
	const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
	return `${mean.toFixed(1)} ± ${sd.toFixed(1)}`;
}

/** The command line the grep tool gives rg for this pattern (src/core/tools/search/ripgrep.ts), run by hand. */
function rgArgs(pattern: string): string[] {
	return [
		'--json',
		'--no-require-git',
		'--hidden',
		'--no-config',
		'--glob',
		'!.git',
		'--max-columns',
		'400',
		'--max-columns-preview',
		'--smart-case',
		'--regexp',
		pattern,
		'--',
		'.',
	];
}

/** rg's matches, stopping it after `stopAfter` as the tool does when its page is full. */
function rgMatches(rg: string, pattern: string, stopAfter: number): Promise<number> {
	return new Promise((resolve, reject) => {
		const child = spawn(rg, rgArgs(pattern), { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
		let matches = 0;
		const lines = readline.createInterface({ input: child.stdout });
		lines.on('line', line => {
			if (line.startsWith('{"type":"match"') && ++matches >= stopAfter) {
				child.kill();
				lines.close();
			}
		});
		child.on('error', reject);
		child.on('close', () => resolve(Math.min(matches, stopAfter)));
	});
}

interface Run {
	ms: number;
	count: number;
	cached: boolean;
}

async function runTool(grep: ToolDefinition<any>, workspace: NodeWorkspace, input: object): Promise<Run> {
	let count = 0;
	let cached = false;
	const ms = await timeIt(async () => {
		const result = await grep.execute(input, {
			workspace,
			signal: new AbortController().signal,
			progress: () => {},
		});
		count = Number(result.count ?? 0);
		cached = result.cached === true;
	});
	return { ms, count, cached };
}

export async function run(): Promise<void> {
	const rg = bundledRgPath();
	if (!rg) {
		throw new Error('no ripgrep binary (@vscode/ripgrep)');
	}
	generate();
	const grepOf = (cache: boolean) =>
		createToolset(
			defaultToolDeps({
				toolSystem: () => defaultToolSystemConfig({ cache: { ...defaultCacheSettings, enabled: cache } }),
			}),
		).find(t => t.name === 'grep')!;
	const searching = grepOf(false);
	const caching = grepOf(true);
	const workspace = new NodeWorkspace(ROOT);
	const cases = [
		{ name: 'rare literal (every file read)', pattern: 'rareNeedleToken', limit: 500 },
		{ name: 'common word, first page of 100', pattern: 'render\\d+\\(', limit: 100 },
	];
	const rows: Array<Array<string | number>> = [];
	for (const c of cases) {
		const input = { pattern: c.pattern, context: 0, offset: 0, limit: c.limit };
		const rgTimes: number[] = [];
		const toolTimes: number[] = [];
		const hitTimes: number[] = [];
		let rgCount = 0;
		let toolCount = 0;
		await runTool(caching, workspace, input);
		for (let i = 0; i < WARMUP + MEASURED; i++) {
			// The tool stops rg at one past the page, to know whether there is more.
			const rgMs = await timeIt(async () => (rgCount = await rgMatches(rg, c.pattern, c.limit + 1)));
			const search = await runTool(searching, workspace, input);
			const hit = await runTool(caching, workspace, input);
			if (search.cached || !hit.cached) {
				throw new Error(
					'a search was answered from the cache, or a repeat was not: the figures would be wrong',
				);
			}
			toolCount = search.count;
			if (i >= WARMUP) {
				rgTimes.push(rgMs);
				toolTimes.push(search.ms);
				hitTimes.push(hit.ms);
			}
		}
		const delta = percentile(toolTimes, 0.5) - percentile(rgTimes, 0.5);
		rows.push([
			c.name,
			`${stats(rgTimes)} (${Math.min(rgCount, c.limit)})`,
			`${stats(toolTimes)} (${toolCount})`,
			delta,
			`${(percentile(toolTimes, 0.5) / percentile(rgTimes, 0.5)).toFixed(2)}×`,
			stats(hitTimes),
		]);
	}
	printTable(
		[
			'case',
			'rg alone, ms (matches)',
			'grep tool searching, ms (matches)',
			'p50 Δ ms',
			'tool / rg (p50)',
			'same call again: cache hit, ms',
		],
		rows,
	);
	console.log(
		`\nTree: ${FILES} files in ${ROOT} (dist/ is .gitignore'd: ${FILES / 10} files skipped by both). ` +
			`Budget: the tool's search ≤ rg + ${BUDGET_MS} ms at p50. The cache-hit column is no search at all: ` +
			'a repeated call in one session, answered from memory until a write or the TTL drops it.',
	);
}
