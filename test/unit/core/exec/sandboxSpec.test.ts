import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ExecError } from '../../../../src/core/exec/execError';
import { managedImageTag } from '../../../../src/core/exec/sandbox/sandboxImage';
import { parseCounters } from '../../../../src/core/exec/sandbox/sandboxShell';
import { defaultLimits } from '../../../../src/core/exec/sandbox/sandboxSpec';
import { specFor } from '../../../support/sandboxPlan';

describe('sandbox container spec', () => {
	let root: string;
	beforeEach(() => {
		root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-spec-')));
	});
	afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

	it('is hardened: non-root, no network, limits, no capabilities, no-new-privileges, read-only root, tmpfs /tmp', async () => {
		const spec = await specFor(root, { ...defaultLimits, user: '1000:1000' });
		const host = spec.HostConfig!;
		assert.strictEqual(spec.User, '65534:65534', 'PID 1 runs as a user of its own; commands run as 1000:1000');
		assert.strictEqual((await specFor(root, { ...defaultLimits, user: '65534:65534' })).User, '65533:65533');
		assert.strictEqual(host.NetworkMode, 'none');
		assert.strictEqual(spec.NetworkDisabled, true);
		assert.strictEqual(host.Memory, 512 * 1024 * 1024);
		assert.strictEqual(host.MemorySwap, host.Memory, 'no swap beyond the memory limit');
		assert.strictEqual(host.NanoCpus, 0.5e9);
		assert.strictEqual(host.PidsLimit, 256);
		assert.deepStrictEqual(host.CapDrop, ['ALL']);
		assert.deepStrictEqual(host.SecurityOpt, ['no-new-privileges']);
		assert.strictEqual(host.ReadonlyRootfs, true);
		assert.match(host.Tmpfs!['/tmp'], /size=256m/);
		assert.deepStrictEqual(host.Mounts, [
			{ Type: 'bind', Source: root, Target: '/workspace', ReadOnly: false },
			{ Type: 'bind', Source: path.join(root, '.vscode'), Target: '/workspace/.vscode', ReadOnly: true },
		]);
		assert.ok(
			fs.statSync(path.join(root, '.vscode')).isDirectory(),
			'a missing .vscode is created empty so the sandbox cannot create it',
		);
		assert.strictEqual(host.Binds, undefined);
		assert.strictEqual(host.Privileged, undefined);
		assert.strictEqual(host.AutoRemove, true, 'a container that stops (idle, crash) does not linger');
	});

	it('mounts every .git read-only whole, with editor, CI, dev container and tool config, at any depth', async () => {
		fs.mkdirSync(path.join(root, '.git/hooks'), { recursive: true });
		fs.writeFileSync(path.join(root, '.git/config'), '');
		fs.writeFileSync(path.join(root, '.git/commondir'), '.\n');
		fs.mkdirSync(path.join(root, '.git/modules/lib/hooks'), { recursive: true });
		fs.mkdirSync(path.join(root, 'sub/.git'), { recursive: true });
		fs.mkdirSync(path.join(root, 'gitstore'), { recursive: true });
		fs.mkdirSync(path.join(root, 'wt'), { recursive: true });
		fs.writeFileSync(path.join(root, 'wt/.git'), `gitdir: ${path.join(root, 'gitstore')}\n`);
		fs.writeFileSync(path.join(root, 'gitstore/commondir'), '../.git\n');
		fs.mkdirSync(path.join(root, '.github/workflows'), { recursive: true });
		fs.mkdirSync(path.join(root, 'pkg/.vscode'), { recursive: true });
		fs.writeFileSync(path.join(root, '.gitlab-ci.yml'), '');
		fs.writeFileSync(path.join(root, '.pre-commit-config.yaml'), '');
		const mounts = (await specFor(root)).HostConfig!.Mounts!;
		assert.deepStrictEqual(
			mounts
				.filter(m => m.ReadOnly)
				.map(m => m.Target)
				.sort(),
			[
				'/workspace/.git',
				'/workspace/.github',
				'/workspace/.gitlab-ci.yml',
				'/workspace/.pre-commit-config.yaml',
				'/workspace/.vscode',
				'/workspace/gitstore',
				'/workspace/pkg/.vscode',
				'/workspace/sub/.git',
				'/workspace/wt/.git',
			],
		);
	});

	it('hides deny-read files, their hard links, deny-read folders, sockets, FIFOs and engine folders', async () => {
		const files = [
			'.env',
			'a/b/server.pem',
			'.ssh/id_ed25519',
			'.ssh/known_hosts',
			'.aws/credentials',
			'x/.env.example',
		];
		for (const rel of files) {
			fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
			fs.writeFileSync(path.join(root, rel), 's');
		}
		fs.writeFileSync(path.join(root, '.ssh/id_ed25519.pub'), 'public');
		fs.linkSync(path.join(root, '.env'), path.join(root, 'a/innocent.txt'));
		fs.mkdirSync(path.join(root, '.docker/run'), { recursive: true });
		execFileSync('mkfifo', [path.join(root, 'a/pipe')]);
		const mounts = (await specFor(root))
			.HostConfig!.Mounts!.slice(1)
			.filter(m => m.Target !== '/workspace/.vscode');
		assert.deepStrictEqual(
			mounts
				.map(m => `${m.Target} ${m.Type === 'tmpfs' ? 'empty' : m.Source === '/dev/null' ? 'null' : m.Source}`)
				.sort(),
			[
				'/workspace/.aws empty',
				'/workspace/.docker empty',
				'/workspace/.env null',
				'/workspace/.ssh/id_ed25519 null',
				'/workspace/.ssh/known_hosts null',
				'/workspace/a/b/server.pem null',
				'/workspace/a/innocent.txt null',
				'/workspace/a/pipe null',
			],
			'.ssh keeps its allowed id_ed25519.pub visible, so its secrets are hidden one by one; .env.example is allowed',
		);
		assert.ok(mounts.every(m => m.ReadOnly));
	});

	it('refuses a workspace holding a name that is not valid UTF-8 (nothing could name it to hide it)', async () => {
		fs.mkdirSync(path.join(root, 'a'));
		execFileSync('python3', ['-c', `import os; os.mkfifo(b"${path.join(root, 'a')}/bad\\xffname")`]);
		await assert.rejects(specFor(root), /not valid UTF-8/);
	});

	it('opts into a network only when the setting names one', async () => {
		const spec = await specFor(root, { ...defaultLimits, network: 'bridge' });
		assert.strictEqual(spec.HostConfig!.NetworkMode, 'bridge');
		assert.strictEqual(spec.NetworkDisabled, false);
		await assert.rejects(specFor(root, { ...defaultLimits, network: 'host' }), /share a network namespace/);
		await assert.rejects(specFor(root, { ...defaultLimits, network: 'container:abc' }), ExecError);
	});

	it('refuses root and a workspace that is, or reaches, an engine folder or the whole file system', async () => {
		await assert.rejects(specFor(root, { ...defaultLimits, user: '0:0' }), ExecError);
		await assert.rejects(specFor(root, { ...defaultLimits, user: 'root' }), ExecError);
		await assert.rejects(specFor('/run'), /where container engines keep their sockets/);
		await assert.rejects(specFor('/var/run'), /where container engines keep their sockets/);
		fs.symlinkSync('/run', path.join(root, 'link'));
		await assert.rejects(specFor(path.join(root, 'link')), /The workspace \/run is \/run/);
		await assert.rejects(specFor('/'), /whole file system/);
	});

	it('tags the managed image by the content of its folder', () => {
		fs.writeFileSync(path.join(root, 'Dockerfile'), 'FROM debian:bookworm-slim\n');
		const first = managedImageTag(root);
		assert.match(first, /^keel-sandbox:[0-9a-f]{12}$/);
		assert.strictEqual(managedImageTag(root), first);
		fs.appendFileSync(path.join(root, 'Dockerfile'), 'USER 1000\n');
		assert.notStrictEqual(managedImageTag(root), first);
	});

	it('reads OOM kills and pids-limit hits from cgroup v1 and v2 counter files', () => {
		const v1 =
			'== /sys/fs/cgroup/memory/memory.oom_control\noom_kill_disable 0\nunder_oom 0\noom_kill 2\n== /sys/fs/cgroup/pids/pids.events\nmax 0\n';
		assert.deepStrictEqual(parseCounters(v1), { oomKills: 2, pidsMax: 0 });
		const v2 =
			'== /sys/fs/cgroup/memory.events\nlow 0\nhigh 0\nmax 9\noom 1\noom_kill 1\n== /sys/fs/cgroup/pids.events\nmax 3\n';
		assert.deepStrictEqual(
			parseCounters(v2),
			{ oomKills: 1, pidsMax: 3 },
			'memory.events\'s own "max" is not the pids counter',
		);
		assert.deepStrictEqual(parseCounters(''), { oomKills: 0, pidsMax: 0 });
	});
});
