// Whether the engine sees the workspace, asked of two real engines: the shared local one, which
// does, and a second dockerd (test/support/secondEngine.ts) reached through DOCKER_HOST on a
// loopback TCP port, in a mount namespace where the workspace's parent is a tmpfs: for it the
// folder is absent, or an empty folder at the same path, as on another machine. There the
// sandbox runs on a copy of the workspace in a volume, and what a command changes comes back
// only as file-tool writes the gate and the approver decide.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
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
import { processStart } from '../../src/core/exec/owner';
import { execFileSync } from 'child_process';
import { ensureImage } from '../../src/core/exec/sandbox/sandboxImage';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import type { ApprovalDecision, ApprovalRequest } from '../../src/core/agent/approval/approvalGate';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { toolHarness } from '../support/toolHarness';

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

	/** The second engine's preflight for `root` mounted at /workspace, expected to refuse. */
	const refusedBySecond = (root: string) =>
		refusal(
			ensureWorkspaceShared(
				engine.docker(),
				[{ host: root, target: '/workspace' }],
				engine.image,
				recordingLogger(),
			),
		);

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
		const error = await refusedBySecond(root);
		assert.strictEqual(error.code, 'workspaceNotShared');
		assert.deepStrictEqual(markers(root), []);
	});

	it('through DOCKER_HOST, the preflight says the engine has another folder at that path, with what to do', async () => {
		const root = hiddenWorkspace('copy');
		const error = await refusedBySecond(root);
		assert.strictEqual(error.code, 'workspaceNotShared');
		assert.ok(
			error.message.includes(`The Docker engine at ${engine.dockerHost} does not see this folder (${root})`),
			error.message,
		);
		assert.match(error.message, /a marker file Keel wrote there was not in the folder the engine mounted/);
		assert.match(error.message, /run Docker where the files are/);
		assert.deepStrictEqual(markers(root), [], 'the marker was removed');
		const left = await engine.docker().listContainers({ all: true, filters: { label: [`${LABEL}=container`] } });
		assert.deepStrictEqual(left, [], 'no container is left on the engine');
	});

	it('through DOCKER_HOST, a folder that does not exist on the engine is not shared either, and asked again next time', async () => {
		const root = hiddenWorkspace('elsewhere');
		for (let attempt = 0; attempt < 2; attempt++) {
			const error = await refusedBySecond(root);
			assert.strictEqual(error.code, 'workspaceNotShared');
			assert.match(
				error.message,
				/does not see this folder .*: that path does not exist on the engine's machine/,
			);
		}
		assert.deepStrictEqual(markers(root), []);
	});
	describe('on a copy: the workspace in a volume on the engine that does not see it', () => {
		let image: string;
		const TEST_LABEL = 'keel.test=remote-engine-copy';
		before(async function () {
			this.timeout(180_000);
			image = await ensureImage(
				new Docker(),
				{ kind: 'managed', dockerfileDir: DOCKERFILE_DIR },
				() => undefined,
			);
			// The second engine has no network: the sandbox image comes from the first, as `docker save | docker load`.
			execFileSync(
				'sh',
				['-c', `docker save "$1" | DOCKER_HOST="$2" docker load`, 'sh', image, engine.dockerHost],
				{
					stdio: 'ignore',
				},
			);
		});

		/** A workspace the engine has nothing of: a deny-read file, another name of it, a protected file. */
		function copiedWorkspace(name: string): string {
			const root = hiddenWorkspace(name);
			fs.mkdirSync(path.join(root, 'src'));
			fs.writeFileSync(path.join(root, 'src', 'a.txt'), 'a\n');
			fs.writeFileSync(path.join(root, '.env'), 'SECRET=hunter2\n');
			fs.linkSync(path.join(root, '.env'), path.join(root, 'env-link'));
			fs.mkdirSync(path.join(root, '.vscode'));
			fs.writeFileSync(path.join(root, '.vscode', 'settings.json'), '{}\n');
			return root;
		}

		const volumes = async () =>
			(await engine.docker().listVolumes({ filters: { label: [`${LABEL}=volume`] } })).Volumes ?? [];

		/** Whether `file` is in the volume, asked of the engine through a container of its own. */
		async function inVolume(volume: string, file: string): Promise<boolean> {
			const probe = await engine.docker().createContainer({
				Image: image,
				Cmd: ['true'],
				Labels: { 'keel.test': 'remote-engine-copy' },
				HostConfig: { Mounts: [{ Type: 'volume', Source: volume, Target: '/probe', ReadOnly: true }] },
			});
			try {
				return await probe.getArchive({ path: `/probe/${file}` }).then(
					() => true,
					(error: { statusCode?: number }) => (error.statusCode === 404 ? false : Promise.reject(error)),
				);
			} finally {
				await probe.remove({ force: true });
			}
		}

		after(async () => {
			const docker = engine?.docker();
			for (const info of (await docker?.listContainers({ all: true, filters: { label: [TEST_LABEL] } })) ?? []) {
				await docker
					.getContainer(info.Id)
					.remove({ force: true })
					.catch(() => undefined);
			}
		});

		it('copies what the tools may read, never a denied file nor another name of it, and runs there', async () => {
			const root = copiedWorkspace('copy-in');
			const logger = recordingLogger();
			const remote = runner(root, engine.docker(), image, logger);
			const result = await remote.run(request('cat README.md; ls -A; cat env-link .env 2>&1; true'));
			assert.match(result.stdout, /^# mine\n/);
			const listed = result.stdout.split('\n');
			assert.ok(listed.includes('src') && listed.includes('.vscode'), result.stdout);
			assert.ok(!listed.includes('.env') && !listed.includes('env-link'), result.stdout);
			assert.doesNotMatch(result.stdout, /hunter2/);
			assert.strictEqual(result.copied?.engine, engine.dockerHost);
			assert.deepStrictEqual(result.copied?.changes, []);
			assert.ok(
				logger.lines.some(line => /copied into the volume keel-workspace-/.test(line)),
				logger.lines.join('\n'),
			);
			const mine = (await volumes()).filter(v => v.Labels?.['keel.owner']?.endsWith(`/${process.pid}`));
			assert.strictEqual(mine.length, 1, 'one labelled volume holds the copy');
			assert.strictEqual(await inVolume(mine[0].Name, 'README.md'), true);
			assert.strictEqual(await inVolume(mine[0].Name, 'src/a.txt'), true);
			assert.strictEqual(await inVolume(mine[0].Name, '.env'), false, 'the deny-read file was never copied');
			assert.strictEqual(await inVolume(mine[0].Name, 'env-link'), false, 'nor another name of it');
			assert.deepStrictEqual(markers(root), []);
			// Changed here between commands: a new deny-read file (a new container hides it) and a deletion.
			fs.writeFileSync(path.join(root, '.env.local'), 'TOKEN=swordfish\n');
			fs.rmSync(path.join(root, 'src', 'a.txt'));
			fs.writeFileSync(path.join(root, 'README.md'), '# mine, edited here\n');
			const again = await remote.run(request('cat README.md; ls -A . src'));
			assert.match(again.stdout, /^# mine, edited here\n/);
			assert.doesNotMatch(again.stdout, /\.env\.local|a\.txt/);
			assert.strictEqual(
				await inVolume(mine[0].Name, '.env.local'),
				false,
				'a deny-read file made later is not sent',
			);
			assert.strictEqual(
				await inVolume(mine[0].Name, 'src/a.txt'),
				false,
				'a file deleted here is deleted there',
			);
			await remote.disposeAsync();
			assert.deepStrictEqual(
				(await volumes()).filter(v => v.Name === mine[0].Name),
				[],
				'the volume goes with the session',
			);
		});

		it('brings changes back only as writes the gate and the approver decide, with their diffs', async () => {
			const root = copiedWorkspace('changes');
			const remote = runner(root, engine.docker(), image);
			const selector = new ShellBackendSelector(() => 'docker', remote, undefined);
			const settings = () => ({ timeoutSeconds: 20, outputLimitBytes: 1 << 16, memoryMb: 512, pids: 256 });
			const harness = toolHarness(root, { extra: createShellTools({ selector, settings }) });
			// The user allows the command itself (it names a protected file) and refuses the protected write it hands back.
			harness.approver.request = async (call: ApprovalRequest): Promise<ApprovalDecision> => {
				harness.approver.requests.push(call);
				return call.name === 'write_file' ? { approved: false, reason: 'not my settings' } : { approved: true };
			};
			const command =
				"printf 'edited\\n' >> README.md; mkdir -p out; echo made > out/new.txt; rm src/a.txt; echo '{\"x\":1}' > .vscode/settings.json";
			const ran = await harness.run('run_command', { command });
			assert.ok(ran.ok, ran.output);
			assert.match(
				ran.output,
				/on a copy of the workspace \(the engine at tcp:\/\/127\.0\.0\.1:\d+ does not see this folder\)/,
			);
			assert.match(ran.output, /changes brought back from the copy: /);
			assert.match(ran.output, /\.vscode\/settings\.json: not written/);
			// Written through write_file and delete_path; the protected file asked and stayed as it was.
			assert.strictEqual(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), '# mine\nedited\n');
			assert.strictEqual(fs.readFileSync(path.join(root, 'out', 'new.txt'), 'utf8'), 'made\n');
			assert.strictEqual(fs.existsSync(path.join(root, 'src', 'a.txt')), false);
			assert.strictEqual(fs.readFileSync(path.join(root, '.vscode', 'settings.json'), 'utf8'), '{}\n');
			assert.strictEqual(fs.readFileSync(path.join(root, '.env'), 'utf8'), 'SECRET=hunter2\n');
			const asked = harness.approver.requests.filter(r => r.name === 'write_file').map(r => r.title);
			assert.deepStrictEqual(asked, ['Write .vscode/settings.json']);
			const cards = harness.events.flatMap(e => (e.type === 'toolCallUpdated' ? [e.call] : []));
			const readme = cards.filter(c => c.name === 'write_file' && c.title === 'Write README.md').pop();
			assert.match(readme?.diffs?.[0]?.unified ?? '', /\+edited/);
			assert.strictEqual(cards.filter(c => c.name === 'delete_path').pop()?.status, 'succeeded');
			// The copy follows the files: what was written is there, what was refused is undone.
			const next = await harness.run('run_command', {
				command: 'cat README.md out/new.txt .vscode/settings.json; ls src',
			});
			assert.strictEqual(next.card.status, 'succeeded', next.output);
			assert.match(next.output, /^# mine\nedited\nmade\n\{\}\n/);
			assert.match(next.output, /copied to the engine; it changed no file/);
		});

		it('removes the copies of a window that died, and no other', async () => {
			const labels = (start: string) => ({
				[LABEL]: 'volume',
				'keel.workspace': 'x',
				'keel.owner': `${os.hostname()}/${process.pid}`,
				'keel.owner.start': start,
			});
			await engine.docker().createVolume({ Name: 'keel-workspace-dead', Labels: labels('not-this-process') });
			const live = await engine
				.docker()
				.createVolume({ Name: 'keel-workspace-live', Labels: labels(processStart('self')) });
			const remote = runner(copiedWorkspace('reaped'), engine.docker(), image);
			await remote.run(request('true'));
			const names = (await volumes()).map(v => v.Name);
			assert.ok(!names.includes('keel-workspace-dead'), names.join(' '));
			assert.ok(names.includes('keel-workspace-live'), names.join(' '));
			await engine.docker().getVolume(live.name).remove();
		});
	});
});
