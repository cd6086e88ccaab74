/**
 * What a command costs in each way the sandbox can reach the workspace: the local engine on the
 * shared disk (the local sandbox), a second engine (dockerd on a loopback TCP port, reached
 * through DOCKER_HOST) that shares the disk, the same engine for a folder it cannot see (the
 * workspace copied into a volume there: changes sent before, the volume listed and changed
 * files read back after), and Keel itself in a container of the local engine whose folder is
 * mapped to the engine host's path. Per command: wall time of DockerRunner.run for `true` and
 * for a command that edits one file (the copy reads it back), warm; the first command (image
 * there, preflight, container, copy-in) beside. Workspace: 300 files of 1 KB in 10 folders.
 * Needs root, the local engine and the sandbox image (scripts/lib/setup.sh), and dockerd.
 */
import { execFile, execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import Docker from 'dockerode';
import { DockerRunner } from '../src/core/exec/dockerRunner';
import { ensureImage } from '../src/core/exec/sandbox/sandboxImage';
import { forgetPreflights } from '../src/core/exec/sandbox/sandboxPreflight';
import { defaultLimits } from '../src/core/exec/sandbox/sandboxSpec';
import { secondEngineMissing, startSecondEngine } from '../test/support/secondEngine';
import { percentile, printTable, timeIt } from './table';

export const title = 'Sandbox workspace modes: a command on the shared disk, mapped, copied (beside the local sandbox)';

const RUNS = 20;
const exec = promisify(execFile);
const DOCKERFILE_DIR = path.resolve(__dirname, '../../sandbox');
const REPO_ROOT = path.resolve(__dirname, '../..');

function workspace(parent: string): string {
	const root = fs.mkdtempSync(path.join(parent, 'keel-modes-'));
	for (let d = 0; d < 10; d++) {
		fs.mkdirSync(path.join(root, `dir${d}`));
		for (let f = 0; f < 30; f++) fs.writeFileSync(path.join(root, `dir${d}`, `f${f}.txt`), 'x'.repeat(1023) + '\n');
	}
	return root;
}

type Row = Array<string | number>;

async function measure(label: string, root: string, docker: Docker | undefined, image: string): Promise<Row[]> {
	forgetPreflights();
	const runner = new DockerRunner({
		workspaceRoot: root,
		docker,
		settings: () => ({ image: { kind: 'user', name: image }, limits: defaultLimits }),
	});
	const request = (command: string) => ({ command, cwd: '', timeoutMs: 30_000, outputLimitBytes: 1 << 16 });
	try {
		const first = await timeIt(() => runner.run(request('true')));
		const plain: number[] = [];
		const edit: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			plain.push(await timeIt(() => runner.run(request('true'))));
			edit.push(await timeIt(() => runner.run(request(`echo ${i} >> dir0/f0.txt`))));
		}
		return [
			[`${label}: \`true\``, percentile(plain, 0.5), percentile(plain, 0.95), Math.round(first)],
			[`${label}: edit one file`, percentile(edit, 0.5), percentile(edit, 0.95), '—'],
		];
	} finally {
		await runner.disposeAsync();
	}
}

/** Keel in a container of the local engine, its folder bind-mounted from the host at another path. */
async function measureMapped(host: string): Promise<Row[]> {
	const args = ['run', '--rm', '--label', 'keel.bench=workspace-modes', '--network', 'none', '-e', 'HOME=/tmp'];
	const mounts = [
		'/var/run/docker.sock:/var/run/docker.sock',
		`${process.execPath}:/usr/local/bin/node:ro`,
		`${REPO_ROOT}:${REPO_ROOT}:ro`,
		`${host}:/srv/project`,
	];
	const script = path.join(REPO_ROOT, 'out/test/support/sandboxInContainer.js');
	const row = async (command: string) => {
		const { stdout } = await exec(
			'docker',
			[
				...args,
				...mounts.flatMap(m => ['-v', m]),
				'debian:bookworm-slim',
				'node',
				script,
				'/srv/project',
				command,
				String(RUNS),
			],
			{ timeout: 180_000 },
		);
		const out = JSON.parse(stdout.trim().split('\n').pop()!) as {
			ms?: number[];
			result?: { mappedTo?: string };
			error?: { message: string };
		};
		if (!out.ms || !out.result?.mappedTo) throw new Error(`mapped run failed: ${out.error?.message ?? stdout}`);
		return out.ms;
	};
	const plain = await row('true');
	const edit = await row('echo x >> dir0/f0.txt');
	return [
		['mapped (local engine, Keel in a container): `true`', percentile(plain, 0.5), percentile(plain, 0.95), '—'],
		['mapped: edit one file', percentile(edit, 0.5), percentile(edit, 0.95), '—'],
	];
}

export async function run(): Promise<void> {
	const missing = secondEngineMissing();
	if (missing) throw new Error(`a second engine cannot start here: ${missing}`);
	const image = await ensureImage(new Docker(), { kind: 'managed', dockerfileDir: DOCKERFILE_DIR }, () => undefined);
	const engine = await startSecondEngine();
	const roots: string[] = [];
	try {
		execFileSync('sh', ['-c', 'docker save "$1" | DOCKER_HOST="$2" docker load', 'sh', image, engine.dockerHost], {
			stdio: 'ignore',
		});
		const shared = workspace(os.tmpdir());
		const hidden = workspace(engine.hidden);
		roots.push(shared, hidden);
		const rows = [
			...(await measure('local sandbox (local engine, shared disk)', shared, undefined, image)),
			...(await measure('second engine over TCP, shared disk', shared, engine.docker(), image)),
			...(await measure('second engine over TCP, copied', hidden, engine.docker(), image)),
			...(await measureMapped(shared).catch((error: Error) => [[`mapped: ${error.message}`, '—', '—', '—']])),
		];
		printTable(['command (ms)', 'p50', 'p95', 'first command'], rows);
		console.log(
			`\nn=${RUNS} each after the first; 300 files of 1 KB; the first command includes the preflight, the container and (copied) the copy-in`,
		);
	} finally {
		roots.forEach(root => fs.rmSync(root, { recursive: true, force: true }));
		await engine.stop();
	}
}
