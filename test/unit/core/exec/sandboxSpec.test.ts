import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ExecError } from '../../../../src/core/exec/execError';
import { managedImageTag } from '../../../../src/core/exec/sandboxImage';
import { parseCounters } from '../../../../src/core/exec/sandboxShell';
import { containerSpec, defaultLimits } from '../../../../src/core/exec/sandboxSpec';

describe('sandbox container spec', () => {
	let root: string;
	beforeEach(() => {
		root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-spec-'));
	});
	afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

	it('is hardened: non-root, no network, limits, no capabilities, no-new-privileges, read-only root, tmpfs /tmp', () => {
		const spec = containerSpec(root, 'img', { ...defaultLimits, user: '1000:1000' });
		const host = spec.HostConfig!;
		assert.strictEqual(spec.User, '1000:1000');
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

	it('mounts git hooks and config (submodules too), editor, CI, dev container and tool config read-only when they exist', () => {
		fs.mkdirSync(path.join(root, '.git/hooks'), { recursive: true });
		fs.writeFileSync(path.join(root, '.git/config'), '');
		fs.mkdirSync(path.join(root, '.git/modules/lib/hooks'), { recursive: true });
		fs.writeFileSync(path.join(root, '.git/modules/lib/config'), '');
		fs.mkdirSync(path.join(root, '.github/workflows'), { recursive: true });
		fs.writeFileSync(path.join(root, '.gitlab-ci.yml'), '');
		fs.writeFileSync(path.join(root, '.pre-commit-config.yaml'), '');
		const mounts = containerSpec(root, 'img', defaultLimits).HostConfig!.Mounts!;
		assert.deepStrictEqual(
			mounts
				.filter(m => m.ReadOnly)
				.map(m => m.Target)
				.sort(),
			[
				'/workspace/.git/config',
				'/workspace/.git/hooks',
				'/workspace/.git/modules/lib/config',
				'/workspace/.git/modules/lib/hooks',
				'/workspace/.github',
				'/workspace/.gitlab-ci.yml',
				'/workspace/.pre-commit-config.yaml',
				'/workspace/.vscode',
			],
		);
	});

	it('opts into a network only when the setting names one', () => {
		const spec = containerSpec(root, 'img', { ...defaultLimits, network: 'bridge' });
		assert.strictEqual(spec.HostConfig!.NetworkMode, 'bridge');
		assert.strictEqual(spec.NetworkDisabled, false);
		assert.throws(
			() => containerSpec(root, 'img', { ...defaultLimits, network: 'host' }),
			/share a network namespace/,
		);
		assert.throws(() => containerSpec(root, 'img', { ...defaultLimits, network: 'container:abc' }), ExecError);
	});

	it('refuses to run as root and refuses a workspace that contains the Docker socket', () => {
		assert.throws(() => containerSpec(root, 'img', { ...defaultLimits, user: '0:0' }), ExecError);
		assert.throws(() => containerSpec(root, 'img', { ...defaultLimits, user: 'root' }), ExecError);
		assert.throws(() => containerSpec('/var', 'img', defaultLimits), /contains the Docker socket/);
		assert.throws(() => containerSpec('/', 'img', defaultLimits), /contains the Docker socket/);
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
