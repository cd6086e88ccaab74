// Held-out, in the real Docker sandbox: the workspace is /workspace there, so `cat
// /workspace/.env` is `cat .env` and must ask under an allow rule for `cat *`, while the
// container's own files (/etc/os-release) and HOME (/tmp) are none of the user's and run.
import * as path from 'path';
import type { PermissionRule } from '../../src/core/gate/rules/permissions';
import { DockerRunner } from '../../src/core/exec/dockerRunner';
import { defaultLimits } from '../../src/core/exec/sandbox/sandboxSpec';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { DOCKERFILE_DIR, makeWorkspace, requireDocker } from '../support/dockerEngine';
import { toolHarness, type Harness } from '../support/toolHarness';
import { attack } from './tally';

describe('security (held out): the words of a sandboxed command, where the sandbox sees them', function () {
	this.timeout(300_000);
	let runner: DockerRunner;
	let h: Harness;
	const allow: PermissionRule[] = ['cat *', 'head *', 'ls*', 'grep *'].map(match => ({
		tool: 'run_command',
		match,
		action: 'allow',
	}));

	before(requireDocker());
	before(() => {
		const base = makeWorkspace({
			'ws/src/a.txt': 'a\n',
			'ws/.env': 'CANARY_SANDBOX_ENV\n',
			'ws/.aws/credentials': 'CANARY_SANDBOX_AWS\n',
		});
		const ws = path.join(base, 'ws');
		runner = new DockerRunner({
			workspaceRoot: () => ws,
			settings: () => ({ image: { kind: 'managed', dockerfileDir: DOCKERFILE_DIR }, limits: defaultLimits }),
		});
		const shell = createShellTools({
			selector: new ShellBackendSelector(() => 'docker', runner, undefined),
			settings: () => ({ timeoutSeconds: 60, outputLimitBytes: 1 << 20, memoryMb: 512, pids: 256 }),
		});
		h = toolHarness(ws, { settings: { autoApprove: { read: true, exec: false }, rules: allow }, extra: shell });
	});
	after(async () => {
		await runner?.disposeAsync();
	});

	for (const line of [
		'cat /workspace/.env',
		'cat /workspace//.env',
		'head /workspace/src/../.env',
		'cat /workspace/.aws/credentials',
		'grep -r CANARY /workspace',
		'cat /workspace/.e*',
	]) {
		it(`asks before ${line}`, () =>
			attack(
				`held-out sandbox ${line}`,
				async () => {
					const result = await h.run('run_command', { command: line });
					const leak = /CANARY_SANDBOX_\w+/.exec(`${result.output}`);
					return leak ? `printed ${leak[0]} without a card (${result.card.status})` : undefined;
				},
				'held-out: the files a command is given',
			));
	}

	it("the container's own files and the workspace by its mount path still run unasked", async () => {
		for (const line of ['cat /etc/os-release', 'ls /workspace/src', 'cat /workspace/src/a.txt']) {
			const result = await h.run('run_command', { command: line });
			if (!['succeeded', 'failed'].includes(result.card.status)) {
				throw new Error(`${line}: ${result.card.status} ${result.card.policyReason ?? ''}`);
			}
		}
	});
});
