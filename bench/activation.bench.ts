/**
 * Activation cost in the real extension host (code-server), step by step: `activate()` (module
 * evaluation included), the first use that needs no conversation (a palette command or an API
 * call: the host bundle loads and the composition root is built), and the first conversation
 * (the session store opens). Each step lists what it loaded: the extension's files in Node's
 * module cache with their size, and the host features built so far. Runs the extension-host
 * activation suite a few times and reads the figures it records.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { ActivationFigures } from '../test/vscode/suite/activation.test';
import { percentile, printTable } from './table';

export const title = `Activation in the real extension host (code-server ${process.env.KEEL_VSCODE === 'oldest' ? 'oldest' : 'current'} release)`;

const RUNS = 5;
const BUDGET_MS = 50;

export async function run(): Promise<void> {
	const root = path.join(__dirname, '..', '..');
	const file = path.join(root, 'test-results', 'activation-figures.json');
	const runs: ActivationFigures[] = [];
	for (let i = 0; i < RUNS; i++) {
		fs.rmSync(file, { force: true });
		const result = spawnSync(
			process.execPath,
			[path.join(root, 'out/test/vscode/run.js'), '--grep', 'Keel activation'],
			{ cwd: root, encoding: 'utf8', timeout: 240_000 },
		);
		if (!fs.existsSync(file)) {
			throw new Error(
				`the activation suite recorded nothing (exit ${result.status}): ${(result.stdout + result.stderr).slice(-400)}`,
			);
		}
		runs.push(JSON.parse(fs.readFileSync(file, 'utf8')) as ActivationFigures);
	}
	const steps = runs[0].steps.map((step, index) => ({ ...step, ms: runs.map(r => r.steps[index].ms) }));
	const builds = runs.flatMap(r => (r.hostBuildMs === undefined ? [] : [r.hostBuildMs]));
	printTable(
		['step (ms)', 'median', 'max', 'budget'],
		steps.map((step, index) => [
			step.step,
			percentile(step.ms, 0.5),
			Math.max(...step.ms),
			index === 0 ? `< ${BUDGET_MS}` : 'lazy, off the activation path',
		]),
	);
	if (builds.length) {
		console.log(
			`\nof the first use, building the composition root: median ${percentile(builds, 0.5).toFixed(1)} ms`,
		);
	}
	console.log('\nwhat each step loaded (new files, then the host features built so far):');
	let before = new Set<string>();
	for (const step of steps) {
		const added = step.loaded.filter(f => !before.has(f.file));
		const total = step.loaded.reduce((sum, f) => sum + f.bytes, 0);
		const files = added.map(f => `${f.file} (${(f.bytes / 1024).toFixed(1)} KB)`).join(', ') || 'nothing new';
		console.log(`  ${step.step}: ${files}; ${(total / 1024).toFixed(1)} KB of JavaScript in all`);
		console.log(`    features built: ${step.built.length ? step.built.join(', ') : 'none'}`);
		before = new Set(step.loaded.map(f => f.file));
	}
	console.log(
		`\nactivation / budget: ${((percentile(steps[0].ms, 0.5) / BUDGET_MS) * 100).toFixed(0)}%  (${RUNS} fresh extension hosts)`,
	);
}
