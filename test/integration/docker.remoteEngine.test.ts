// Whether the engine sees the workspace, asked of two real engines: the shared local one, which
// does, and a second dockerd (test/support/secondEngine.ts) reached through DOCKER_HOST on a
// loopback TCP port, in a mount namespace where the workspace's parent is a tmpfs: for it the
// folder is absent, or an empty folder at the same path, as on another machine.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import Docker from 'dockerode';
import { DockerRunner } from '../../src/core/exec/dockerRunner';
import { ExecError } from '../../src/core/exec/execError';
import { ensureWorkspaceShared, forgetPreflights } from '../../src/core/exec/sandbox/sandboxPreflight';
import { defaultLimits, LABEL } from '../../src/core/exec/sandbox/sandboxSpec';
import type { Logger } from '../../src/core/ports';
import { DOCKERFILE_DIR, makeWorkspace, requireDocker } from '../support/dockerEngine';
import { secondEngineMissing, startSecondEngine, type SecondEngine } from '../support/secondEngine';
import { requirePart } from '../support/tierGate';

const request = (command: string) => ({ command, cwd: '', timeoutMs: 20_000, outputLimitBytes: 1 << 16 });

function recordingLogger(): Logger & { lines: string[] } {
	const lines: string[] = [];
	const log = (message: string) => void lines.push(message);
	return { lines, info: log, warn: log, error: log };
}

/** Names of files Keel's marker could have left: none may stay. */
const markers = (root: string) => fs.readdirSync(root).filter(name => name.startsWith('.keel-preflight-'));

async function refusal(run: Promise<unknown>): Promise<ExecError> {
	const error = await run.then(
		() => undefined,
		(e: unknown) => e,
	);
	assert.ok(error instanceof ExecError, `expected a refusal, got ${String(error)}`);
	return error;
}

describe('sandbox preflight: does the engine see the workspace (two real engines)', function () {
	this.timeout(120_000);
	let engine: SecondEngine;
	const roots: string[] = [];
	const runners: DockerRunner[] = [];

	before(requireDocker());
	before(async function () {
		this.timeout(120_000);
		requirePart(this, 'second Docker engine', secondEngineMissing());
		// "copy" is an empty folder at the same path on the engine's side; "elsewhere" does not exist there.
		engine = await startSecondEngine(['copy']);
	});
	after(async () => {
		await Promise.all(runners.map(r => r.disposeAsync()));
		roots.forEach(root => fs.rmSync(root, { recursive: true, force: true }));
		await engine?.stop();
	});
	beforeEach(() => forgetPreflights());

	/** A workspace this process sees under the folder the second engine cannot. */
	function hiddenWorkspace(name: string): string {
		const root = path.join(engine.hidden, name);
		fs.mkdirSync(root, { recursive: true });
		fs.writeFileSync(path.join(root, 'README.md'), '# mine\n');
		return root;
	}

	function runner(root: string, docker: Docker | undefined, image?: string, logger?: Logger): DockerRunner {
		const made = new DockerRunner({
			workspaceRoot: root,
			docker,
			logger,
			settings: () => ({
				image: image ? { kind: 'user', name: image } : { kind: 'managed', dockerfileDir: DOCKERFILE_DIR },
				limits: defaultLimits,
			}),
		});
		runners.push(made);
		return made;
	}

	it('the local engine sees the workspace: commands run, asked once, the marker is gone', async () => {
		const root = makeWorkspace({ 'README.md': '# mine\n' });
		roots.push(root);
		const logger = recordingLogger();
		const local = runner(root, undefined, undefined, logger);
		const first = await local.run(request('cat README.md'));
		assert.strictEqual(first.stdout, '# mine\n');
		// A new container (a setting changed, a mask to add) asks nothing again: the answer is remembered.
		await local.disposeAsync();
		const again = runner(root, undefined, undefined, logger);
		const listed = (await again.run(request('ls -A'))).stdout.split('\n');
		assert.ok(
			listed.includes('README.md') && !listed.some(name => name.startsWith('.keel-preflight')),
			listed.join(' '),
		);
		assert.strictEqual(
			logger.lines.filter(line => /sees the workspace/.test(line)).length,
			1,
			logger.lines.join('\n'),
		);
		assert.match(
			logger.lines.find(line => /sees the workspace/.test(line))!,
			/at unix:\/\/.*docker\.sock/,
		);
		assert.deepStrictEqual(markers(root), []);
	});

	it('the local engine sees a folder that the second engine does not', async () => {
		const root = hiddenWorkspace('copy');
		await ensureWorkspaceShared(
			new Docker(),
			[{ host: root, target: '/workspace' }],
			'debian:bookworm-slim',
			recordingLogger(),
		);
		const error = await refusal(
			ensureWorkspaceShared(
				engine.docker(),
				[{ host: root, target: '/workspace' }],
				engine.image,
				recordingLogger(),
			),
		);
		assert.strictEqual(error.code, 'workspaceNotShared');
		assert.deepStrictEqual(markers(root), []);
	});

	it('through DOCKER_HOST, a command is refused with what to do when the engine has another folder at that path', async () => {
		const root = hiddenWorkspace('copy');
		const error = await refusal(runner(root, engine.docker(), engine.image).run(request('echo never')));
		assert.strictEqual(error.code, 'workspaceNotShared');
		assert.ok(
			error.message.includes(`The Docker engine at ${engine.dockerHost} does not see this folder (${root})`),
			error.message,
		);
		assert.match(error.message, /a marker file Keel wrote there was not in the folder the engine mounted/);
		assert.match(error.message, /run Docker where the files are/);
		assert.match(error.message, /set keel\.shell\.backend to "terminal"/);
		assert.deepStrictEqual(markers(root), [], 'the marker was removed');
		const left = await engine.docker().listContainers({ all: true, filters: { label: [`${LABEL}=container`] } });
		assert.deepStrictEqual(left, [], 'no container is left on the engine');
	});

	it('through DOCKER_HOST, a folder that does not exist on the engine is refused too, and asked again next time', async () => {
		const root = hiddenWorkspace('elsewhere');
		const remote = runner(root, engine.docker(), engine.image);
		for (let attempt = 0; attempt < 2; attempt++) {
			const error = await refusal(remote.run(request('echo never')));
			assert.strictEqual(error.code, 'workspaceNotShared');
			assert.match(
				error.message,
				/does not see this folder .*: that path does not exist on the engine's machine/,
			);
		}
		assert.deepStrictEqual(markers(root), []);
	});
});
