// The shell classes against the real sandbox image: a sample of the class 1 lines through the
// whole pipeline with run_command in Docker, and class 8's wall — with every command
// approved, a command in the sandbox cannot plant hooks, git config (submodules included),
// editor tasks, CI or dev-container files on the host. Skipped when no engine answers.
import * as fs from 'fs';
import * as path from 'path';
import { DockerRunner } from '../../src/core/exec/dockerRunner';
import { defaultLimits } from '../../src/core/exec/sandbox/sandboxSpec';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import type { PermissionRule } from '../../src/core/gate/rules/permissions';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { DOCKERFILE_DIR, makeWorkspace, requireDocker } from '../support/dockerEngine';
import { toolHarness, type Harness } from '../support/toolHarness';
import { CONTEXTS, sample, spellings } from './support/grammar';
import { attack } from './tally';

describe('security in the sandbox image (real engine)', function () {
	this.timeout(180_000);
	let root: string;
	let runner: DockerRunner;
	const harness = (rules: PermissionRule[], exec: boolean): Harness => {
		const tools = createShellTools({
			selector: new ShellBackendSelector(() => 'docker', runner, undefined),
			settings: () => ({ timeoutSeconds: 20, outputLimitBytes: 100_000, memoryMb: 512, pids: 256 }),
		});
		return toolHarness(root, { settings: { autoApprove: { read: true, exec }, rules }, extra: tools });
	};

	before(requireDocker());
	before(async () => {
		root = makeWorkspace({
			'src/a.ts': 'a',
			'.git/config': '[core]\n',
			'.git/hooks/README': 'h',
			'.git/modules/lib/config': '[core]\n',
			'.git/modules/lib/hooks/README': 'h',
			'.github/workflows/ci.yml': 'on: push\n',
			'.husky/pre-commit': 'x\n',
			'.devcontainer/devcontainer.json': '{}\n',
			'.pre-commit-config.yaml': 'repos: []\n',
			'.yarnrc.yml': 'x: 1\n',
			'.gitlab-ci.yml': 'x: 1\n',
		});
		runner = new DockerRunner({
			workspaceRoot: root,
			settings: () => ({ image: { kind: 'managed', dockerfileDir: DOCKERFILE_DIR }, limits: defaultLimits }),
		});
		await runner.run({ command: 'true', cwd: '', timeoutMs: 120_000, outputLimitBytes: 1000 });
	});
	after(async () => {
		await runner?.disposeAsync();
		if (root) fs.rmSync(root, { recursive: true, force: true });
	});

	const allow: PermissionRule[] = ['git status*', 'echo *', 'true', 'cat *'].map(match => ({
		tool: 'run_command',
		match,
		action: 'allow',
	}));
	const lines = sample(CONTEXTS, 16).map((context, i) =>
		context.replace(/X/g, `${spellings('touch')[i % 14]} pwned`),
	);
	for (const line of lines) {
		it(`class 1 in the sandbox: ${JSON.stringify(line).slice(0, 60)}`, () =>
			attack(
				`C1 sandbox ${JSON.stringify(line).slice(0, 60)}`,
				async () => {
					fs.rmSync(path.join(root, 'pwned'), { force: true });
					const result = await harness(allow, false).run('run_command', { command: line });
					return fs.existsSync(path.join(root, 'pwned'))
						? `created pwned without a card (${result.card.status})`
						: undefined;
				},
				'class 1 (shell parse)',
			));
	}

	it('sanity: the same approved commands do write ordinary workspace files', async () => {
		const h = harness([{ tool: '*', action: 'allow' }], true);
		h.approver.answer = { approved: true };
		await h.run('run_command', { command: 'T=src/b.ts; echo ok >> "$T"; cp src/a.ts src/c.ts' });
		if (!fs.existsSync(path.join(root, 'src/b.ts')) || !fs.existsSync(path.join(root, 'src/c.ts')))
			throw new Error('the sandbox wrote nothing at all');
	});

	// Everything auto-approved and spelled so that no name check sees it: only the mount holds.
	const targets = [
		'.git/hooks/pre-commit',
		'.git/config',
		'.git/modules/lib/config',
		'.git/modules/lib/hooks/post-checkout',
		'.vscode/tasks.json',
		'.github/workflows/evil.yml',
		'.husky/pre-push',
		'.devcontainer/devcontainer.json',
		'.pre-commit-config.yaml',
		'.yarnrc.yml',
		'.gitlab-ci.yml',
	];
	const writers = (target: string) => [
		`T=${target}; echo pwned >> "$T"`,
		`cp src/a.ts ${target}`,
		`sh -c 'cat src/a.ts > $0' ${target}`,
		`python3 -c "open('${target}','a').write('pwned')" 2>/dev/null || printf pwned | tee -a ${target}`,
	];
	for (const target of targets) {
		for (const writer of writers(target)) {
			it(`class 8 in the sandbox: ${writer}`, () =>
				attack(
					`C8 sandbox ${writer}`,
					async () => {
						const file = path.join(root, target);
						const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
						const h = harness([{ tool: '*', action: 'allow' }], true);
						h.approver.answer = { approved: true };
						await h.run('run_command', { command: writer });
						const after = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
						return after !== before ? `${target} changed on the host` : undefined;
					},
					'class 8 (protected paths)',
				));
		}
	}
});
