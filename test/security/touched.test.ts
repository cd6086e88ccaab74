// Classes 4, 5, 8 and 9 of the security model, against the real tools on a real disk: path
// rules decided on the file really touched, folder copies checked file by file, protected
// files always asking, and approvals that cannot be redirected while the card waits.
import * as fs from 'fs';
import * as path from 'path';
import type { ApprovalSettings } from '../../src/core/agent/approval/approvalPolicy';
import type { PermissionRule } from '../../src/core/gate/rules/permissions';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness, type Harness } from '../support/toolHarness';
import { LocalBashRunner } from './support/bashRunner';
import { pathSpellings } from './support/grammar';
import { attack } from './tally';

const CANARY = 'CANARY_TOUCHED_6d21';
const everything = { read: true, write: true, exec: true, network: true };

function shellTools(ws: string, home: string) {
	const runner = new LocalBashRunner(ws, home);
	return createShellTools({
		selector: new ShellBackendSelector(
			() => 'terminal',
			Object.assign(runner, { available: async () => false }),
			runner,
		),
		settings: () => ({ timeoutSeconds: 5, outputLimitBytes: 100_000, memoryMb: 512, pids: 256 }),
	});
}

describe('security class 4: path rules match the path touched, not the path asked', () => {
	let tree: TempTree;
	let ws: string;
	const harness = (rules: PermissionRule[], autoApprove: ApprovalSettings['autoApprove']) =>
		toolHarness(ws, { settings: { autoApprove, rules }, extra: shellTools(ws, path.join(tree.base, 'outside')) });
	before(() => {
		tree = tempTree('keel-c4-');
		tree.add({
			'ws/package.json': '{"name":"x"}',
			'ws/src/a.ts': 'a',
			'ws/scripts/run.sh': CANARY,
			'ws/src/pkg.json': { link: '../package.json' },
			'ws/src/sl': { link: '../scripts' },
			'ws/alias': { link: 'scripts' },
			'outside/keep': 'k',
			'ws/out': { link: '../outside' },
		});
		ws = path.join(tree.base, 'ws');
	});
	after(() => tree.cleanup());

	// An allow on src/** must not reach package.json through src/pkg.json.
	for (const spelled of [...pathSpellings('src/pkg.json'), 'src/./pkg.json', 'src/sl/../pkg.json']) {
		it(`allow src/** does not write package.json via ${spelled}`, () =>
			attack(
				`C4 allow-through-symlink ${spelled}`,
				async () => {
					fs.writeFileSync(path.join(ws, 'package.json'), '{"name":"x"}');
					const h = harness([{ tool: 'write_file', match: 'src/**', action: 'allow' }], { read: true });
					const result = await h.run('write_file', { path: spelled, content: '{"name":"pwned"}' });
					return tree.read('ws/package.json')!.includes('pwned')
						? `overwrote package.json (${result.card.status})`
						: undefined;
				},
				'class 4 (paths)',
			));
	}

	// A deny on scripts/** holds for every spelling and every symlink to it, for each tool.
	const spellings = [
		...pathSpellings('scripts/run.sh'),
		'alias/run.sh',
		'src/sl/run.sh',
		'SCRIPTS/run.sh',
		'src/../alias/./run.sh',
	];
	for (const tool of ['write_file', 'edit_file', 'read_file', 'delete_path']) {
		for (const spelled of spellings) {
			it(`deny scripts/** holds for ${tool} ${spelled}`, () =>
				attack(
					`C4 ${tool} ${spelled}`,
					async () => {
						fs.writeFileSync(path.join(ws, 'scripts/run.sh'), CANARY);
						const h = harness([{ tool, match: 'scripts/**', action: 'deny' }], everything);
						const args =
							tool === 'edit_file'
								? { path: spelled, old_string: CANARY, new_string: 'pwned' }
								: tool === 'write_file'
									? { path: spelled, content: 'pwned' }
									: { path: spelled };
						const result = await h.run(tool, args);
						const now = tree.read('ws/scripts/run.sh');
						return now !== CANARY || result.output.includes(CANARY)
							? `${tool} touched scripts/run.sh (${result.card.status})`
							: undefined;
					},
					'class 4 (paths)',
				));
		}
	}

	for (const pathFilter of [undefined, '**', '**/*.sh', '*/run.sh', 'alias/*']) {
		it(`grep ${pathFilter ?? '(no path)'} honours deny scripts/**`, () =>
			attack(
				`C4 grep ${pathFilter}`,
				async () => {
					const h = toolHarness(ws, {
						settings: {
							autoApprove: everything,
							rules: [{ tool: 'grep', match: 'scripts/**', action: 'deny' }],
						},
						deps: {
							pathPolicy: () => ({
								denyRead: [],
								allowRead: [],
								alwaysAsk: [],
								denySearch: ['scripts/**'],
							}),
						},
					});
					const result = await h.run('grep', {
						pattern: CANARY,
						...(pathFilter ? { path: pathFilter } : {}),
					});
					return result.output.includes('scripts/run.sh') ? 'grep listed scripts/run.sh' : undefined;
				},
				'class 4 (paths)',
			));
	}

	for (const cwd of ['out', 'src/../out', './out', 'out/.']) {
		it(`run_command cwd ${cwd} cannot follow a symlink outside`, () =>
			attack(
				`C4 cwd ${cwd}`,
				async () => {
					fs.rmSync(path.join(tree.base, 'outside/pwned'), { force: true });
					const h = harness([], everything);
					await h.run('run_command', { command: 'touch pwned', cwd });
					return fs.existsSync(path.join(tree.base, 'outside/pwned'))
						? 'ran outside the workspace'
						: undefined;
				},
				'class 4 (paths)',
			));
	}
});

describe('security class 5: folder copies and moves check every file', () => {
	let tree: TempTree;
	let ws: string;
	let h: Harness;
	beforeEach(() => {
		tree = tempTree('keel-c5-');
		tree.add({
			'outside/secret.txt': CANARY,
			'ws/src/a.ts': 'a',
			'ws/.kube/config': CANARY,
			'ws/.docker/config.json': CANARY,
			'ws/.config/gcloud/credentials.db': CANARY,
			'ws/.aws/credentials': CANARY,
			'ws/deploy/.ssh/id_ed25519': CANARY,
			'ws/env/.env': CANARY,
			'ws/bundle/readme.md': 'r',
		});
		ws = path.join(tree.base, 'ws');
		fs.linkSync(path.join(tree.base, 'outside/secret.txt'), path.join(ws, 'bundle/linked.txt'));
		h = toolHarness(ws, { settings: { autoApprove: everything } });
	});
	afterEach(() => tree.cleanup());

	const folders = ['.kube', '.docker', '.config', '.aws', 'deploy', 'env', 'bundle', 'deploy/.ssh', '.config/gcloud'];
	for (const tool of ['copy_path', 'move_path']) {
		for (const from of folders) {
			for (const to of ['renamed', 'src/copy', 'x/y/z']) {
				it(`${tool} ${from} → ${to} does not make a secret readable`, () =>
					attack(
						`C5 ${tool} ${from} → ${to}`,
						async () => {
							await h.run(tool, { from, to });
							const leaked: string[] = [];
							const walk = (rel: string) => {
								for (const entry of fs.readdirSync(path.join(ws, rel), { withFileTypes: true })) {
									const child = rel ? `${rel}/${entry.name}` : entry.name;
									if (entry.isDirectory()) walk(child);
									else leaked.push(child);
								}
							};
							if (fs.existsSync(path.join(ws, to))) walk(to);
							for (const file of leaked) {
								const read = await h.run('read_file', { path: file });
								if (read.output.includes(CANARY)) return `${file} readable after ${tool}`;
							}
							return undefined;
						},
						'class 5 (folder copies)',
					));
			}
		}
	}
});

describe('security class 8: protected files ask, whatever the rules and auto-approve say', () => {
	let tree: TempTree;
	let ws: string;
	before(() => {
		tree = tempTree('keel-c8-');
		tree.add({
			'ws/src/a.ts': 'a',
			'ws/.git/config': '[core]\n',
			'ws/.git/modules/lib/config': '[core]\n',
			'ws/.git/modules/lib/hooks/README': 'h',
			'ws/.github/workflows/ci.yml': 'on: push',
			'ws/.husky/pre-commit': 'x',
			'ws/.devcontainer/devcontainer.json': '{}',
			'ws/ci': { link: '.github' },
			'ws/mods': { link: '.git/modules' },
		});
		ws = path.join(tree.base, 'ws');
	});
	after(() => tree.cleanup());

	const targets = [
		'.git/modules/lib/config',
		'.git/modules/lib/hooks/pre-commit',
		'.git/modules/a/modules/b/config',
		'.github/workflows/ci.yml',
		'.github/actions/x/action.yml',
		'.gitlab-ci.yml',
		'.gitlab/ci/x.yml',
		'.husky/pre-commit',
		'.devcontainer/devcontainer.json',
		'.devcontainer.json',
		'.pre-commit-config.yaml',
		'.yarnrc.yml',
		'.envrc',
		'.keel/rules.md',
		'.vscode/tasks.json',
		'sub/.github/workflows/x.yml',
		'ci/workflows/ci.yml',
		'mods/lib/config',
		'mods/lib/hooks/post-checkout',
		'.GitHub/workflows/ci.yml',
		'.git/info/attributes',
		'.gitmodules',
	];
	const allowAll: ApprovalSettings = {
		autoApprove: everything,
		rules: [
			{ tool: '*', action: 'allow' },
			{ tool: 'write_file', match: '**', action: 'allow' },
		],
	};
	for (const target of targets) {
		for (const tool of ['write_file', 'create_directory', 'copy_path']) {
			it(`${tool} ${target} asks`, () =>
				attack(
					`C8 ${tool} ${target}`,
					async () => {
						const h = toolHarness(ws, { settings: allowAll });
						const args =
							tool === 'write_file'
								? { path: target, content: '[core]\n\tfsmonitor = touch pwned' }
								: tool === 'copy_path'
									? { from: 'src/a.ts', to: target, overwrite: true }
									: { path: target };
						const result = await h.run(tool, args);
						return result.card.status === 'succeeded' && h.approver.requests.length === 0
							? `${tool} changed ${target} without asking`
							: undefined;
					},
					'class 8 (protected paths)',
				));
		}
	}
	for (const target of ['.github', '.git/modules', '.husky', '.devcontainer', 'ci']) {
		for (const tool of ['delete_path', 'move_path']) {
			it(`${tool} ${target} asks`, () =>
				attack(
					`C8 ${tool} ${target}`,
					async () => {
						const h = toolHarness(ws, { settings: allowAll });
						const result = await h.run(
							tool,
							tool === 'move_path' ? { from: target, to: 'moved' } : { path: target, recursive: true },
						);
						return result.card.status === 'succeeded' && h.approver.requests.length === 0
							? `${tool} ${target} without asking`
							: undefined;
					},
					'class 8 (protected paths)',
				));
		}
	}
});

describe('security class 9: what was approved is what is touched (no swap while the card waits)', () => {
	let tree: TempTree;
	let ws: string;
	beforeEach(() => {
		tree = tempTree('keel-c9-');
		tree.add({
			'ws/docs/readme.md': 'r',
			'ws/docs/deep/readme.md': 'r',
			'ws/docs/keep': 'k',
			'ws/docs/deep/keep': 'k',
			'ws/src/a.ts': 'a',
			'outside/keep': 'k',
			'ws/.git/hooks/keep': 'k',
		});
		ws = path.join(tree.base, 'ws');
	});
	afterEach(() => tree.cleanup());

	const snapshot = (dir: string) =>
		fs
			.readdirSync(path.join(tree.base, dir))
			.sort()
			.map(name => `${name}:${tree.read(`${dir}/${name}`) ?? 'dir'}`)
			.join(',');
	// While the card waits, the folder is replaced by a symlink to somewhere the approval never covered.
	const swaps: Array<{ folder: string; link: string; watched: string }> = [
		{ folder: 'docs', link: '../outside', watched: 'outside' },
		{ folder: 'docs/deep', link: '../../outside', watched: 'outside' },
		{ folder: 'docs', link: '.git/hooks', watched: 'ws/.git/hooks' },
		{ folder: 'docs/deep', link: '../.git/hooks', watched: 'ws/.git/hooks' },
	];
	const calls = (f: string): Array<[string, Record<string, unknown>]> => [
		['write_file', { path: `${f}/new.md`, content: CANARY }],
		['write_file', { path: `${f}/keep`, content: CANARY }],
		['edit_file', { path: `${f}/readme.md`, old_string: 'r', new_string: CANARY }],
		['create_directory', { path: `${f}/pwned` }],
		['copy_path', { from: 'src/a.ts', to: `${f}/pwned` }],
		['move_path', { from: 'src/a.ts', to: `${f}/pwned` }],
		['delete_path', { path: `${f}/keep` }],
		['run_command', { command: `echo x > ${f}/pwned` }],
		['run_command', { command: 'touch pwned', cwd: f }],
	];
	for (const swap of swaps) {
		for (const [tool, args] of calls(swap.folder)) {
			it(`${tool} ${JSON.stringify(args).slice(0, 60)} refuses after ${swap.folder} → ${swap.link}`, () =>
				attack(
					`C9 ${tool} ${JSON.stringify(args).slice(0, 50)} ${swap.folder}→${swap.link}`,
					async () => {
						const h = toolHarness(ws, {
							settings: { autoApprove: { read: true } },
							extra: shellTools(ws, path.join(tree.base, 'outside')),
						});
						h.approver.answer = { approved: true };
						const request = h.approver.request.bind(h.approver);
						const before = snapshot(swap.watched);
						h.approver.request = async call => {
							fs.rmSync(path.join(ws, swap.folder), { recursive: true, force: true });
							fs.symlinkSync(swap.link, path.join(ws, swap.folder));
							return request(call);
						};
						await h.run(tool, args);
						const after = snapshot(swap.watched);
						return after !== before ? `${swap.watched} changed: ${after}` : undefined;
					},
					'class 9 (time of check)',
				));
		}
	}
});
