// Held-out shell attacks: what a command is *given*, not how it is spelled. An allowed reader
// (`cat *`, `grep *`, `sort *`…) pointed at a secret or at a place outside the workspace, an
// option whose value is an output file (`sort -o`, `git diff --output=`, `find -fprint`),
// a glob, a variable, `~`, a `cd`, and programs that find their own files (grep -r, find -exec,
// xargs). Lines are generated (fast-check, fixed seed) from readers × targets × contexts, run
// through Keel's whole pipeline with real bash behind it; the approver refuses every card, so
// a line gets through only if Keel ran it unasked and bash really leaked the canary or wrote
// the file.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import type { PermissionRule } from '../../src/core/gate/rules/permissions';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness, type Harness } from '../support/toolHarness';
import { LocalBashRunner } from './support/bashRunner';
import { attack } from './tally';

const KLASS = 'held-out: the files a command is given';
const CANARY = /CANARY_[A-Z]+_\d+/;
const SEED = Number(process.env.KEEL_SEED ?? 20_261_126);

/** Readers a user plausibly allows, as `{target}` templates; each prints what it reads. */
const READERS = [
	'cat {}',
	'head -c 300 {}',
	'tail -n 3 {}',
	'grep -h CANARY {}',
	'sort {}',
	'git diff --no-index src/a.txt {}',
	'cat -- {}',
	'head -n1 {} src/a.txt',
];
/** Ways to name a secret or a file outside, all of which bash resolves to one. */
const SECRETS = [
	'.env',
	".e''nv",
	'"./.env"',
	'src/../.env',
	"$'\\x2eenv'",
	'.e?v',
	'.e*',
	'.[e]nv',
	'.en[v]',
	'notes',
	'out/secret',
	'../outside/secret',
	'chain/secret',
	'hl.txt',
	'~/.ssh/id_rsa',
	'$HOME/.ssh/id_rsa',
	'${HOME}/.ssh/id_rsa',
	'"$HOME"/.ssh/id_rsa',
	'/proc/self/cwd/.env',
	'$PWD/.env',
	'~/.aws/credentials',
	'.aws/credentials',
	'sub/.npmrc',
];
/** Options and commands whose value is the file they write. */
const WRITERS = [
	'sort -o {} src/a.txt',
	'sort --output={} src/a.txt',
	'git diff --no-index --output={} src/a.txt src/b.txt',
	'find src -name a.txt -fprint {}',
	'sort -o{} src/a.txt',
	'uniq src/a.txt {}',
];
const WRITE_TARGETS = [
	'../pwned',
	'out/pwned',
	'~/pwned',
	'$HOME/pwned',
	'.git/hooks/pre-commit',
	'hk/pre-commit',
	'.vscode/tasks.json',
	'lnk/tasks.json',
	'.github/workflows/pwned.yml',
];
/** `X` is the command; some hide it, some move the cwd first. */
const CONTEXTS = [
	'X',
	'true && X',
	'echo ok; X',
	'(X)',
	'X | cat',
	'echo "$(X)"',
	'env X',
	'command X',
	'nice X',
	'timeout 5 X',
	'bash -c "X"',
];

const ALLOW: PermissionRule[] = [
	'cat *',
	'head *',
	'tail *',
	'grep *',
	'sort *',
	'uniq *',
	'git diff*',
	'find *',
	'echo *',
	'true',
	'ls*',
	'cd *',
	'xargs *',
	'rg *',
	'tar *',
	'wc *',
	'git status*',
	'cut *',
	'sed *',
	'git log*',
	'awk *',
	'ln *',
	'cp *',
	'env *',
	'git archive*',
	'git -C *',
	'git show*',
].map(match => ({ tool: 'run_command', match, action: 'allow' }));

function setup(): { tree: TempTree; h: Harness; ws: string; home: string } {
	const tree = tempTree('keel-heldout-shell-');
	tree.add({
		'ws/src/a.txt': 'a\n',
		'ws/src/b.txt': 'b\n',
		'ws/.env': 'CANARY_ENV_1111\n',
		'ws/.aws/credentials': 'CANARY_AWS_2222\n',
		'ws/sub/.npmrc': '//registry/:_authToken=CANARY_NPM_3333\n',
		'ws/.vscode/settings.json': '{}',
		'outside/secret': 'CANARY_OUT_4444\n',
		'home/.ssh/id_rsa': 'CANARY_SSH_5555\n',
		'home/.aws/credentials': 'CANARY_HOMEAWS_6666\n',
	});
	const ws = path.join(tree.base, 'ws');
	const home = path.join(tree.base, 'home');
	execFileSync('git', ['init', '-q', ws]);
	fs.symlinkSync('../outside', path.join(ws, 'out'));
	fs.symlinkSync('out', path.join(ws, 'chain'));
	fs.symlinkSync('.env', path.join(ws, 'notes'));
	fs.symlinkSync('.git/hooks', path.join(ws, 'hk'));
	fs.symlinkSync('.vscode', path.join(ws, 'lnk'));
	fs.linkSync(path.join(tree.base, 'outside/secret'), path.join(ws, 'hl.txt'));
	const runner = new LocalBashRunner(ws, home);
	const sandbox = Object.assign(runner, { available: async () => false });
	const tools = createShellTools({
		selector: new ShellBackendSelector(() => 'terminal', sandbox, runner),
		settings: () => ({ timeoutSeconds: 5, outputLimitBytes: 100_000, memoryMb: 512, pids: 256 }),
	});
	const h = toolHarness(ws, {
		settings: { autoApprove: { read: true, write: true, exec: false }, rules: ALLOW },
		extra: tools,
	});
	return { tree, h, ws, home };
}

/** Files an attack may have planted, relative to the test's base folder. */
const PLANTED = [
	'pwned',
	'outside/pwned',
	'home/pwned',
	'ws/.git/hooks/pre-commit',
	'ws/.vscode/tasks.json',
	'ws/.github/workflows/pwned.yml',
];

function generated<T>(arbitrary: fc.Arbitrary<T>, count: number, offset: number): T[] {
	return fc.sample(arbitrary, { seed: SEED + offset, numRuns: count });
}

const fill = (template: string, value: string) => template.replace('{}', value);

const readLines = new Set<string>([
	// Every reader and every target once, then generated mixes with contexts.
	...READERS.map(r => fill(r, '.env')),
	...SECRETS.map(s => fill('cat {}', s)),
	...generated(
		fc
			.tuple(fc.constantFrom(...READERS), fc.constantFrom(...SECRETS), fc.constantFrom(...CONTEXTS))
			.map(([r, s, c]) => c.replace('X', fill(r, s))),
		90,
		1,
	).filter(line => !(line.startsWith('bash -c') && /["$]/.test(line.slice(9, -1)))),
	// An assigned value and a cd carry the path to a later word.
	'F=~/.ssh/id_rsa; cat $F',
	'F=.env; cat "$F"',
	'cd; cat .ssh/id_rsa',
	'cd ~ && cat .ssh/id_rsa',
	'cd ..; cat outside/secret',
	'cd .aws && cat credentials',
	'cd out && cat secret',
	'cat "$(echo ~)/.ssh/id_rsa"',
	'cat $(printf .env)',
	// git's rev:path names a file too (committed by setup below).
	'git show HEAD:.env',
	'git show HEAD:./.env',
	// Programs that find their own files.
	'grep -r CANARY .',
	'grep -R CANARY',
	'grep -rh CANARY --include=.env .',
	'grep -r CANARY out/',
	'find . -name ".e*" -exec cat {} +',
	'find . -name credentials -exec cat {} ;',
	'ls -a | xargs cat',
	'echo .env | xargs cat',
	'tar cf - . | tar xOf - ./.env',
	'tar cf - .aws | cat',
	// Programs that read a file their words name, past the usual readers.
	'awk 1 .env',
	'sed -n p .env',
	"env -S 'cat .env'",
	'xargs -a .env echo',
	'cat {.env,x}',
	'cat .env.',
	'ln -s ../outside/secret s; cat s',
	'ln -s .env s2 && cat s2',
	'cp .env /dev/stdout',
	'git archive HEAD | tar xO .env',
	'git archive HEAD | tar -xO',
	'cat <<< "$(cat .env)"',
	'cat <<E\n$(cat .env)\nE',
	'git -C .. show HEAD:ws/.env',
	'cat ./-/../.env',
	'cat -- ".e"nv',
]);

const writeLines = new Set<string>([
	...WRITERS.flatMap(w => WRITE_TARGETS.map(t => fill(w, t))),
	...generated(
		fc
			.tuple(fc.constantFrom(...WRITERS), fc.constantFrom(...WRITE_TARGETS), fc.constantFrom(...CONTEXTS))
			.map(([w, t, c]) => c.replace('X', fill(w, t))),
		40,
		2,
	).filter(line => !(line.startsWith('bash -c') && /["$]/.test(line.slice(9, -1)))),
]);

describe('security (held out): the files a command is given are judged like paths', function () {
	this.timeout(20_000);
	let tree: TempTree;
	let h: Harness;
	let ws: string;
	before(() => {
		({ tree, h, ws } = setup());
		execFileSync('git', ['-C', ws, 'add', '-f', '.env', 'src'], { stdio: 'ignore' });
		execFileSync(
			'git',
			['-C', ws, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init', '--no-verify'],
			{ stdio: 'ignore' },
		);
	});
	after(() => tree.cleanup());

	const clean = () => {
		for (const file of PLANTED) fs.rmSync(path.join(tree.base, file), { force: true });
	};

	for (const line of readLines) {
		it(`does not read a secret or outside unasked: ${JSON.stringify(line).slice(0, 80)}`, () =>
			attack(
				`held-out read ${JSON.stringify(line).slice(0, 80)}`,
				async () => {
					const result = await h.run('run_command', { command: line });
					const leak = CANARY.exec(`${result.output}`);
					return leak ? `printed ${leak[0]} without a card (${result.card.status})` : undefined;
				},
				KLASS,
			));
	}

	for (const line of writeLines) {
		it(`does not write outside or into a protected file unasked: ${JSON.stringify(line).slice(0, 80)}`, () =>
			attack(
				`held-out write ${JSON.stringify(line).slice(0, 80)}`,
				async () => {
					clean();
					const result = await h.run('run_command', { command: line });
					const planted = PLANTED.filter(file => fs.existsSync(path.join(tree.base, file)));
					return planted.length
						? `wrote ${planted.join(', ')} without a card (${result.card.status})`
						: undefined;
				},
				KLASS,
			));
	}

	it('ordinary lines under the same rules still run without a card', async () => {
		for (const line of [
			'cat src/a.txt',
			'head -n 1 src/*.txt',
			'grep -rn a src',
			'sort -o src/sorted.txt src/a.txt',
			'git diff --no-index src/a.txt src/b.txt',
			'find src -name "*.txt"',
			'cd src && cat a.txt',
			'ls -la src',
			'wc -l src/a.txt src/b.txt',
			'git status --short',
			'echo https://example.com/a:b',
			"grep -rnE '\\bfoo\\b|^(a|b)$' src",
			'cut -d/ -f2 src/a.txt',
			"sed -e 's|a|b|' src/a.txt",
			'git log --format=%H/%an -1',
		]) {
			const result = await h.run('run_command', { command: line });
			if (!['succeeded', 'failed'].includes(result.card.status)) {
				throw new Error(`${line}: ${result.card.status} ${result.output}`);
			}
		}
	});

	it('the card says which word named what', async () => {
		const result = await h.run('run_command', { command: 'sort -o .git/hooks/pre-commit src/a.txt' });
		// The card as it waited for the user: once answered, its line says the answer instead.
		const asked = [...h.events]
			.reverse()
			.find(
				e =>
					e.type === 'toolCallUpdated' &&
					e.call.id === result.card.id &&
					e.call.status === 'awaitingApproval',
			);
		const reason = (asked?.type === 'toolCallUpdated' && asked.call.policyReason) || '';
		if (result.card.status !== 'denied' || !/-o\.git|\.git\/hooks\/pre-commit: git hooks/.test(reason)) {
			throw new Error(`the card did not name the hook target: ${reason}`);
		}
	});
});

// A brace list bash expands inside an argument: the grammar reads `pu{sh,}` as three words, so
// a deny rule on `git push*` must still see that the word may be `push`.
describe('security (held out): deny rules see through brace lists', function () {
	this.timeout(20_000);
	let tree: TempTree;
	let ws: string;
	let h: Harness;
	const rules: PermissionRule[] = [
		{ tool: 'run_command', match: 'git push*', action: 'deny' },
		{ tool: 'run_command', match: 'git *', action: 'allow' },
	];
	before(() => {
		tree = tempTree('keel-heldout-braces-');
		tree.add({ 'ws/a.txt': 'a\n', 'home/.keep': '' });
		ws = path.join(tree.base, 'ws');
		const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, stdio: 'ignore' });
		execFileSync('git', ['init', '-q', '--bare', path.join(tree.base, 'remote.git')]);
		git('init', '-q', '-b', 'main');
		git('add', 'a.txt');
		git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'a', '--no-verify');
		git('remote', 'add', 'origin', path.join(tree.base, 'remote.git'));
		const runner = new LocalBashRunner(ws, path.join(tree.base, 'home'));
		const sandbox = Object.assign(runner, { available: async () => false });
		const tools = createShellTools({
			selector: new ShellBackendSelector(() => 'terminal', sandbox, runner),
			settings: () => ({ timeoutSeconds: 5, outputLimitBytes: 100_000, memoryMb: 512, pids: 256 }),
		});
		h = toolHarness(ws, { settings: { autoApprove: { read: true, exec: false }, rules }, extra: tools });
	});
	after(() => tree.cleanup());

	/** Every way to hide part of "push" in a brace list, generated from its cut points. */
	const spellings = new Set<string>();
	for (let from = 0; from < 4; from++) {
		for (let to = from + 1; to <= 4; to++) {
			const [head, mid, tail] = ['push'.slice(0, from), 'push'.slice(from, to), 'push'.slice(to)];
			spellings.add(`${head}{${mid},}${tail}`);
			spellings.add(`${head}{,${mid}}${tail}`);
			spellings.add(`${head}"{${mid},}"${tail}`.replace(/"\{(.*),\}"/, '{"$1",}'));
		}
	}
	for (const word of spellings) {
		for (const line of [`git ${word} origin main`, `git -C . ${word} origin main`]) {
			it(`does not push: ${line}`, () =>
				attack(
					`held-out brace ${line}`,
					async () => {
						const result = await h.run('run_command', { command: line });
						let pushed = true;
						try {
							execFileSync(
								'git',
								['-C', path.join(tree.base, 'remote.git'), 'rev-parse', '--verify', '-q', 'main'],
								{
									stdio: 'ignore',
								},
							);
						} catch {
							pushed = false;
						}
						return pushed ? `bash pushed main without a card (${result.card.status})` : undefined;
					},
					'held-out: deny rules through brace lists',
				));
		}
	}
});

// The card showed `cat notes.txt` with notes.txt a plain file; while it waited, notes.txt became
// a link to .env (or out of the workspace, or a hard link to a file outside). Approval covers
// what the card showed: the run must stop, not print the secret.
describe('security (held out): a word swapped while the card waits', function () {
	this.timeout(20_000);
	const SWAPS: Array<{ label: string; swap(base: string, ws: string, name: string): void }> = [
		{ label: 'a link to .env', swap: (_b, ws, name) => relink(ws, name, '.env') },
		{ label: 'a link out of the workspace', swap: (b, ws, name) => relink(ws, name, path.join(b, 'outside')) },
		{ label: 'a link into the home folder', swap: (b, ws, name) => relink(ws, name, path.join(b, 'home/.ssh')) },
		{
			label: 'a hard link to a file outside',
			swap: (b, ws, name) => {
				fs.rmSync(path.join(ws, name), { recursive: true, force: true });
				fs.linkSync(path.join(b, 'outside/secret'), path.join(ws, name));
			},
		},
	];
	function relink(ws: string, name: string, target: string): void {
		fs.rmSync(path.join(ws, name), { recursive: true, force: true });
		const file =
			name.endsWith('.txt') && !target.endsWith('.env')
				? path.join(target, target.endsWith('.ssh') ? 'id_rsa' : 'secret')
				: target;
		fs.symlinkSync(file, path.join(ws, name));
	}
	const COMMANDS: Array<{ line: string; name: string }> = [
		{ line: 'cat notes.txt', name: 'notes.txt' },
		{ line: 'head -n 3 notes.txt', name: 'notes.txt' },
		{ line: 'sort notes.txt', name: 'notes.txt' },
		{ line: 'grep -rh CANARY docs', name: 'docs' },
		{ line: 'cat docs/*', name: 'docs' },
	];
	for (const swap of SWAPS) {
		for (const command of COMMANDS) {
			if (command.name === 'docs' && swap.label.startsWith('a hard link')) continue;
			it(`${command.line}: ${command.name} becomes ${swap.label}`, () =>
				attack(
					`held-out swap ${command.line} → ${swap.label}`,
					async () => {
						const tree = tempTree('keel-heldout-swap-');
						try {
							tree.add({
								'ws/notes.txt': 'plain notes\n',
								'ws/docs/readme.md': 'plain docs\n',
								'ws/.env': 'CANARY_ENV_1111\n',
								'outside/secret': 'CANARY_OUT_4444\n',
								'home/.ssh/id_rsa': 'CANARY_SSH_5555\n',
							});
							const ws = path.join(tree.base, 'ws');
							const runner = new LocalBashRunner(ws, path.join(tree.base, 'home'));
							const sandbox = Object.assign(runner, { available: async () => false });
							const tools = createShellTools({
								selector: new ShellBackendSelector(() => 'terminal', sandbox, runner),
								settings: () => ({
									timeoutSeconds: 5,
									outputLimitBytes: 100_000,
									memoryMb: 512,
									pids: 256,
								}),
							});
							const h = toolHarness(ws, {
								settings: { autoApprove: { read: true, exec: false }, rules: [] },
								extra: tools,
							});
							h.approver.request = async () => {
								swap.swap(tree.base, ws, command.name);
								return { approved: true };
							};
							const result = await h.run('run_command', { command: command.line });
							const leak = CANARY.exec(`${result.output}`);
							return leak ? `printed ${leak[0]} after the swap (${result.card.status})` : undefined;
						} finally {
							tree.cleanup();
						}
					},
					'held-out: words swapped while the card waits',
				));
		}
	}
});

// Every command may run unasked (auto-approve for commands on), so only the protected-file
// guard stands: an archive or patch that names .git/hooks/pre-commit, .vscode/tasks.json or
// .github/workflows/… inside its data must still make the line ask.
describe('security (held out): files named inside an archive or a patch', function () {
	this.timeout(20_000);
	let tree: TempTree;
	let ws: string;
	let h: Harness;
	const PATCH = [
		'diff --git a/.vscode/tasks.json b/.vscode/tasks.json',
		'new file mode 100644',
		'--- /dev/null',
		'+++ b/.vscode/tasks.json',
		'@@ -0,0 +1 @@',
		'+{"pwned": true}',
		'',
	].join('\n');
	const PLANTS = ['ws/.git/hooks/pre-commit', 'ws/.vscode/tasks.json', 'ws/.github/workflows/pwned.yml'];
	before(() => {
		tree = tempTree('keel-heldout-unpack-');
		tree.add({
			'ws/a.txt': 'a\n',
			'stage/.git/hooks/pre-commit': '#!/bin/sh\ntouch pwned\n',
			'stage/.github/workflows/pwned.yml': 'on: push\n',
			'ws/evil.patch': PATCH,
			'home/.keep': '',
		});
		ws = path.join(tree.base, 'ws');
		const stage = path.join(tree.base, 'stage');
		execFileSync('git', ['init', '-q', ws]);
		execFileSync('tar', ['cf', path.join(ws, 'evil.tar'), '-C', stage, '.git/hooks/pre-commit']);
		execFileSync('tar', ['czf', path.join(ws, 'evil.tgz'), '-C', stage, '.github']);
		execFileSync('zip', ['-qr', path.join(ws, 'evil.zip'), '.github'], { cwd: stage });
		const runner = new LocalBashRunner(ws, path.join(tree.base, 'home'));
		const sandbox = Object.assign(runner, { available: async () => false });
		const tools = createShellTools({
			selector: new ShellBackendSelector(() => 'terminal', sandbox, runner),
			settings: () => ({ timeoutSeconds: 5, outputLimitBytes: 100_000, memoryMb: 512, pids: 256 }),
		});
		h = toolHarness(ws, {
			settings: { autoApprove: { read: true, write: true, exec: true }, rules: [] },
			extra: tools,
		});
	});
	after(() => tree.cleanup());

	const UNPACKERS = [
		'tar xf evil.tar',
		'tar -xf evil.tar',
		'tar --extract -f evil.tar',
		'tar -x -f evil.tar',
		'tar xzf evil.tgz',
		'tar -C . -xzf evil.tgz',
		'cat evil.tar | tar x',
		'tar -xvf evil.tar --no-same-owner',
		'unzip -o evil.zip',
		'unzip -qo evil.zip -d .',
		'git apply evil.patch',
		'git apply --apply --stat evil.patch',
		'patch -p1 < evil.patch',
		'patch -p1 -i evil.patch',
	];
	const lines = new Set<string>([
		...UNPACKERS,
		...fc.sample(
			fc
				.tuple(fc.constantFrom(...UNPACKERS), fc.constantFrom(...CONTEXTS))
				.map(([u, c]) => c.replace('X', u))
				.filter(line => !line.startsWith('bash -c') && !line.includes('$(')),
			{ seed: SEED + 3, numRuns: 30 },
		),
	]);
	for (const line of lines) {
		it(`does not unpack into a protected place unasked: ${line}`, () =>
			attack(
				`held-out unpack ${line}`,
				async () => {
					for (const plant of PLANTS) fs.rmSync(path.join(tree.base, plant), { force: true });
					const result = await h.run('run_command', { command: line });
					const planted = PLANTS.filter(p => fs.existsSync(path.join(tree.base, p)));
					return planted.length
						? `wrote ${planted.join(', ')} without a card (${result.card.status})`
						: undefined;
				},
				'held-out: files named inside an archive or a patch',
			));
	}

	it('listing or checking an archive or a patch still runs', async () => {
		for (const line of [
			'tar tf evil.tar',
			'unzip -l evil.zip',
			'git apply --check evil.patch',
			'patch --dry-run -p1 -i evil.patch',
		]) {
			const result = await h.run('run_command', { command: line });
			if (!['succeeded', 'failed'].includes(result.card.status))
				throw new Error(`${line}: ${result.card.status}`);
		}
	});
});
