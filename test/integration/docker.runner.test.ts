// The sandbox runner's contract against the real engine: the envelope, the warm container
// and its cleanup, the image lifecycle, and the errors a user sees.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import Docker from 'dockerode';
import { DockerRunner } from '../../src/core/exec/dockerRunner';
import { ExecError } from '../../src/core/exec/execError';
import { managedImageTag, type ImageSource } from '../../src/core/exec/sandbox/sandboxImage';
import { defaultLimits, LABEL, type SandboxLimits } from '../../src/core/exec/sandbox/sandboxSpec';
import type { CommandRequest } from '../../src/core/ports';
import { DOCKERFILE_DIR, makeWorkspace, requireDocker } from '../support/dockerEngine';

const docker = new Docker();
const managed: ImageSource = { kind: 'managed', dockerfileDir: DOCKERFILE_DIR };
const request = (command: string, extra: Partial<CommandRequest> = {}): CommandRequest => ({
	command,
	cwd: '',
	timeoutMs: 20_000,
	outputLimitBytes: 1 << 20,
	...extra,
});

async function keelContainers(): Promise<Docker.ContainerInfo[]> {
	return docker.listContainers({ all: true, filters: { label: [`${LABEL}=container`] } });
}

describe('docker sandbox runner (real engine)', function () {
	this.timeout(120_000);
	const roots: string[] = [];
	const runners: DockerRunner[] = [];
	const make = (
		settings: { image?: ImageSource; limits?: Partial<SandboxLimits> } = {},
		root = makeWorkspace({ 'pkg/a.txt': 'A\n' }),
	) => {
		roots.push(root);
		const runner = new DockerRunner({
			workspaceRoot: root,
			settings: () => ({ image: settings.image ?? managed, limits: { ...defaultLimits, ...settings.limits } }),
		});
		runners.push(runner);
		return runner;
	};

	before(requireDocker());
	after(async () => {
		await Promise.all(runners.map(r => r.disposeAsync()));
		roots.forEach(root => fs.rmSync(root, { recursive: true, force: true }));
	});

	it('returns the envelope: stdout, stderr, exit code, duration, truncated', async () => {
		const result = await make().run(request('echo out; echo err >&2; exit 3'));
		assert.deepStrictEqual(
			{ ...result, durationMs: typeof result.durationMs },
			{
				backend: 'sandbox',
				stdout: 'out\n',
				stderr: 'err\n',
				exitCode: 3,
				durationMs: 'number',
				truncated: false,
				timedOut: false,
				cancelled: false,
				limitHit: undefined,
			},
		);
	});

	it('runs in the workspace at /workspace, in the requested sub-folder, and streams output live', async () => {
		const chunks: string[] = [];
		const result = await make().run(
			request('pwd; cat a.txt; sleep 0.3; echo done', { cwd: 'pkg', onOutput: text => chunks.push(text) }),
		);
		assert.strictEqual(result.stdout, '/workspace/pkg\nA\ndone\n');
		assert.ok(chunks.length >= 2, `output arrived in one piece: ${JSON.stringify(chunks)}`);
		assert.strictEqual(chunks.join(''), result.stdout);
	});

	it('caps the output, keeping head and tail, and flags it', async () => {
		const result = await make().run(request('seq 1 200000; echo last', { outputLimitBytes: 4096 }));
		assert.strictEqual(result.truncated, true);
		assert.strictEqual(result.exitCode, 0);
		assert.ok(result.stdout.startsWith('1\n2\n3\n'));
		assert.ok(result.stdout.endsWith('200000\nlast\n'));
		assert.match(result.stdout, /\[… \d+ bytes of output omitted …\]/);
		assert.ok(Buffer.byteLength(result.stdout) < 4096 + 100);
	});

	it('reuses one warm container per workspace across commands', async () => {
		const runner = make();
		await runner.run(request('echo one > /tmp/mark'));
		const first = await runner.containerId();
		const second = await runner.run(request('cat /tmp/mark'));
		assert.strictEqual(second.stdout, 'one\n', "the second command saw the first one's /tmp");
		assert.strictEqual(await runner.containerId(), first);
		const mine = (await keelContainers()).filter(c => c.Id === first);
		assert.strictEqual(mine.length, 1);
		assert.strictEqual(mine[0].Labels['keel.owner'], `${os.hostname()}/${process.pid}`);
	});

	it('applies every limit from the settings, and recreates the container when they change', async () => {
		let limits: SandboxLimits = { ...defaultLimits, memoryMb: 256, cpus: 1, pids: 64 };
		const root = makeWorkspace();
		roots.push(root);
		const runner = new DockerRunner({ workspaceRoot: root, settings: () => ({ image: managed, limits }) });
		runners.push(runner);
		await runner.run(request('true'));
		const info = await docker.getContainer((await runner.containerId())!).inspect();
		assert.deepStrictEqual(
			{
				memory: info.HostConfig.Memory,
				cpus: info.HostConfig.NanoCpus,
				pids: info.HostConfig.PidsLimit,
				net: info.HostConfig.NetworkMode,
				caps: info.HostConfig.CapDrop,
				ro: info.HostConfig.ReadonlyRootfs,
				sec: info.HostConfig.SecurityOpt,
				user: info.Config.User,
			},
			{
				memory: 256 * 1024 * 1024,
				cpus: 1e9,
				pids: 64,
				net: 'none',
				caps: ['ALL'],
				ro: true,
				sec: ['no-new-privileges'],
				// PID 1's own user; commands run as keel.shell.user (below), so none can signal or trace PID 1.
				user: '65534:65534',
			},
		);
		const ids = await runner.run(
			request('echo "$(id -u):$(id -g)"; ps -o user= -p 1 2>/dev/null || stat -c %u /proc/1'),
		);
		assert.strictEqual(ids.stdout.split('\n')[0], defaultLimits.user);
		const before = await runner.containerId();
		limits = { ...limits, pids: 128 };
		await runner.run(request('true'));
		assert.notStrictEqual(await runner.containerId(), before);
		assert.strictEqual(
			(await docker.getContainer((await runner.containerId())!).inspect()).HostConfig.PidsLimit,
			128,
		);
		await assert.rejects(docker.getContainer(before!).inspect(), /no such container/i);
	});

	it('removes its container on dispose', async () => {
		const runner = make();
		await runner.run(request('true'));
		const id = (await runner.containerId())!;
		await runner.disposeAsync();
		await assert.rejects(docker.getContainer(id).inspect(), /no such container/i);
	});

	it('an unused container removes itself after the idle time, but never under a running command', async () => {
		const runner = make({ limits: { idleSeconds: 2 } });
		const long = await runner.run(request('sleep 6; echo finished'));
		assert.strictEqual(long.stdout, 'finished\n', 'a command longer than the idle time is not cut short');
		const id = (await runner.containerId())!;
		let gone = false;
		for (let i = 0; i < 60 && !gone; i++) {
			await new Promise(resolve => setTimeout(resolve, 250));
			gone = await docker
				.getContainer(id)
				.inspect()
				.then(
					() => false,
					() => true,
				);
		}
		assert.ok(gone, 'the idle container is still there');
		const again = await runner.run(request('echo back'));
		assert.strictEqual(again.stdout, 'back\n', 'the next command gets a fresh container');
	});

	it('removes containers left behind by a crashed window at the next start, and spares live ones', async () => {
		const image = managedImageTag(DOCKERFILE_DIR);
		const create = (owner: string) =>
			docker.createContainer({
				Image: image,
				Cmd: ['sleep', '600'],
				Labels: { [LABEL]: 'container', 'keel.owner': owner },
			});
		const dead = await create(`${os.hostname()}/999999`);
		const live = await create(`${os.hostname()}/${process.pid}`);
		const otherHost = await create('some-other-host/1');
		try {
			await make().run(request('true'));
			await assert.rejects(dead.inspect(), /no such container/i);
			await live.inspect();
			await otherHost.inspect();
		} finally {
			await Promise.all([dead, live, otherHost].map(c => c.remove({ force: true }).catch(() => undefined)));
		}
	});

	it('builds the image from the shipped Dockerfile, tagged by content, and rebuilds when it changes', async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-dockerfile-'));
		fs.copyFileSync(path.join(DOCKERFILE_DIR, 'Dockerfile'), path.join(dir, 'Dockerfile'));
		const progress: string[] = [];
		const runner = make({ image: { kind: 'managed', dockerfileDir: dir } });
		const first = managedImageTag(dir);
		assert.strictEqual(first, managedImageTag(DOCKERFILE_DIR), 'same content, same tag');
		await docker
			.getImage(first)
			.remove({ force: true })
			.catch(() => undefined);
		await runner.run(request('true', { onOutput: text => progress.push(text) }));
		assert.match(progress.join(''), /Building the sandbox image keel-sandbox:[0-9a-f]{12}/);
		await docker.getImage(first).inspect();
		fs.appendFileSync(path.join(dir, 'Dockerfile'), 'LABEL keel.test="changed"\n');
		const second = managedImageTag(dir);
		assert.notStrictEqual(second, first);
		const result = await runner.run(request('echo rebuilt'));
		assert.strictEqual(result.stdout, 'rebuilt\n');
		assert.strictEqual((await docker.getImage(second).inspect()).Config.Labels['keel.test'], 'changed');
		await docker
			.getImage(second)
			.remove({ force: true })
			.catch(() => undefined);
		fs.rmSync(dir, { recursive: true, force: true });
	});

	it('reports a failed image build with the end of the build log', async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-dockerfile-'));
		fs.writeFileSync(
			path.join(dir, 'Dockerfile'),
			'FROM debian:bookworm-slim\nRUN echo "step output before failing" && exit 7\n',
		);
		const error = await make({ image: { kind: 'managed', dockerfileDir: dir } })
			.run(request('true'))
			.then(
				() => undefined,
				e => e,
			);
		fs.rmSync(dir, { recursive: true, force: true });
		assert.ok(error instanceof ExecError, String(error));
		assert.strictEqual(error.code, 'imageBuildFailed');
		assert.match(error.message, /failed to build/);
		assert.match(error.message, /step output before failing/);
		assert.match(error.message, /non-zero code: 7/);
	});

	it('runs a user-chosen image, and says clearly when it does not exist', async () => {
		const result = await make({ image: { kind: 'user', name: 'debian:bookworm-slim' } }).run(
			request('cat /etc/debian_version'),
		);
		assert.match(result.stdout, /^12\./);
		const error = await make({ image: { kind: 'user', name: 'keel-test/does-not-exist:1' } })
			.run(request('true'))
			.then(
				() => undefined,
				e => e,
			);
		assert.ok(error instanceof ExecError);
		assert.strictEqual(error.code, 'imageMissing');
		assert.match(error.message, /keel-test\/does-not-exist:1.*keel\.shell\.image/s);
	});

	it('says "Docker is not running" when no engine answers on DOCKER_HOST', async () => {
		const saved = process.env.DOCKER_HOST;
		process.env.DOCKER_HOST = 'unix:///tmp/keel-no-such-docker.sock';
		try {
			const runner = new DockerRunner({
				workspaceRoot: makeWorkspace(),
				settings: () => ({ image: managed, limits: defaultLimits }),
			});
			assert.strictEqual(await runner.available(), false);
			const error = await runner.run(request('true')).then(
				() => undefined,
				e => e,
			);
			assert.ok(error instanceof ExecError);
			assert.strictEqual(error.code, 'engineUnavailable');
			assert.match(error.message, /^Docker is not running — start it, or set keel\.shell\.backend to terminal/);
		} finally {
			if (saved === undefined) delete process.env.DOCKER_HOST;
			else process.env.DOCKER_HOST = saved;
		}
	});

	it('stops a running command when the turn is cancelled', async () => {
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 500);
		const runner = make();
		const result = await runner.run(request('sleep 30; echo never', { signal: controller.signal }));
		assert.strictEqual(result.cancelled, true);
		assert.doesNotMatch(result.stdout, /never/);
		const after = await runner.run(request('ls /proc | grep -cE "^[0-9]+$"'));
		assert.ok(Number(after.stdout) < 10);
	});
});
