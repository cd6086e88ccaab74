/**
 * grep through the tool (guard → spawn rg → parse --json → page → shape) versus raw
 * `rg --json` on the same generated tree (≈30,000 files, a .gitignore'd dist/), method after
 * reference §2.1: 3 warm-up runs, 10 measured, mean ± sd, and match counts printed so a
 * mismatch is visible. Budget (§2.1 proposal): tool ≤ rg + 50 ms at p50.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { NodeWorkspace } from '../src/core/tools/nodeWorkspace';
import { bundledRgPath } from '../src/core/tools/ripgrep';
import { defaultToolDeps } from '../src/core/tools/toolDeps';
import { createToolset } from '../src/core/tools/toolset';
import { percentile, printTable, timeIt } from './table';

export const title = 'grep: the tool vs raw ripgrep (generated tree, ~30k files)';

const FILES = 30_000;
const ROOT = path.join(os.tmpdir(), `keel-grep-bench-${FILES}`);

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

export async function run(): Promise<void> {
	const rg = bundledRgPath();
	if (!rg) {
		throw new Error('no ripgrep binary (@vscode/ripgrep)');
	}
	generate();
	const tools = createToolset(defaultToolDeps());
	const grep = tools.find(t => t.name === 'grep')!;
	const workspace = new NodeWorkspace(ROOT);
	const cases = [
		{ name: 'rare literal', pattern: 'rareNeedleToken', limit: 500 },
		{ name: 'common word, first page of 100', pattern: 'render\\d+\\(', limit: 100 },
	];
	const rows: Array<Array<string | number>> = [];
	for (const c of cases) {
		const rgTimes: number[] = [];
		const toolTimes: number[] = [];
		let rgCount = 0;
		let toolCount = 0;
		for (let i = 0; i < 13; i++) {
			const rgMs = await timeIt(async () => {
				const out = spawnSync(
					rg,
					[
						'--json',
						'--no-require-git',
						'--hidden',
						'--glob',
						'!.git',
						'--smart-case',
						'--regexp',
						c.pattern,
						'--',
						'.',
					],
					{ cwd: ROOT, maxBuffer: 1 << 30 },
				);
				rgCount = out.stdout
					.toString()
					.split('\n')
					.filter(l => l.startsWith('{"type":"match"')).length;
			});
			const toolMs = await timeIt(async () => {
				const result = await grep.execute(
					{ pattern: c.pattern, context: 0, offset: 0, limit: c.limit },
					{ workspace, signal: new AbortController().signal, progress: () => {} },
				);
				toolCount = Number(result.count ?? 0);
			});
			if (i >= 3) {
				rgTimes.push(rgMs);
				toolTimes.push(toolMs);
			}
		}
		const ratio = percentile(toolTimes, 0.5) / percentile(rgTimes, 0.5);
		rows.push([
			c.name,
			`${stats(rgTimes)} (${rgCount})`,
			`${stats(toolTimes)} (${toolCount})`,
			percentile(toolTimes, 0.5) - percentile(rgTimes, 0.5),
			`${ratio.toFixed(2)}×`,
		]);
	}
	printTable(['case', 'raw rg --json ms (matches)', 'grep tool ms (matches)', 'p50 Δ ms', 'tool / rg (p50)'], rows);
	console.log(
		`\nTree: ${FILES} files in ${ROOT} (dist/ is .gitignore'd: ${FILES / 10} files skipped by both). Budget: tool ≤ rg + 50 ms p50 (reference §2.1).`,
	);
}
