/**
 * What asking the engine "do you see this workspace?" costs before a session's first command
 * (sandboxPreflight.ts: write a marker, create a container with the folder bind-mounted, read
 * the marker back through the archive API, remove both), and what the remembered answer costs
 * after it. Reference: one warm `exec` of the sandbox (bench exec: about 50 ms), and a
 * hardened `docker run --rm` (about 290 ms). Needs a running engine and debian:bookworm-slim.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import Docker from 'dockerode';
import { ensureWorkspaceShared, forgetPreflights } from '../src/core/exec/sandbox/sandboxPreflight';
import { nullLogger } from '../src/core/ports';
import { percentile, printTable, timeIt } from './table';

export const title = 'Sandbox preflight: does the engine see the workspace (first ask, remembered answer)';

const RUNS = 15;
const BUDGET_FIRST_MS = 500;

export async function run(): Promise<void> {
	const docker = new Docker();
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-preflight-bench-'));
	const folders = [{ host: root, target: '/workspace' }];
	const ask = () => ensureWorkspaceShared(docker, folders, 'debian:bookworm-slim', nullLogger);
	try {
		await docker.ping();
		await ask();
		const first: number[] = [];
		const cached: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			forgetPreflights();
			first.push(await timeIt(ask));
			cached.push(await timeIt(ask));
		}
		printTable(
			['preflight (ms)', 'p50', 'p95', 'budget'],
			[
				[
					'first ask (marker, create, read back, remove)',
					percentile(first, 0.5),
					percentile(first, 0.95),
					BUDGET_FIRST_MS,
				],
				['remembered answer', percentile(cached, 0.5), percentile(cached, 0.95), '—'],
			],
		);
		console.log(`\nn=${RUNS} each, local engine; once per engine and workspace per window`);
	} finally {
		forgetPreflights();
		fs.rmSync(root, { recursive: true, force: true });
	}
}
