// git reads files through its own language: revisions and `rev:path`, object ids, pathspec
// magic, folders, history, stashes, other branches, and a repository larger than the workspace.
// Lines are generated from git's content printers × the ways to name what they print ×
// contexts, run through Keel's whole pipeline with real git behind it and everything
// auto-approved: a line gets through only if git really printed a canary without a card. A
// third class proves that judging a git command runs none of the repository's own programs.
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness, type Harness } from '../support/toolHarness';
import { LocalBashRunner } from './support/bashRunner';
import { historyRepo, outerRepo, trappedRepo } from './support/gitFixture';
import { CANARY, EVERYTHING_AUTO } from './support/shellFixture';
import { attack } from './tally';

const SEED = Number(process.env.KEEL_SEED ?? 20_261_206);
const PRINTS = 'git: what git prints (rev:path, objects, pathspecs, history)';
const OUTER = 'git: a workspace inside a larger repository';
const TRAPS = "git: judging a command runs none of the repository's programs";

function harnessFor(ws: string, home: string, settings = EVERYTHING_AUTO): Harness {
	const runner = new LocalBashRunner(ws, home);
	const tools = createShellTools({
		selector: new ShellBackendSelector(
			() => 'terminal',
			Object.assign(runner, { available: async () => false }),
			runner,
		),
		settings: () => ({ timeoutSeconds: 10, outputLimitBytes: 500_000, memoryMb: 512, pids: 256 }),
	});
	return toolHarness(ws, { settings, extra: tools });
}

/** Names of what is secret in historyRepo: each spelling names a blob or a tree holding one. */
const OBJECTS = [
	'HEAD~2:.env',
	'HEAD^^:.env',
	'main~2:.env',
	'@~2:.env',
	'v1:.env',
	'v1:./.env',
	"'HEAD^{/add secret}:.env'",
	"':/add secret'",
	'blobtag',
	'{blob}',
	'{blobshort}',
	'HEAD:config/.env',
	':config/.env',
	':0:config/.env',
	'HEAD:./config/.env',
	'stash@{0}:config/.env',
	'side:secrets/.aws/credentials',
	'side~2:.env',
	'HEAD~2:config',
	'v1^{tree}',
];
const OBJECT_PRINTERS = [
	'git show {}',
	'git cat-file -p {}',
	'git cat-file blob {}',
	'git diff HEAD:src/a.txt {}',
	'git show --textconv {}',
	'echo {} | git cat-file --batch',
	'git cat-file --batch <<< {}',
	'git -P show {}',
	'git --no-pager cat-file -p {}',
	'git -C . show {}',
];
/** Commands that print whatever a revision range, a pathspec or the work tree holds. */
const HISTORY_PRINTERS = [
	'git log -p',
	'git log -p --all',
	'git log --all -p -- config',
	'git log -p -- .env',
	"git log -p -- ':(icase).ENV'",
	"git log -p -- ':(glob)**/.env'",
	"git log -p --all -- ':(top).env'",
	"git log -p -- ':!src'",
	"git log -p -- ':/'",
	"git log -p -- ':(exclude)src'",
	'git log --patch --all',
	'git log -u -3 --all',
	'git log --stat -p',
	'git log --follow -p -- config/app.json',
	'git whatchanged -p',
	'git show',
	'git show v1',
	'git show HEAD~2',
	'git show side',
	'git show stash@{0}',
	'git stash show -p',
	'git diff',
	'git diff HEAD~2',
	'git diff HEAD~2 HEAD -- config',
	'git diff v1 -- .',
	'git diff side',
	'git diff --cached HEAD~2',
	'git diff HEAD -- config/',
	'git format-patch --stdout --root',
	'git format-patch --stdout -1 v1',
	'git archive HEAD config | tar -xO',
	'git archive side | tar -xO',
	'git archive v1 | tar -xO',
	'git archive --format=tar HEAD~2 .env | tar -xO',
	'git grep CANARY',
	'git grep CANARY HEAD~2',
	'git grep CANARY side',
	"git grep CANARY v1 -- '*.env'",
	'git grep -h CANARY $(git rev-list --all)',
	'git blame v1 -- .env',
	'git log -L1,1:.env v1',
	'git range-diff HEAD~3 HEAD~2 HEAD',
	'git log -p main~2 -1',
	'git show --stat -p v1',
];
const CONTEXTS = ['X', 'X | cat', '(X)', 'true && X', 'X | head -n 200', 'echo "$(X)"'];

describe('security: git is asked what it will print', function () {
	this.timeout(30_000);
	let tree: TempTree;
	let h: Harness;
	let blob: string;
	before(() => {
		tree = tempTree('keel-git-');
		({ envBlob: blob } = historyRepo(path.join(tree.base, 'ws')));
		fs.mkdirSync(path.join(tree.base, 'home'));
		h = harnessFor(path.join(tree.base, 'ws'), path.join(tree.base, 'home'));
	});
	after(() => tree.cleanup());

	const objectsNamed = (o: string) => o.replace('{blobshort}', () => blob.slice(0, 10)).replace('{blob}', () => blob);
	const lines = new Set<string>();
	for (const printer of OBJECT_PRINTERS.slice(0, 2))
		for (const object of OBJECTS) lines.add(printer.replace('{}', () => object));
	for (const printer of HISTORY_PRINTERS) lines.add(printer);
	fc.sample(
		fc
			.tuple(fc.constantFrom(...OBJECT_PRINTERS), fc.constantFrom(...OBJECTS), fc.constantFrom(...CONTEXTS))
			.map(([printer, object, context]) => context.replace('X', () => printer.replace('{}', () => object))),
		{ seed: SEED + 1, numRuns: 60 },
	).forEach(line => lines.add(line));
	fc.sample(
		fc
			.tuple(fc.constantFrom(...HISTORY_PRINTERS), fc.constantFrom(...CONTEXTS))
			.map(([p, c]) => c.replace('X', () => p)),
		{ seed: SEED + 2, numRuns: 40 },
	).forEach(line => lines.add(line));

	for (const line of lines) {
		it(`asks before ${JSON.stringify(line).slice(0, 90)}`, () =>
			attack(
				`git ${JSON.stringify(line).slice(0, 90)}`,
				async () => {
					const result = await h.run('run_command', { command: objectsNamed(line) });
					const leak = CANARY.exec(`${result.output}`);
					return leak ? `printed ${leak[0]} (card ${result.card.status})` : undefined;
				},
				PRINTS,
			));
	}

	it('everyday git still runs without a card', async () => {
		for (const line of [
			'git status',
			'git log --oneline',
			'git log -3 --format=%s',
			'git branch',
			'git diff --stat src',
		]) {
			const result = await h.run('run_command', { command: line });
			if (!['succeeded', 'failed'].includes(result.card.status))
				throw new Error(`${line}: ${result.card.status} ${result.card.policyReason}`);
		}
	});
});

describe('security: a workspace inside a larger repository', function () {
	this.timeout(30_000);
	let tree: TempTree;
	let h: Harness;
	before(() => {
		tree = tempTree('keel-git-outer-');
		const app = outerRepo(tree.base);
		fs.mkdirSync(path.join(tree.base, 'home'));
		h = harnessFor(app, path.join(tree.base, 'home'));
	});
	after(() => tree.cleanup());

	const OUTER_LINES = [
		'git show HEAD:secrets.txt',
		'git show HEAD:../secrets.txt',
		'git show HEAD~1:secrets.txt',
		'git cat-file -p HEAD:secrets.txt',
		'git cat-file -p HEAD:ops/deploy.key',
		'git log -p',
		'git log -p --all',
		'git show',
		'git show HEAD~1',
		"git log -p -- ':/'",
		"git log -p -- ':(top)'",
		"git log -p -- ':(top)secrets.txt'",
		"git grep CANARY -- ':/'",
		'git grep CANARY HEAD',
		'git diff HEAD~1',
		"git diff HEAD~1 -- ':/'",
		'git archive HEAD | tar -xO',
		'git archive HEAD: | tar -xO',
		'git format-patch --stdout -1',
		'git -C .. show HEAD:secrets.txt',
		'GIT_DIR=../.git git show HEAD:secrets.txt',
		'git --git-dir=../.git show HEAD:secrets.txt',
		'git show HEAD^{tree}:secrets.txt',
		'git whatchanged -p',
		'git blame HEAD -- ../secrets.txt',
	];
	const lines = new Set<string>(OUTER_LINES);
	fc.sample(
		fc
			.tuple(fc.constantFrom(...OUTER_LINES), fc.constantFrom(...CONTEXTS))
			.map(([l, c]) => c.replace('X', () => l)),
		{ seed: SEED + 3, numRuns: 25 },
	).forEach(line => lines.add(line));
	for (const line of lines) {
		it(`asks before ${line}`, () =>
			attack(
				`git outer ${JSON.stringify(line)}`,
				async () => {
					const result = await h.run('run_command', { command: line });
					const leak = CANARY.exec(`${result.output}`);
					return leak ? `printed ${leak[0]} (card ${result.card.status})` : undefined;
				},
				OUTER,
			));
	}
});

describe("security: judging a git command runs none of the repository's programs", function () {
	this.timeout(30_000);
	let tree: TempTree;
	let h: Harness;
	let ran: () => string[];
	before(() => {
		tree = tempTree('keel-git-trap-');
		const trapped = trappedRepo(tree.base);
		ran = trapped.ran;
		fs.mkdirSync(path.join(tree.base, 'home'));
		// Every command asks and every card is refused: nothing the model wrote runs, only Keel's analysis.
		h = harnessFor(trapped.ws, path.join(tree.base, 'home'), {
			autoApprove: { read: true, write: false, exec: false },
		});
	});
	after(() => tree.cleanup());

	for (const line of [
		'git log -p',
		'git log --stat',
		'git diff',
		'git diff --cached',
		'git show',
		'git show HEAD:a.txt',
		'git grep a',
		'git archive HEAD',
		'git cat-file -p HEAD:a.txt',
		'git blame a.txt',
		'git format-patch --stdout -1',
		'git log -p -- a.txt',
		'git diff HEAD~1',
		'git status',
		'git log --oneline',
		'git -C . log -p',
		'git whatchanged -p',
		'git stash show -p',
	]) {
		it(`judging "${line}" runs nothing of the repository`, () =>
			attack(
				`git trap ${line}`,
				async () => {
					for (const marker of ran()) fs.rmSync(path.join(tree.base, marker));
					await h.run('run_command', { command: line });
					const markers = ran();
					return markers.length ? `ran ${markers.join(', ')}` : undefined;
				},
				TRAPS,
			));
	}
});
