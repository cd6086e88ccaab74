// Keel in a container whose workspace comes from the engine's host (a dev container with the
// host's Docker socket): the workspace is at /srv/project inside, a folder under the temporary
// directory on the engine's machine. Keel, run from the compiled tree in a container of the real
// engine, must find its own container, read where /srv/project comes from, confirm it with the
// preflight's marker, and mount that path; the card says which path the engine mounted.
import * as assert from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { promisify } from 'util';
import Docker from 'dockerode';
import { makeWorkspace, REPO_ROOT, requireDocker } from '../support/dockerEngine';
import { requirePart } from '../support/tierGate';

const exec = promisify(execFile);
const SOCKET = '/var/run/docker.sock';
const TEST_LABEL = 'keel.test=mapped-workspace';

interface Outcome {
	result?: { stdout: string; exitCode: number; mappedTo?: string; copied?: { engine: string } };
	display?: string;
	error?: { code: string; message: string };
	log: string[];
}

/** Runs one command through Keel's sandbox from a container that has `mounts` (host:container). */
async function keelInContainer(mounts: string[], workspace: string, command: string): Promise<Outcome> {
	const args = [
		'run',
		'--rm',
		'--label',
		TEST_LABEL,
		'--network',
		'none',
		'-e',
		'HOME=/tmp',
		'-v',
		`${SOCKET}:${SOCKET}`,
		'-v',
		`${process.execPath}:/usr/local/bin/node:ro`,
		'-v',
		`${REPO_ROOT}:${REPO_ROOT}:ro`,
		...mounts.flatMap(m => ['-v', m]),
		'debian:bookworm-slim',
		'node',
		path.join(REPO_ROOT, 'out/test/support/sandboxInContainer.js'),
		workspace,
		command,
	];
	const { stdout } = await exec('docker', args, { timeout: 90_000 });
	return JSON.parse(stdout.trim().split('\n').pop()!) as Outcome;
}

describe('sandbox from inside a container: the workspace mapped to the engine host path (real engine)', function () {
	this.timeout(120_000);
	let host: string;

	before(requireDocker());
	before(function () {
		requirePart(
			this,
			'local engine socket',
			process.env.DOCKER_HOST || !fs.existsSync(SOCKET) ? `it needs the engine at ${SOCKET}` : undefined,
		);
	});
	beforeEach(() => {
		host = makeWorkspace({ 'README.md': '# from the host\n' });
	});
	afterEach(() => fs.rmSync(host, { recursive: true, force: true }));
	after(async () => {
		// A container of ours left by a failed run (the runner removes its own on dispose).
		const docker = new Docker();
		for (const info of await docker.listContainers({ all: true, filters: { label: [TEST_LABEL] } })) {
			await docker
				.getContainer(info.Id)
				.remove({ force: true })
				.catch(() => undefined);
		}
	});

	it('mounts the host folder the container has at /srv/project, and says so on the card', async () => {
		const outcome = await keelInContainer(
			[`${host}:/srv/project`],
			'/srv/project',
			'cat README.md && echo made > made-in-sandbox.txt',
		);
		assert.ok(outcome.result, JSON.stringify(outcome));
		assert.strictEqual(outcome.result.stdout, '# from the host\n');
		assert.strictEqual(outcome.result.exitCode, 0);
		assert.strictEqual(outcome.result.mappedTo, host);
		assert.strictEqual(fs.readFileSync(path.join(host, 'made-in-sandbox.txt'), 'utf8'), 'made\n');
		assert.ok(
			outcome.display?.includes(`ran in the sandbox (workspace mounted from ${host} on the engine's machine)`),
			outcome.display,
		);
		assert.ok(
			outcome.log.some(line => line.includes(`sees the workspace at ${host} (mapped)`)),
			outcome.log.join('\n'),
		);
		assert.deepStrictEqual(
			fs.readdirSync(host).filter(name => name.startsWith('.keel-preflight-')),
			[],
		);
	});

	it('mounts the same path, unmapped, when the container has the folder where the host has it', async () => {
		const outcome = await keelInContainer([`${host}:${host}`], host, 'cat README.md');
		assert.strictEqual(outcome.result?.stdout, '# from the host\n', JSON.stringify(outcome));
		assert.strictEqual(outcome.result?.mappedTo, undefined);
		assert.match(outcome.display ?? '', /ran in the sandbox\]/);
	});

	it('copies a folder that lives only in the container (nothing on the engine host to mount), and says so', async () => {
		const volumes = async () =>
			(await new Docker().listVolumes({ filters: { label: ['keel.sandbox=volume'] } })).Volumes ?? [];
		const before = (await volumes()).length;
		const outcome = await keelInContainer([], '/tmp', 'echo ran');
		assert.strictEqual(outcome.result?.stdout, 'ran\n', JSON.stringify(outcome));
		assert.match(
			outcome.display ?? '',
			/ran in the sandbox on a copy of the workspace \(the engine at unix:\/\/\/var\/run\/docker\.sock does not see this folder\)/,
		);
		assert.ok(
			outcome.log.some(line =>
				/does not see this folder \(\/tmp\): .*; the workspace is copied into the volume keel-workspace-/.test(
					line,
				),
			),
			outcome.log.join('\n'),
		);
		assert.strictEqual((await volumes()).length, before, 'the volume went with the session');
	});
});
