// run_command in a multi-root workspace against the real engine: the sandbox mounts each folder
// at /workspace/<name>, so the paths the file tools use are the paths a command uses; each
// folder's protected files stay read-only, and nothing beside the folders is reachable.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { DockerRunner } from '../../src/core/exec/dockerRunner';
import { defaultLimits } from '../../src/core/exec/sandbox/sandboxSpec';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { NodeWorkspace } from '../../src/core/tools/files/nodeWorkspace';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { MultiRootWorkspace } from '../../src/core/gate/paths/workspaceFolders';
import { DOCKERFILE_DIR, makeWorkspace, requireDocker } from '../support/dockerEngine';
import { toolHarness, type Harness } from '../support/toolHarness';

describe('docker sandbox with two workspace folders (real engine)', function () {
	this.timeout(300_000);
	let base: string;
	let runner: DockerRunner;
	let h: Harness;

	before(requireDocker());
	before(() => {
		base = makeWorkspace({
			'api/a.txt': 'from api\n',
			'web/b.txt': 'from web\n',
			'outside/secret.txt': 'CANARY_DOCKER_MR\n',
		});
		const folders = [
			{ name: 'api', path: path.join(base, 'api') },
			{ name: 'web', path: path.join(base, 'web') },
		];
		runner = new DockerRunner({
			workspaceRoot: () => folders,
			settings: () => ({ image: { kind: 'managed', dockerfileDir: DOCKERFILE_DIR }, limits: defaultLimits }),
		});
		const workspace = new MultiRootWorkspace(() =>
			folders.map(f => ({ name: f.name, workspace: new NodeWorkspace(f.path) })),
		);
		const selector = new ShellBackendSelector(() => 'docker', runner, undefined);
		const shell = createShellTools({
			selector,
			settings: () => ({ timeoutSeconds: 60, outputLimitBytes: 1 << 20, memoryMb: 512, pids: 256 }),
		});
		h = toolHarness(base, { workspace, extra: shell });
	});
	after(async () => {
		await runner?.disposeAsync();
		if (base) fs.rmSync(base, { recursive: true, force: true });
	});

	it('sees both folders at /workspace/<name> and writes into the second one on the host', async () => {
		const result = await h.run('run_command', {
			command: 'pwd; ls; cat api/a.txt web/b.txt; echo written-in-sandbox > web/out.txt',
		});
		assert.strictEqual(result.ok, true, result.output);
		assert.match(result.output, /^\/workspace\napi\nweb\nfrom api\nfrom web\n/);
		assert.strictEqual(fs.readFileSync(path.join(base, 'web/out.txt'), 'utf8'), 'written-in-sandbox\n');
		// The file tools read what the command wrote, under the same path.
		assert.match((await h.run('read_file', { path: 'web/out.txt' })).output, /written-in-sandbox/);
	});

	it('runs in a folder given as cwd "name/…"', async () => {
		const result = await h.run('run_command', { command: 'pwd && cat b.txt', cwd: 'web' });
		assert.match(result.output, /^\/workspace\/web\nfrom web\n/);
	});

	it("keeps each folder's protected paths read-only and the folders' surroundings out of reach", async () => {
		// The command touches protected paths, so it asks; the user says yes and the mounts must still hold.
		h.approver.answer = { approved: true };
		const result = await h.run('run_command', {
			command:
				'touch api/.vscode/tasks.json web/.vscode/tasks.json; ls /workspace/../outside 2>&1; cat ../outside/secret.txt 2>&1; true',
		});
		assert.match(result.output, /api\/\.vscode\/tasks\.json': Read-only file system/);
		assert.match(result.output, /web\/\.vscode\/tasks\.json': Read-only file system/);
		assert.doesNotMatch(result.output, /CANARY_DOCKER_MR/);
		assert.strictEqual(fs.existsSync(path.join(base, 'api/.vscode/tasks.json')), false);
	});

	it('refuses a cwd that names no folder before anything runs', async () => {
		const result = await h.run('run_command', { command: 'pwd', cwd: 'outside' });
		assert.strictEqual(result.ok, false);
		assert.match(result.output, /every path starts with a folder's name: api\/, web\//);
	});
});
