/**
 * Activation cost in the real extension host (code-server): how long `activate()` takes
 * (module evaluation included) and how long the lazily loaded host bundle takes on first
 * use. Runs the extension-host activation suite a few times and reads the figures it records.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { percentile, printTable } from './table';

export const title = `Activation in the real extension host (code-server ${process.env.KEEL_VSCODE === 'oldest' ? 'oldest' : 'current'} release)`;

const RUNS = 5;
const BUDGET_MS = 50;

export async function run(): Promise<void> {
	const root = path.join(__dirname, '..', '..');
	const figures = path.join(root, 'test-results', 'activation-figures.json');
	const activation: number[] = [];
	const hostLoad: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		fs.rmSync(figures, { force: true });
		const result = spawnSync(
			process.execPath,
			[path.join(root, 'out/test/vscode/run.js'), '--grep', 'Keel activation'],
			{ cwd: root, encoding: 'utf8', timeout: 240_000 },
		);
		if (!fs.existsSync(figures)) {
			throw new Error(
				`the activation suite recorded nothing (exit ${result.status}): ${(result.stdout + result.stderr).slice(-400)}`,
			);
		}
		const { activationMs, hostLoadMs } = JSON.parse(fs.readFileSync(figures, 'utf8')) as {
			activationMs: number;
			hostLoadMs: number;
		};
		activation.push(activationMs);
		hostLoad.push(hostLoadMs);
	}
	printTable(
		['measure (ms)', 'median', 'max', 'budget'],
		[
			['activate() incl. module load', percentile(activation, 0.5), Math.max(...activation), `< ${BUDGET_MS}`],
			[
				'host bundle load on first use',
				percentile(hostLoad, 0.5),
				Math.max(...hostLoad),
				'lazy, off the activation path',
			],
		],
	);
	console.log(
		`\nactivation / budget: ${((percentile(activation, 0.5) / BUDGET_MS) * 100).toFixed(0)}%  (${RUNS} fresh extension hosts)`,
	);
}
