/**
 * Command latency of a trivial command (`true`): Keel's warm sandbox container (dockerode
 * exec, in process, with the timeout/process-group wrapper) next to `docker exec` from the CLI
 * into the same container and a hardened `docker run --rm` per command. Earlier measurements
 * on this kind of machine: `docker exec` CLI p50 78 ms, Engine API exec p50 54–66 ms,
 * hardened `docker run --rm` p50 293 ms. Needs a running engine and the
 * base image (scripts/lib/setup.sh: keel_start_docker, keel_docker_base_image).
 * Also: how soon a command that runs past its timeout is killed (whole process tree) and
 * reported, next to the timeout itself; budget: the timeout plus 8 s.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import { DockerRunner } from '../src/core/exec/dockerRunner';
import { defaultLimits } from '../src/core/exec/sandbox/sandboxSpec';
import { percentile, printTable, timeIt } from './table';

export const title = 'Shell sandbox: command latency (Keel warm exec vs docker exec CLI vs docker run --rm)';

const run = promisify(execFile);
const WARM_RUNS = 40;
const COLD_RUNS = 15;
const KILL_RUNS = 3;
const KILL_TIMEOUT_MS = 2_000;
const KILL_BUDGET_MS = KILL_TIMEOUT_MS + 8_000;

async function sample(times: number, fn: () => Promise<unknown>): Promise<number[]> {
	const samples: number[] = [];
	for (let i = 0; i < times; i++) {
		samples.push(await timeIt(fn));
	}
	return samples;
}

export async function runBench(): Promise<void> {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-exec-bench-'));
	const runner = new DockerRunner({
		workspaceRoot: root,
		settings: () => ({
			image: { kind: 'managed', dockerfileDir: path.resolve(__dirname, '../../sandbox') },
			limits: defaultLimits,
		}),
	});
	try {
		if (!(await runner.available())) {
			throw new Error('no Docker engine answers; start one with scripts/lib/setup.sh keel_start_docker');
		}
		const request = { command: 'true', cwd: '', timeoutMs: 30_000, outputLimitBytes: 1 << 20 };
		const first = await timeIt(() => runner.run(request));
		const id = (await runner.containerId())!;
		const image = (await runner.docker.getContainer(id).inspect()).Config.Image;
		for (let i = 0; i < 3; i++) {
			await runner.run(request);
		}
		// Interleaved, so drift on a busy machine hits both the same way.
		const keel: number[] = [];
		const cli: number[] = [];
		for (let i = 0; i < WARM_RUNS; i++) {
			keel.push(await timeIt(() => runner.run(request)));
			cli.push(await timeIt(() => run('docker', ['exec', id, 'true'])));
		}
		const hardened = [
			'--cap-drop',
			'ALL',
			'--security-opt',
			'no-new-privileges',
			'--read-only',
			'--tmpfs',
			'/tmp',
			'--pids-limit',
			'256',
			'--memory',
			'512m',
			'--network',
			'none',
			'--user',
			defaultLimits.user,
		];
		const perCommand = await sample(COLD_RUNS, () => run('docker', ['run', '--rm', ...hardened, image, 'true']));
		const keelP50 = percentile(keel, 0.5);
		const rows = [
			['Keel warm container (dockerode exec)', keelP50, percentile(keel, 0.95), 1],
			[
				'docker exec (CLI) into the same container',
				percentile(cli, 0.5),
				percentile(cli, 0.95),
				percentile(cli, 0.5) / keelP50,
			],
			[
				'docker run --rm per command (hardened)',
				percentile(perCommand, 0.5),
				percentile(perCommand, 0.95),
				percentile(perCommand, 0.5) / keelP50,
			],
		];
		printTable(['trivial command `true`', 'p50 ms', 'p95 ms', '× Keel p50'], rows);
		// A loop that ignores signals in a subshell, a detached sleep: the kill must take the tree.
		const endless = '(while :; do :; done) & (sleep 1000) & setsid sleep 1001 & while :; do :; done';
		const kills: number[] = [];
		for (let i = 0; i < KILL_RUNS; i++) {
			kills.push(
				await timeIt(async () => {
					const result = await runner.run({ ...request, command: endless, timeoutMs: KILL_TIMEOUT_MS });
					if (!result.timedOut) {
						throw new Error('the endless command did not time out: the figure would be wrong');
					}
				}),
			);
		}
		console.log('');
		printTable(
			['command past its timeout', 'timeout ms', 'p50 ms', 'max ms', 'budget ms'],
			[['killed and reported', KILL_TIMEOUT_MS, percentile(kills, 0.5), Math.max(...kills), KILL_BUDGET_MS]],
		);
		console.log(
			`\nfirst command of a session (container create + start, image cached): ${first.toFixed(0)} ms; n=${WARM_RUNS} warm, ${COLD_RUNS} per-command`,
		);
	} finally {
		await runner.disposeAsync();
		fs.rmSync(root, { recursive: true, force: true });
	}
}

export { runBench as run };
