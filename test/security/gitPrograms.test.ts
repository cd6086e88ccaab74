// The repository's own programs, planted in its git configuration and run by git: an approved
// git command through run_command (real git in the real sandbox image, and real bash on this
// machine standing in for the terminal) must start none of them, and neither may the git the
// gate asks before the card. Each planted program is a script that leaves a marker file when
// anything executes it. Every attack first runs with keel.shell.gitRepositoryPrograms on, where
// the marker must appear (the attack is live: this is how every one of them fared before),
// then with the setting off, where it must not.
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { execFileSync } from 'child_process';
import type { DockerRunner } from '../../src/core/exec/dockerRunner';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { GitOracle } from '../../src/core/gate/gitOracle';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { makeWorkspace, requireDocker } from '../support/dockerEngine';
import { toolHarness, type Harness } from '../support/toolHarness';
import { LocalBashRunner } from './support/bashRunner';
import { approvedShell, gitImage, resultText, wallRunner } from './support/sandboxWall';
import { attack } from './tally';

const KLASS = "git 4: the repository's own programs do not run";
const SEED = Number(process.env.KEEL_SECURITY_SEED ?? 20261129);

/** What a planted program leaves: `MARK-<kind>` beside the `.evil` folder it lives in. */
const SCRIPT = [
	'#!/bin/sh',
	': > "$(dirname "$0")/../MARK-$(basename "$0")"',
	// A pager or a clean filter reads its input; a textconv gets the file; the rest get words.
	'[ $# -eq 0 ] && exec cat',
	'cat "$1" 2>/dev/null',
	'exit 0',
].join('\n');

interface Plant {
	kind: string;
	/** The configuration, given the planted program's absolute path (as the backend sees it). */
	config(program: string, key: (k: string) => string): string;
	files?: Record<string, string>;
	/** Commands that make git run the program; `a.txt` is committed and changed in the work tree. */
	triggers: string[];
}

/** git reads section and key names in any case: the attack spells them as it likes. */
const spell = (upper: boolean) => (name: string) => (upper ? name.replace(/^./, c => c.toUpperCase()) : name);

const PLANTS: Plant[] = [
	{
		kind: 'fsmonitor',
		config: (p, k) => `[${k('core')}]\n\t${k('fsmonitor')} = ${p}\n`,
		triggers: ['git status --short', 'git diff', 'git add -A'],
	},
	{
		kind: 'hookspath',
		config: (_p, k) => `[${k('core')}]\n\t${k('hooksPath')} = hooks2\n`,
		files: { 'hooks2/pre-commit': 'HOOK', 'hooks2/post-checkout': 'HOOK' },
		triggers: ['git commit -qm x --allow-empty', 'git checkout -q -b other'],
	},
	{
		kind: 'hook',
		config: () => '',
		files: { '.git/hooks/pre-commit': 'HOOK', '.git/hooks/post-checkout': 'HOOK', '.git/hooks/commit-msg': 'HOOK' },
		triggers: ['git commit -qm x --allow-empty', 'git checkout -q -b other', 'git commit -qam y'],
	},
	{
		kind: 'textconv',
		config: (p, k) => `[${k('diff')} "conv"]\n\t${k('textconv')} = ${p}\n`,
		files: { '.gitattributes': '*.txt diff=conv\n' },
		triggers: ['git diff', 'git log -p', 'git show HEAD', 'git diff HEAD~1 -- a.txt', 'git grep --textconv -e x'],
	},
	{
		kind: 'textconv-info',
		config: (p, k) => `[${k('diff')} "conv"]\n\t${k('textconv')} = ${p}\n`,
		files: { '.git/info/attributes': 'a.txt diff=conv\n' },
		triggers: ['git diff', 'git log -p'],
	},
	{
		kind: 'external',
		config: (p, k) => `[${k('diff')}]\n\t${k('external')} = ${p}\n`,
		triggers: ['git diff', 'git log -p --ext-diff', 'git show --ext-diff HEAD'],
	},
	{
		kind: 'filter',
		config: (p, k) => `[${k('filter')} "f"]\n\t${k('clean')} = ${p}\n\t${k('smudge')} = ${p}\n`,
		files: { '.gitattributes': '*.txt filter=f\n' },
		triggers: ['git add a.txt', 'git diff', 'git checkout -- a.txt', 'git stash -q'],
	},
	{
		kind: 'process',
		config: (p, k) => `[${k('filter')} "p"]\n\t${k('process')} = ${p}\n`,
		files: { '.gitattributes': '*.txt filter=p\n' },
		triggers: ['git add a.txt', 'git diff'],
	},
	{
		kind: 'pager',
		config: (p, k) => `[${k('core')}]\n\t${k('pager')} = ${p}\n`,
		// A pager starts only on a terminal: `script` gives git one.
		triggers: ["script -qec 'git log' /dev/null", "script -qec 'git -p status' /dev/null"],
	},
	{
		kind: 'pager-cmd',
		config: (p, k) => `[${k('pager')}]\n\tlog = ${p}\n\tshow = ${p}\n`,
		triggers: ["script -qec 'git log' /dev/null", "script -qec 'git show' /dev/null"],
	},
	{
		kind: 'alias',
		config: (p, k) =>
			`[${k('alias')}]\n\tst = !${p}\n\tlg = -c core.pager=${p} log\n\tdf = -c diff.external=${p} diff\n`,
		triggers: ['git st', "script -qec 'git lg' /dev/null", 'git df'],
	},
	{
		kind: 'editor',
		config: (p, k) => `[${k('core')}]\n\t${k('editor')} = ${p}\n[sequence]\n\teditor = ${p}\n`,
		triggers: ['git commit --allow-empty', 'git rebase -i --autostash HEAD~1', 'git commit --amend'],
	},
	{
		kind: 'ssh',
		config: (p, k) => `[${k('core')}]\n\t${k('sshCommand')} = ${p}\n`,
		triggers: ['git ls-remote ssh://127.0.0.1:1/x', 'git fetch -q ssh://127.0.0.1:1/x'],
	},
	{
		kind: 'credential',
		config: (p, k) =>
			`[${k('credential')}]\n\thelper = ${p}\n[credential "https://example.com"]\n\thelper = ${p}\n`,
		triggers: [`printf 'protocol=https\\nhost=example.com\\n\\n' | git credential fill`],
	},
	{
		kind: 'difftool',
		config: p => `[diff]\n\ttool = t\n[difftool "t"]\n\tcmd = ${p} \\"$LOCAL\\"\n`,
		triggers: ['git difftool -y'],
	},
];

/** Where the configuration is written: the repository's own file, or a file it includes from the workspace. */
const PLACES = ['config', 'include', 'includeIf', 'worktree'] as const;
type Place = (typeof PLACES)[number];

function plantConfig(ws: string, place: Place, text: string): void {
	const config = path.join(ws, '.git/config');
	const base = fs.readFileSync(config, 'utf8');
	if (place === 'config') return fs.writeFileSync(config, `${base}${text}`);
	if (place === 'worktree') {
		fs.writeFileSync(
			config,
			`${base}[extensions]\n\tworktreeConfig = true\n[core]\n\trepositoryformatversion = 1\n`,
		);
		return fs.writeFileSync(path.join(ws, '.git/config.worktree'), text);
	}
	fs.mkdirSync(path.join(ws, 'cfg'), { recursive: true });
	fs.writeFileSync(path.join(ws, 'cfg/inc'), text);
	fs.writeFileSync(
		config,
		place === 'include'
			? `${base}[include]\n\tpath = ../cfg/inc\n`
			: `${base}[includeIf "gitdir:${ws}/"]\n\tpath = ${path.join(ws, 'cfg/inc')}\n[includeIf "gitdir:/workspace/"]\n\tpath = /workspace/cfg/inc\n`,
	);
}

const git = (cwd: string, ...args: string[]) =>
	execFileSync('git', ['-c', 'safe.directory=*', ...args], {
		cwd,
		stdio: 'ignore',
		env: { ...process.env, HOME: os.tmpdir() },
	});

/** A repository with two commits, `a.txt` changed in the work tree, and the planted programs. */
function repository(ws: string, owner?: { uid: number; gid: number }): void {
	git(ws, 'init', '-q');
	fs.writeFileSync(
		path.join(ws, '.git/config'),
		fs.readFileSync(path.join(ws, '.git/config'), 'utf8') + '[user]\n\tname = t\n\temail = t@t\n',
	);
	fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
	fs.writeFileSync(path.join(ws, 'a.txt'), 'one\n');
	fs.writeFileSync(path.join(ws, 'src/b.txt'), 'b\n');
	git(ws, 'add', '-A');
	git(ws, 'commit', '-qm', 'one', '--no-verify');
	fs.writeFileSync(path.join(ws, 'a.txt'), 'two\n');
	git(ws, 'commit', '-qam', 'two', '--no-verify');
	git(ws, 'tag', 'base');
	fs.writeFileSync(path.join(ws, 'a.txt'), 'three x\n');
	if (owner) execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, ws]);
}

/** Sets the repository back: the base configuration, the work tree, no planted files or markers. */
function reset(ws: string, baseConfig: string): void {
	for (const state of ['rebase-merge', 'rebase-apply'])
		fs.rmSync(path.join(ws, '.git', state), { recursive: true, force: true });
	fs.writeFileSync(path.join(ws, '.git/config'), baseConfig);
	for (const rel of ['.git/config.worktree', '.git/info/attributes', '.gitattributes', 'cfg/inc']) {
		fs.rmSync(path.join(ws, rel), { force: true });
	}
	for (const hook of fs.readdirSync(path.join(ws, '.git/hooks'))) {
		if (!hook.endsWith('.sample')) fs.rmSync(path.join(ws, '.git/hooks', hook), { force: true });
	}
	fs.rmSync(path.join(ws, 'hooks2'), { recursive: true, force: true });
	for (const name of fs.readdirSync(ws)) if (name.startsWith('MARK-')) fs.rmSync(path.join(ws, name));
	git(ws, 'checkout', '-q', '-f', 'master');
	git(ws, 'reset', '-q', '--hard', 'base');
	git(ws, 'stash', 'clear');
	git(ws, 'branch', '-q', '-D', 'other');
}

function safeReset(ws: string, baseConfig: string): void {
	try {
		reset(ws, baseConfig);
	} catch {
		// `branch -D other` fails when there is none: the rest already ran.
	}
	fs.writeFileSync(path.join(ws, 'a.txt'), 'three x\n');
}

/** Writes one plant into the workspace; the program is `.evil/<kind>`, seen by the backend at `seenRoot`. */
function plant(
	ws: string,
	seenRoot: string,
	p: Plant,
	place: Place,
	upper: boolean,
	owner?: { uid: number; gid: number },
): void {
	const program = `${seenRoot}/.evil/${p.kind}`;
	fs.mkdirSync(path.join(ws, '.evil'), { recursive: true });
	fs.writeFileSync(path.join(ws, '.evil', p.kind), `${SCRIPT}\n`, { mode: 0o755 });
	for (const [rel, content] of Object.entries(p.files ?? {})) {
		fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
		fs.writeFileSync(path.join(ws, rel), content === 'HOOK' ? `#!/bin/sh\nexec ${program} hook\n` : content, {
			mode: 0o755,
		});
	}
	plantConfig(ws, place, p.config(program, spell(upper)));
	if (owner) execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, ws]);
}

const marked = (ws: string) => fs.readdirSync(ws).filter(name => name.startsWith('MARK-'));

interface Case {
	plant: Plant;
	place: Place;
	upper: boolean;
	trigger: number;
	sub: boolean;
}

const cases: fc.Arbitrary<Case> = fc.record({
	plant: fc.constantFrom(...PLANTS),
	place: fc.constantFrom(...PLACES),
	upper: fc.boolean(),
	trigger: fc.nat(),
	sub: fc.boolean(),
});

/**
 * One generated attack: planted, run with the setting on (the marker must appear: the attack is
 * live) and off (it must not), the gate's own git asked the same command's questions in between.
 */
async function oneAttack(
	ws: string,
	seenRoot: string,
	run: (command: string, cwd: string, allowed: boolean) => Promise<string>,
	c: Case,
	baseConfig: string,
	counts: { live: number; total: number },
	backend: string,
	owner?: { uid: number; gid: number },
): Promise<void> {
	const trigger = c.plant.triggers[c.trigger % c.plant.triggers.length];
	const cwd = c.sub && !/checkout|stash|a\.txt/.test(trigger) ? 'src' : '';
	const label = `${backend}: ${c.plant.kind} in ${c.place}${c.upper ? ' (Capitalised)' : ''}, \`${trigger}\`${cwd ? ' in src' : ''}`;
	safeReset(ws, baseConfig);
	plant(ws, seenRoot, c.plant, c.place, c.upper, owner);
	if (process.env.KEEL_DEBUG) console.log(`    > ${label} (on)`);
	const before = await run(trigger, cwd, true);
	counts.total++;
	if (marked(ws).length) counts.live++;
	else console.log(`    (not live with the setting on: ${label}: ${before.slice(0, 300)})`);
	safeReset(ws, baseConfig);
	plant(ws, seenRoot, c.plant, c.place, c.upper, owner);
	await attack(
		label,
		async () => {
			const oracle = new GitOracle();
			await oracle.ask(path.join(ws, cwd), ['status', '--porcelain']);
			await oracle.ask(path.join(ws, cwd), ['diff']);
			await oracle.ask(path.join(ws, cwd), ['log', '-p', '-1']);
			if (process.env.KEEL_DEBUG) console.log(`    > ${label} (off)`);
			const output = await run(trigger, cwd, false);
			const marks = marked(ws);
			if (marks.length) return `${marks.join(', ')} written (${output.slice(0, 200)})`;
			// Switched off, not broken: the change still shows.
			return trigger === 'git diff' && !output.includes('three x')
				? `git diff no longer shows the change: ${output.slice(0, 300)}`
				: undefined;
		},
		KLASS,
	);
}

describe('security: git runs none of the repository’s own programs', function () {
	this.timeout(600_000);
	const runs = Number(process.env.KEEL_GIT_PROGRAM_RUNS ?? 30);

	// The gate's own git answers the questions about the next command a moment after the last one
	// ran: what that command wrote into the configuration must count for the very next question.
	it('the gate’s own git, asked the moment a plant lands, runs none of it', async () => {
		const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-git-oracle-')));
		try {
			repository(ws);
			const baseConfig = fs.readFileSync(path.join(ws, '.git/config'), 'utf8');
			const oracle = new GitOracle();
			for (const p of PLANTS) {
				for (const place of PLACES) {
					const label = `the gate's git: ${p.kind} in ${place}, planted after a question`;
					await attack(
						label,
						async () => {
							safeReset(ws, baseConfig);
							await oracle.ask(ws, ['diff', '--name-only']);
							plant(ws, ws, p, place, place === 'include');
							for (const cwd of [ws, path.join(ws, 'src')]) {
								await oracle.ask(cwd, ['status', '--porcelain']);
								await oracle.ask(cwd, ['diff', '--name-only', '-z', '--no-ext-diff', '--no-textconv']);
								await oracle.ask(cwd, ['log', '-p', '-1']);
								await oracle.ask(cwd, ['show', 'HEAD']);
							}
							const marks = marked(ws);
							return marks.length ? `${marks.join(', ')} written` : undefined;
						},
						KLASS,
					);
				}
			}
		} finally {
			fs.rmSync(ws, { recursive: true, force: true });
		}
	});

	describe('in a terminal (real bash on this machine)', () => {
		let ws: string;
		let home: string;
		let baseConfig: string;
		const harness = new Map<boolean, Harness>();
		const counts = { live: 0, total: 0 };

		before(() => {
			ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-git-programs-')));
			home = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-git-home-'));
			repository(ws);
			baseConfig = fs.readFileSync(path.join(ws, '.git/config'), 'utf8');
			for (const allowed of [true, false]) {
				const runner = new LocalBashRunner(ws, home);
				const tools = createShellTools({
					selector: new ShellBackendSelector(
						() => 'terminal',
						Object.assign(runner, { available: async () => false }),
						runner,
					),
					settings: () => ({
						timeoutSeconds: 10,
						outputLimitBytes: 200_000,
						memoryMb: 512,
						pids: 256,
						gitRepositoryPrograms: allowed,
					}),
				});
				const h = toolHarness(ws, {
					settings: { autoApprove: { read: true, write: true, exec: true, network: true } },
					extra: tools,
				});
				h.approver.answer = { approved: true };
				harness.set(allowed, h);
			}
		});
		after(() => {
			console.log(
				`    terminal: ${counts.live} of ${counts.total} attacks ran their program with the setting on`,
			);
			fs.rmSync(ws, { recursive: true, force: true });
			fs.rmSync(home, { recursive: true, force: true });
		});

		const run = async (command: string, cwd: string, allowed: boolean) =>
			resultText(await harness.get(allowed)!.run('run_command', { command, ...(cwd ? { cwd } : {}) }));

		it('generated plants × places × triggers leave no marker', async () => {
			await fc.assert(
				fc.asyncProperty(cases, async c => oneAttack(ws, ws, run, c, baseConfig, counts, 'terminal')),
				{ numRuns: runs, seed: SEED },
			);
		});

		it('every plant, in the repository’s own file, with each of its triggers', async () => {
			for (const p of PLANTS) {
				for (let t = 0; t < p.triggers.length; t++) {
					await oneAttack(
						ws,
						ws,
						run,
						{ plant: p, place: 'config', upper: false, trigger: t, sub: false },
						baseConfig,
						counts,
						'terminal',
					);
				}
			}
		});

		it('a configuration that includes a file from outside the workspace stops git, and the file is not printed', async () => {
			const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-git-outside-'));
			fs.writeFileSync(path.join(outside, 'credentials'), '[default]\n\tkey = CANARY_OUTSIDE_1\n');
			for (const [i, command] of [
				'git config --list',
				'git config --get default.key',
				'cd src && git config -l',
			].entries()) {
				safeReset(ws, baseConfig);
				fs.appendFileSync(
					path.join(ws, '.git/config'),
					`[include]\n\tpath = ${path.join(outside, 'credentials')}\n`,
				);
				counts.total++;
				if (/CANARY_OUTSIDE/.test(await run(command, '', true))) counts.live++;
				await attack(
					`terminal: include from outside, \`${command}\` (${i})`,
					async () => {
						const text = await run(command, '', false);
						return /CANARY_OUTSIDE/.test(text) ? `printed: ${text.slice(0, 200)}` : undefined;
					},
					KLASS,
				);
			}
			safeReset(ws, baseConfig);
			fs.rmSync(outside, { recursive: true, force: true });
		});
	});

	describe('in the sandbox (real Docker, real git in the image)', () => {
		let ws: string;
		let baseConfig: string;
		let runner: DockerRunner;
		const harness = new Map<boolean, Harness>();
		const counts = { live: 0, total: 0 };
		const owner = process.getuid?.() === 0 ? { uid: 1000, gid: 1000 } : undefined;

		before(requireDocker());
		before(async function () {
			this.timeout(600_000);
			const image = await gitImage();
			ws = fs.realpathSync(makeWorkspace());
			repository(ws, owner);
			baseConfig = fs.readFileSync(path.join(ws, '.git/config'), 'utf8');
			runner = wallRunner(ws, { image });
			await runner.run({ command: 'true', cwd: '', timeoutMs: 120_000, outputLimitBytes: 1000 });
			for (const allowed of [true, false])
				harness.set(allowed, approvedShell(ws, runner, { gitRepositoryPrograms: allowed }));
		});
		after(async () => {
			console.log(`    sandbox: ${counts.live} of ${counts.total} attacks ran their program with the setting on`);
			await runner?.disposeAsync();
			if (ws) fs.rmSync(ws, { recursive: true, force: true });
		});

		const run = async (command: string, cwd: string, allowed: boolean) =>
			resultText(await harness.get(allowed)!.run('run_command', { command, ...(cwd ? { cwd } : {}) }));

		it('generated plants × places × triggers leave no marker', async () => {
			await fc.assert(
				fc.asyncProperty(cases, async c =>
					oneAttack(ws, '/workspace', run, c, baseConfig, counts, 'sandbox', owner),
				),
				{ numRuns: Math.ceil(runs / 2), seed: SEED + 1 },
			);
		});
	});
});
