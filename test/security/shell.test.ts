// Classes 1–3 of the security model, run for real: every generated line goes through Keel's
// whole pipeline (prepare → policy → approval → execute) with run_command backed by real
// bash. The approver refuses everything, so a line only runs if the rules let it run
// unasked; it "gets through" when bash then really did the forbidden thing.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { ApprovalSettings } from '../../src/core/agent/approval/approvalPolicy';
import type { PermissionRule } from '../../src/core/gate/rules/permissions';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness, type Harness } from '../support/toolHarness';
import { LocalBashRunner } from './support/bashRunner';
import {
	CONTEXTS,
	REDIRECT_OPERATORS,
	redirectSpellings,
	sample,
	shellWrapped,
	spellings,
	WRAPPERS,
} from './support/grammar';
import { attack } from './tally';

const settingsFor = (rules: PermissionRule[], exec: boolean): ApprovalSettings => ({
	autoApprove: { read: true, exec },
	rules,
});

function shellHarness(tree: TempTree, settings: ApprovalSettings): { h: Harness; ws: string } {
	const ws = path.join(tree.base, 'ws');
	const runner = new LocalBashRunner(ws, path.join(tree.base, 'home'));
	const sandbox = Object.assign(runner, { available: async () => false });
	const tools = createShellTools({
		selector: new ShellBackendSelector(() => 'terminal', sandbox, runner),
		settings: () => ({ timeoutSeconds: 5, outputLimitBytes: 100_000, memoryMb: 512, pids: 256 }),
	});
	return { h: toolHarness(ws, { settings, extra: tools }), ws };
}

function setup(prefix: string): TempTree {
	const tree = tempTree(prefix);
	tree.add({ 'ws/src/a.txt': 'a', 'ws/.vscode/settings.json': '{}', 'outside/keep': 'x', 'home/.keep': '' });
	const ws = path.join(tree.base, 'ws');
	execFileSync('git', ['init', '-q', ws]);
	fs.symlinkSync('.vscode', path.join(ws, 'lnk'));
	fs.symlinkSync('.git/hooks', path.join(ws, 'hk'));
	fs.symlinkSync('../outside', path.join(ws, 'out'));
	return tree;
}

describe('security class 1: the line Keel parses is the line bash runs', () => {
	let tree: TempTree;
	let h: Harness;
	let ws: string;
	const allow: PermissionRule[] = [
		'git status*',
		'echo *',
		'ls*',
		'true',
		'false',
		'cat *',
		'printf *',
		'wait',
		'x=*',
	].map(match => ({ tool: 'run_command', match, action: 'allow' }));
	before(() => {
		tree = setup('keel-c1-');
		({ h, ws } = shellHarness(tree, settingsFor(allow, false)));
	});
	after(() => tree.cleanup());

	const lines = new Set<string>();
	for (const context of CONTEXTS) {
		for (const touch of ['touch', ...sample(spellings('touch').slice(1), 3, context.length)]) {
			lines.add(context.replace(/X/g, `${touch} pwned`));
		}
	}
	for (const touch of spellings('touch')) {
		lines.add(`git status #'\n${touch} pwned\n#'`);
		lines.add(`echo ok; ${touch} pwned`);
	}
	for (const wrapped of shellWrapped('touch pwned')) {
		lines.add(wrapped);
		lines.add(`echo $(${wrapped})`);
	}
	for (const line of lines) {
		it(`never runs unapproved: ${JSON.stringify(line).slice(0, 70)}`, () =>
			attack(
				`C1 ${JSON.stringify(line).slice(0, 70)}`,
				async () => {
					fs.rmSync(path.join(ws, 'pwned'), { force: true });
					const result = await h.run('run_command', { command: line });
					return fs.existsSync(path.join(ws, 'pwned'))
						? `bash created pwned without a card (${result.card.status})`
						: undefined;
				},
				'class 1 (shell parse)',
			));
	}

	it('sanity: allowed lines still run without a card', async () => {
		for (const line of ['git status', 'echo "a; b" && ls src', 'cat src/a.txt | cat -n']) {
			const result = await h.run('run_command', { command: line });
			if (result.card.status !== 'succeeded') throw new Error(`${line}: ${result.card.status} ${result.output}`);
		}
	});
});

describe('security class 2: deny rules match the command, however it is spelled or wrapped', () => {
	let tree: TempTree;
	let h: Harness;
	let ws: string;
	const rules: PermissionRule[] = [
		{ tool: 'run_command', match: 'rm *', action: 'deny' },
		{ tool: 'run_command', match: 'git push*', action: 'deny' },
	];
	before(() => {
		tree = setup('keel-c2-');
		({ h, ws } = shellHarness(tree, settingsFor(rules, true)));
		const remote = path.join(tree.base, 'remote.git');
		execFileSync('git', ['init', '-q', '--bare', remote]);
		const git = (...args: string[]) =>
			execFileSync('git', ['-C', ws, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args]);
		git('add', 'src/a.txt');
		git('commit', '-qm', 'one');
		git('remote', 'add', 'origin', remote);
	});
	after(() => tree.cleanup());

	const lines = new Set<string>();
	for (const rm of spellings('rm')) {
		for (const wrapper of WRAPPERS) {
			lines.add(`${wrapper}${rm} -f victim`);
		}
	}
	for (const context of CONTEXTS) {
		lines.add(context.replace(/X/g, 'rm -f victim'));
		lines.add(context.replace(/X/g, `${sample(spellings('rm'), 1, context.length)[0]} -f victim`));
	}
	for (const wrapped of [...shellWrapped('rm -f victim'), ...shellWrapped('/bin/rm -f victim')]) {
		lines.add(wrapped);
	}
	lines.add('echo victim | xargs rm -f');
	lines.add('find . -name victim -exec rm -f {} \\;');
	lines.add('find . -name victim -exec /bin/rm -f {} +');
	// Programs that run a command line they were handed: git aliases and config, env-var commands, flock, script, xargs.
	for (const extra of [
		"git -c alias.x='!rm -f victim' x",
		"git -c alias.x='!f() { rm -f victim; }; f' x",
		"GIT_SSH_COMMAND='rm -f victim' git ls-remote ssh://h/r",
		'GIT_SSH_COMMAND=\'sh -c "rm -f victim"\' git fetch ssh://h/r',
		'flock .lock rm -f victim',
		'flock -w 5 .lock rm -f victim',
		'flock .lock -c "rm -f victim"',
		'script -qc "rm -f victim" /dev/null',
		'xargs -I{} rm -f {} <<< victim',
		'xargs -a <(echo victim) rm -f',
		'timeout --signal=KILL 5 rm -f victim',
		'timeout -k 1 5 rm -f victim',
		'env -C . rm -f victim',
		'env -u HOME rm -f victim',
		'nice -5 rm -f victim',
		'exec -a x rm -f victim',
		'command -- rm -f victim',
		'stdbuf -oL rm -f victim',
		'setsid rm -f victim',
		'nohup rm -f victim >/dev/null 2>&1',
		'time -p rm -f victim',
		'trap "rm -f victim" EXIT',
		'watch -n 1 -e -g "rm -f victim" & sleep 0.3; kill %1',
	]) {
		lines.add(extra);
	}
	lines.add('x=rm; $x -f victim');
	lines.add('"$(echo rm)" -f victim');
	lines.add('r=r; ${r}m -f victim');
	for (const line of lines) {
		it(`refuses: ${JSON.stringify(line).slice(0, 70)}`, () =>
			attack(
				`C2 ${JSON.stringify(line).slice(0, 70)}`,
				async () => {
					fs.writeFileSync(path.join(ws, 'victim'), 'v');
					const result = await h.run('run_command', { command: line });
					return !fs.existsSync(path.join(ws, 'victim'))
						? `bash removed victim (${result.card.status}: ${result.output.slice(0, 80)})`
						: undefined;
				},
				'class 2 (command rules)',
			));
	}

	const pushes = [
		'git push origin HEAD:refs/heads/x',
		'git "push" origin HEAD:refs/heads/x',
		'git -C . push origin HEAD:refs/heads/x',
		'git -c x.y=z push origin HEAD:refs/heads/x',
		'git --no-pager push origin HEAD:refs/heads/x',
		'/usr/bin/git push origin HEAD:refs/heads/x',
		"git 'push' origin HEAD:refs/heads/x",
		'git pu""sh origin HEAD:refs/heads/x',
		'env git push origin HEAD:refs/heads/x',
		'true && git push origin HEAD:refs/heads/x',
		'bash -c "git push origin HEAD:refs/heads/x"',
		'git -C src/.. push origin HEAD:refs/heads/x',
		'git --git-dir=.git push origin HEAD:refs/heads/x',
		'GIT_TRACE=0 git push origin HEAD:refs/heads/x',
		'nice git push origin HEAD:refs/heads/x',
	];
	for (const line of pushes) {
		it(`refuses: ${line}`, () =>
			attack(
				`C2 ${line}`,
				async () => {
					const remote = path.join(tree.base, 'remote.git');
					await h.run('run_command', { command: line });
					const refs = execFileSync('git', ['--git-dir', remote, 'for-each-ref']).toString();
					execFileSync('git', ['--git-dir', remote, 'update-ref', '-d', 'refs/heads/x']);
					return refs.includes('refs/heads/x') ? 'pushed' : undefined;
				},
				'class 2 (command rules)',
			));
	}
});

describe('security class 3: redirect targets are resolved as bash and the file system resolve them', () => {
	let tree: TempTree;
	let h: Harness;
	before(() => {
		tree = setup('keel-c3-');
		({ h } = shellHarness(tree, settingsFor([], true)));
	});
	after(() => tree.cleanup());

	// Each target names a protected file or a place outside; "lands" is where bash would write.
	const targets: Array<{ spelled: string; lands: string }> = [
		{ spelled: '.vscode/tasks.json', lands: 'ws/.vscode/tasks.json' },
		{ spelled: '.git/hooks/pre-commit', lands: 'ws/.git/hooks/pre-commit' },
		{ spelled: 'lnk/tasks.json', lands: 'ws/.vscode/tasks.json' },
		{ spelled: 'hk/pre-commit', lands: 'ws/.git/hooks/pre-commit' },
		{ spelled: 'out/x', lands: 'outside/x' },
		{ spelled: '../outside/x', lands: 'outside/x' },
	];
	const lines: Array<{ line: string; lands: string }> = [];
	for (const target of targets) {
		const spellings = target.spelled.startsWith('..')
			? [target.spelled, `$PWD/${target.spelled}`, `"${target.spelled}"`, `..'/'outside/x`]
			: redirectSpellings(target.spelled);
		for (const spelled of spellings) {
			for (const op of sample(REDIRECT_OPERATORS, 4, spelled.length)) {
				lines.push({ line: `echo x ${op} ${spelled}`, lands: target.lands });
			}
			lines.push({
				line: `ls ${sample(REDIRECT_OPERATORS, 1, spelled.length + 3)[0]}${spelled}`,
				lands: target.lands,
			});
		}
	}
	// Programs that write the files their arguments name.
	for (const target of targets) {
		const spelled = target.spelled.startsWith('..')
			? [target.spelled, `"${target.spelled}"`]
			: sample(redirectSpellings(target.spelled), 4, target.spelled.length);
		for (const t of spelled) {
			for (const writer of [
				`echo x | tee ${t}`,
				`echo x | tee -a ${t}`,
				`cp src/a.txt ${t}`,
				`install -m 755 src/a.txt ${t}`,
				`touch ${t}`,
				`dd if=src/a.txt of=${t} status=none`,
				`/bin/cp -f src/a.txt ${t}`,
				`sudo -n true 2>/dev/null; cp src/a.txt ${t}`,
			]) {
				lines.push({ line: writer, lands: target.lands });
			}
		}
	}
	lines.push(
		{ line: 'cd .vscode && echo x > tasks.json', lands: 'ws/.vscode/tasks.json' },
		{ line: 'cd .. && echo x > outside/x', lands: 'outside/x' },
		{ line: 'pushd .git/hooks; echo x > pre-commit', lands: 'ws/.git/hooks/pre-commit' },
	);
	lines.push(
		{ line: 'echo x > ~/x', lands: 'home/x' },
		{ line: 'echo x > $HOME/x', lands: 'home/x' },
		{ line: 'exec 3> .vscode/tasks.json; echo x >&3', lands: 'ws/.vscode/tasks.json' },
	);
	for (const { line, lands } of lines) {
		it(`asks before: ${line}`, () =>
			attack(
				`C3 ${line}`,
				async () => {
					const landed = path.join(tree.base, lands);
					fs.rmSync(landed, { force: true });
					const result = await h.run('run_command', { command: line });
					return fs.existsSync(landed) ? `wrote ${lands} without a card (${result.card.status})` : undefined;
				},
				'class 3 (redirect targets)',
			));
	}
});
