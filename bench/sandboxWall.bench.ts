/**
 * What the sandbox's wall costs: a trivial command (`true`) through the warm container, and
 * the first command of a session (scan, container create and start, the user check), on a
 * small workspace and on a 50 000-file tree (5 000 folders, a few secrets, a repository).
 * Each command now also ends every process the command left (one more exec) and checks that
 * the container's masks still cover what the host has (one stat per folder, before and after).
 * Reference, same machine kind, before the wall (warm exec with only the process-group kill,
 * no scan): per command p50 ≈ 45–60 ms on either workspace; first command ≈ 0.3–1 s.
 * Budget [proposal]: per command p50 ≤ 100 ms on the small workspace (perf-reliability-security
 * §2.2 gate for a warm exec); first command ≤ 1.5 s with the image cached.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DockerRunner } from '../src/core/exec/dockerRunner';
import { defaultLimits } from '../src/core/exec/sandbox/sandboxSpec';
import { percentile, printTable, timeIt } from './table';

export const title = 'Shell sandbox: the cost of the wall (per command, and the first command on a large workspace)';

const WARM_RUNS = 25;
const COLD_RUNS = 3;

/** A tree of `count` files: folders eight wide and four deep, ten files in each, plus secrets and a repository. */
function makeTree(root: string, count: number): void {
	let made = 0;
	const fill = (dir: string, depth: number) => {
		fs.mkdirSync(dir, { recursive: true });
		for (let i = 0; i < 10 && made < count; i++, made++) fs.writeFileSync(path.join(dir, `f${i}.ts`), 'x');
		for (let j = 0; depth < 4 && j < 8 && made < count; j++) fill(path.join(dir, `d${j}`), depth + 1);
	};
	for (let p = 0; made < count; p++) fill(path.join(root, `pkg${p}`), 0);
	fs.writeFileSync(path.join(root, '.env'), 'SECRET=1\n');
	fs.mkdirSync(path.join(root, '.git/hooks'), { recursive: true });
	fs.writeFileSync(path.join(root, '.git/config'), '[core]\n');
	fs.mkdirSync(path.join(root, 'pkg0/.ssh'), { recursive: true });
	fs.writeFileSync(path.join(root, 'pkg0/.ssh/id_rsa'), 'k');
}

function runnerFor(root: string): DockerRunner {
	return new DockerRunner({
		workspaceRoot: root,
		settings: () => ({
			image: { kind: 'managed', dockerfileDir: path.resolve(__dirname, '../../sandbox') },
			limits: defaultLimits,
		}),
	});
}

export async function run(): Promise<void> {
	const request = { command: 'true', cwd: '', timeoutMs: 30_000, outputLimitBytes: 1 << 20 };
	const rows: Array<Array<string | number>> = [];
	for (const [name, files] of [
		['small (20 files)', 20],
		['large (50 000 files, 5 000 folders)', 50_000],
	] as const) {
		const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-wall-bench-'));
		try {
			makeTree(root, files);
			if (process.getuid?.() === 0) fs.chownSync(root, 1000, 1000);
			const cold: number[] = [];
			for (let i = 0; i < COLD_RUNS; i++) {
				const runner = runnerFor(root);
				try {
					if (!(await runner.available())) throw new Error('no Docker engine answers');
					cold.push(await timeIt(() => runner.run(request)));
				} finally {
					await runner.disposeAsync();
				}
			}
			const runner = runnerFor(root);
			try {
				for (let i = 0; i < 3; i++) await runner.run(request);
				const warm: number[] = [];
				for (let i = 0; i < WARM_RUNS; i++) warm.push(await timeIt(() => runner.run(request)));
				rows.push([name, percentile(cold, 0.5), percentile(warm, 0.5), percentile(warm, 0.95)]);
			} finally {
				await runner.disposeAsync();
			}
		} finally {
			fs.rmSync(root, { recursive: true, force: true });
		}
	}
	printTable(['workspace', 'first command p50 ms', 'per command p50 ms', 'per command p95 ms'], rows);
	console.log(`\nn=${COLD_RUNS} first commands, ${WARM_RUNS} warm commands per workspace`);
}
