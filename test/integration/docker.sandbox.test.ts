// Hostile commands against the real engine: each must be contained by the sandbox and
// reported in the result envelope, with the host and the workspace untouched except where
// writing is allowed (/workspace, /tmp).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { DockerRunner } from '../../src/core/exec/dockerRunner';
import { defaultLimits } from '../../src/core/exec/sandbox/sandboxSpec';
import type { CommandRequest } from '../../src/core/ports';
import { DOCKERFILE_DIR, makeWorkspace, requireDocker, snapshotTree } from '../support/dockerEngine';

describe('docker sandbox: hostile commands (real engine)', function () {
	this.timeout(120_000);
	let root: string;
	let runner: DockerRunner;
	const run = (command: string, extra: Partial<CommandRequest> = {}) =>
		runner.run({ command, cwd: '', timeoutMs: 20_000, outputLimitBytes: 1 << 20, ...extra });

	before(requireDocker());
	before(async () => {
		root = makeWorkspace({
			'src/app.ts': 'export const x = 1;\n',
			'.vscode/settings.json': '{}\n',
			'.git/hooks/README': 'hooks\n',
		});
		runner = new DockerRunner({
			workspaceRoot: root,
			settings: () => ({ image: { kind: 'managed', dockerfileDir: DOCKERFILE_DIR }, limits: defaultLimits }),
		});
		const warmup = await run('true');
		assert.strictEqual(warmup.exitCode, 0);
	});
	after(async () => {
		await runner?.disposeAsync();
		if (root) fs.rmSync(root, { recursive: true, force: true });
	});

	it('runs as a non-root user with no capabilities and no-new-privileges', async () => {
		const result = await run('id -u; grep -E "^(CapEff|NoNewPrivs)" /proc/self/status');
		assert.strictEqual(result.exitCode, 0);
		assert.doesNotMatch(result.stdout.split('\n')[0], /^0$/);
		assert.match(result.stdout, /CapEff:\s+0000000000000000/);
		assert.match(result.stdout, /NoNewPrivs:\s+1/);
	});

	it('stops a fork bomb at the pids limit and reports it', async () => {
		const result = await run('f() { f | f & }; f; sleep 3; echo survived', { timeoutMs: 8_000 });
		assert.strictEqual(
			result.limitHit,
			'pids',
			JSON.stringify({ ...result, stdout: result.stdout.slice(-300), stderr: result.stderr.slice(-300) }),
		);
		const after = await run('echo alive; ls /proc | grep -cE "^[0-9]+$"');
		assert.strictEqual(after.exitCode, 0, 'the sandbox works again after the bomb');
		assert.ok(Number(after.stdout.split('\n')[1]) < 10, `leftover processes: ${after.stdout}`);
	});

	it('OOM-kills a memory hog at the memory limit and reports it', async () => {
		// tail keeps a line without a newline in memory: 1 GiB of zeros is past the 512 MB limit.
		const result = await run('head -c 1000m /dev/zero | tail');
		assert.notStrictEqual(result.exitCode, 0);
		assert.strictEqual(result.limitHit, 'memory');
		assert.strictEqual(result.timedOut, false);
	});

	it('times out an endless loop and kills its whole process tree', async () => {
		const result = await run('(while :; do :; done) & (sleep 1000) & setsid sleep 1001 & while :; do :; done', {
			timeoutMs: 2_000,
		});
		// How soon the kill lands is a figure for `npm run bench -- exec`, not a pass/fail here.
		assert.strictEqual(result.timedOut, true);
		const left = await run('for p in /proc/[0-9]*; do cat $p/cmdline 2>/dev/null | tr "\\0" " "; echo; done');
		assert.doesNotMatch(left.stdout, /sleep 100[01]|do :; done/, `survivors:\n${left.stdout}`);
	});

	it('has no network: DNS and a raw TCP connect both fail', async () => {
		const result = await run(
			'getent hosts deb.debian.org; echo "dns=$?"; (exec 3<>/dev/tcp/1.1.1.1/80) 2>&1; echo "tcp=$?"; ls /sys/class/net',
		);
		assert.match(result.stdout, /dns=2/);
		assert.match(result.stdout, /tcp=1/);
		assert.match(result.stdout + result.stderr, /unreachable|not known|Name or service/i);
		assert.deepStrictEqual(result.stdout.trim().split('\n').slice(-1), ['lo']);
	});

	it('refuses writes outside /workspace (read-only root) but allows /workspace and /tmp', async () => {
		const result = await run(
			'touch /etc/keel-x; echo "etc=$?"; touch /keel-x; echo "root=$?"; echo ok > /tmp/t && echo "tmp=$?"; echo hi > out.txt && echo "ws=$?"',
		);
		assert.match(result.stdout, /etc=1/);
		assert.match(result.stdout, /root=1/);
		assert.match(result.stdout, /tmp=0/);
		assert.match(result.stdout, /ws=0/);
		assert.match(result.stderr, /Read-only file system/);
		assert.strictEqual(fs.readFileSync(path.join(root, 'out.txt'), 'utf8'), 'hi\n');
		assert.ok(!fs.existsSync('/keel-x') && !fs.existsSync('/etc/keel-x'), 'nothing reached the host');
	});

	it('cannot plant editor tasks or git hooks that the host would run later (A27)', async () => {
		const result = await run(
			'echo "{}" > .vscode/tasks.json; echo "vscode=$?"; printf "#!/bin/sh\\nid\\n" > .git/hooks/pre-commit; echo "hooks=$?"; echo x >> .vscode/settings.json; echo "settings=$?"',
		);
		assert.match(result.stdout, /vscode=[12]/);
		assert.match(result.stdout, /hooks=[12]/);
		assert.match(result.stdout, /settings=[12]/);
		assert.match(result.stderr, /Read-only file system/);
		assert.ok(!fs.existsSync(path.join(root, '.git/hooks/pre-commit')));
		assert.strictEqual(fs.readFileSync(path.join(root, '.vscode/settings.json'), 'utf8'), '{}\n');
	});

	it('gains nothing from setuid binaries, mount or su', async () => {
		const result = await run(
			'ls -l /bin/su | cut -c1-10; su -c id root </dev/null; echo "su=$?"; mount -t tmpfs none /mnt; echo "mount=$?"; chmod u+s /bin/su; echo "chmod=$?"; id -u',
		);
		assert.match(result.stdout, /^-rwsr-xr-x/, 'the setuid bit is there, and still useless');
		assert.match(result.stdout, /su=1/);
		assert.match(result.stdout, /mount=(1|32)/);
		assert.match(result.stdout, /chmod=1/);
		assert.doesNotMatch(result.stdout.trim().split('\n').slice(-1)[0], /^0$/);
	});

	it('cannot reach the Docker socket', async () => {
		const result = await run(
			'ls -l /var/run/docker.sock /run/docker.sock 2>&1; find / -xdev -name "docker.sock" 2>/dev/null | wc -l; grep -c docker.sock /proc/mounts',
		);
		assert.match(result.stdout, /No such file or directory/);
		assert.deepStrictEqual(result.stdout.trim().split('\n').slice(-2), ['0', '0']);
		const mounts = (await runner.docker.getContainer((await runner.containerId())!).inspect()).Mounts;
		assert.ok(mounts.every(m => !String(m.Source).includes('docker.sock')));
	});

	it('leaves the workspace as it was, except for the allowed write', () => {
		assert.deepStrictEqual(snapshotTree(root), [
			'.git',
			'.git/hooks',
			'.git/hooks/README',
			'.vscode',
			'.vscode/settings.json',
			'out.txt',
			'src',
			'src/app.ts',
		]);
		assert.strictEqual(fs.readFileSync(path.join(root, 'src/app.ts'), 'utf8'), 'export const x = 1;\n');
	});
});
