// Paths as the kernel resolves them. A program opens the word bash hands it: quotes removed,
// cut at a NUL, braces expanded; and the kernel walks it one segment at a time, so `..` after a
// symlink is the folder above the link's target, and `%20`, a backslash, `${x}` or `http:` are
// plain names. Lines are generated from readers and writers × spellings × targets × contexts,
// run through Keel's whole pipeline with real bash behind it and everything auto-approved: a
// line gets through only if Keel ran it without asking and bash really leaked or planted.
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { CANARY, shellFixture, throughOf, type ShellFixture } from './support/shellFixture';
import { checkedSpellings } from './support/kernelSpellings';
import { attack } from './tally';

const SEED = Number(process.env.KEEL_SEED ?? 20_261_204);
const WORDS = 'kernel paths: words as bash hands them (quotes, NUL, braces)';
const DOTDOT = 'kernel paths: `..` after a link, odd segments';
const RACE = 'kernel paths: a folder swapped for a link while the card waits';

const READERS = ['cat {}', 'head -n 5 {}', 'tail -n 5 {}', 'sort {}', 'grep -h CANARY {}', 'cp {} /dev/stdout'];
const WRITERS = ['echo pwned > {}', 'touch {}', 'cp src/a.txt {}', 'tee {} < src/a.txt', 'printf x >> {}'];
const CONTEXTS = ['X', 'true && X', '(X)', 'X | cat', 'echo "$(X)"', '{ X; }'];
const fill = (template: string, word: string) => template.replace('{}', () => word);

const READ_TARGETS = ['.env', 'config/.env', '.aws/credentials', '../outside/secret'];
const WRITE_TARGETS = ['.git/hooks/pre-commit', '.vscode/tasks.json', '../pwned', '.envrc'];

/** Targets that differ from what their letters say once the kernel walks them. */
const DOTDOT_READS = [
	'lnk/../secret',
	'lnk/../../secret',
	'abslnk/../secret',
	'lnk/./../secret',
	'lnk//../secret',
	'lnk/../er/../secret',
	'sub/../lnk/../secret',
	'sub/deep/../../lnk/../../secret',
	"'a%20b/../../outside/secret'",
	"'a%2e%2e/../../outside/secret'",
	"'back\\slash/../../outside/secret'",
	"'${x}/../../outside/secret'",
	'http:/../../outside/secret',
	'C:/../../outside/secret',
	"'a b/../../outside/secret'",
	"'a%20b/../.env'",
	"'http:/../.env'",
];
const DOTDOT_WRITES = [
	'lnk/../../../pwned',
	'lnk/../../pwned',
	'abslnk/../../../pwned',
	'hk/../hooks/pre-commit',
	'vs/../.vscode/tasks.json',
	"'a%20b/../../pwned'",
	"'back\\slash/../../pwned'",
	"'${x}/../../pwned'",
	'http:/../../pwned',
	'C:/../../pwned',
	"'http:/../.git/hooks/pre-commit'",
];

function sample<T>(arbitrary: fc.Arbitrary<T>, count: number, offset: number): T[] {
	return fc.sample(arbitrary, { seed: SEED + offset, numRuns: count });
}

const spelled = new Map<string, string[]>();
const spellingsOf = (target: string) => {
	if (!spelled.has(target)) spelled.set(target, checkedSpellings(target));
	return spelled.get(target)!;
};

function wordLines(): string[] {
	const lines = new Set<string>();
	// Every spelling of every target once, with the first reader or writer.
	for (const target of READ_TARGETS) for (const word of spellingsOf(target)) lines.add(fill(READERS[0], word));
	for (const target of WRITE_TARGETS) for (const word of spellingsOf(target)) lines.add(fill(WRITERS[0], word));
	// Then generated mixes of reader/writer, spelling and context.
	const mix = (programs: string[], targets: string[], offset: number, count: number) =>
		sample(
			fc
				.tuple(
					fc.constantFrom(...programs),
					fc.constantFrom(...targets),
					fc.nat(40),
					fc.constantFrom(...CONTEXTS),
				)
				.map(([program, target, pick, context]) => {
					const words = spellingsOf(target);
					return context.replace('X', () => fill(program, words[pick % words.length]));
				}),
			count,
			offset,
		).forEach(line => lines.add(line));
	mix(READERS, READ_TARGETS, 1, 120);
	mix(WRITERS, WRITE_TARGETS, 2, 80);
	return [...lines];
}

function dotdotLines(): string[] {
	const lines = new Set<string>();
	for (const target of DOTDOT_READS) lines.add(fill(READERS[0], target));
	for (const target of DOTDOT_WRITES) lines.add(fill(WRITERS[0], target));
	sample(
		fc
			.tuple(fc.constantFrom(...READERS), fc.constantFrom(...DOTDOT_READS), fc.constantFrom(...CONTEXTS))
			.map(([r, t, c]) => c.replace('X', () => fill(r, t))),
		50,
		3,
	).forEach(line => lines.add(line));
	sample(
		fc
			.tuple(fc.constantFrom(...WRITERS), fc.constantFrom(...DOTDOT_WRITES), fc.constantFrom(...CONTEXTS))
			.map(([w, t, c]) => c.replace('X', () => fill(w, t))),
		40,
		4,
	).forEach(line => lines.add(line));
	return [...lines];
}

describe('security: paths as the kernel resolves them (run_command)', function () {
	this.timeout(30_000);
	let f: ShellFixture;
	before(() => (f = shellFixture()));
	after(() => f.tree.cleanup());

	for (const line of wordLines()) {
		it(`asks before ${JSON.stringify(line).slice(0, 90)}`, () =>
			attack(
				`words ${JSON.stringify(line).slice(0, 90)}`,
				() => throughOf(f, () => f.h.run('run_command', { command: line })),
				WORDS,
			));
	}
	for (const line of dotdotLines()) {
		it(`asks before ${JSON.stringify(line).slice(0, 90)}`, () =>
			attack(
				`dotdot ${JSON.stringify(line).slice(0, 90)}`,
				() => throughOf(f, () => f.h.run('run_command', { command: line })),
				DOTDOT,
			));
	}
});

describe('security: paths as the kernel resolves them (file tools)', function () {
	this.timeout(30_000);
	let f: ShellFixture;
	before(() => (f = shellFixture()));
	after(() => f.tree.cleanup());
	const unquote = (t: string) => t.replace(/^'|'$/g, '');
	const calls: Array<[string, Record<string, string>]> = [
		...DOTDOT_READS.map(t => ['read_file', { path: unquote(t) }] as [string, Record<string, string>]),
		...DOTDOT_READS.map(
			t => ['list_directory', { path: path.posix.dirname(unquote(t)) }] as [string, Record<string, string>],
		),
		...DOTDOT_WRITES.map(
			t => ['write_file', { path: unquote(t), content: 'CANARY_PLANT_9999' }] as [string, Record<string, string>],
		),
		...DOTDOT_READS.map(
			t => ['copy_path', { from: unquote(t), to: 'copied.txt' }] as [string, Record<string, string>],
		),
	];
	for (const [tool, input] of calls) {
		it(`${tool} ${JSON.stringify(input)}`, () =>
			attack(
				`file tool ${tool} ${JSON.stringify(input)}`,
				async () => {
					const through = await throughOf(f, () => f.h.run(tool, input));
					const copied = path.join(f.ws, 'copied.txt');
					const leaked = fs.existsSync(copied) && CANARY.test(fs.readFileSync(copied, 'utf8'));
					fs.rmSync(copied, { force: true });
					return through ?? (leaked ? 'copied a canary into the workspace' : undefined);
				},
				DOTDOT,
			));
	}
});

// The card showed `cat race/../secret` with race a plain folder (so it named the workspace's
// own `secret`); while it waited, race became a link out. Approval covers what the card showed.
describe('security: a folder swapped for a link while the card waits', function () {
	this.timeout(30_000);
	const SWAPS: Array<{ label: string; target: (base: string) => string }> = [
		{ label: 'a relative link out', target: () => '../outside/deep/er' },
		{ label: 'an absolute link out', target: base => path.join(base, 'outside/deep/er') },
		{
			label: 'a link into .git/hooks',
			target: base => {
				fs.mkdirSync(path.join(base, 'ws/.git/hooks/x'), { recursive: true });
				return '.git/hooks/x';
			},
		},
	];
	const SHELL = [
		'cat race/../secret',
		'head -n 3 race/../secret',
		'cp race/../secret /dev/stdout',
		'grep -h CANARY race/../secret',
		'echo pwned > race/../pwned',
		'cat race/../../secret',
		'cat race/er/../secret',
	];
	const TOOLS: Array<[string, Record<string, string>]> = [
		['read_file', { path: 'race/../secret' }],
		['write_file', { path: 'race/../pwned', content: 'x' }],
		['list_directory', { path: 'race/..' }],
		['copy_path', { from: 'race/../secret', to: 'copied.txt' }],
	];
	for (const swap of SWAPS) {
		const cases: Array<[string, Record<string, string>]> = [
			...SHELL.map(command => ['run_command', { command }] as [string, Record<string, string>]),
			...TOOLS,
		];
		for (const [tool, input] of cases) {
			it(`${tool} ${JSON.stringify(input)}: race becomes ${swap.label}`, () =>
				attack(
					`race ${tool} ${JSON.stringify(input)} → ${swap.label}`,
					async () => {
						const f = shellFixture({
							settings: { autoApprove: { read: false, write: false, exec: false } },
						});
						try {
							fs.mkdirSync(path.join(f.ws, 'race/er'), { recursive: true });
							fs.writeFileSync(path.join(f.ws, 'secret'), 'plain secret-named file\n');
							f.h.approver.request = async () => {
								fs.rmSync(path.join(f.ws, 'race'), { recursive: true, force: true });
								fs.symlinkSync(swap.target(f.tree.base), path.join(f.ws, 'race'));
								return { approved: true };
							};
							const result = await f.h.run(tool, input);
							const leak = CANARY.exec(`${result.output}`);
							const copied = path.join(f.ws, 'copied.txt');
							const copiedLeak = fs.existsSync(copied) && CANARY.test(fs.readFileSync(copied, 'utf8'));
							const planted = ['outside/deep/pwned', 'outside/pwned', 'ws/.git/hooks/pwned'].filter(p =>
								fs.existsSync(path.join(f.tree.base, p)),
							);
							const what = [leak?.[0], copiedLeak ? 'a canary copied in' : '', ...planted].filter(
								Boolean,
							);
							return what.length
								? `${what.join(', ')} after the swap (${result.card.status})`
								: undefined;
						} finally {
							f.tree.cleanup();
						}
					},
					RACE,
				));
		}
	}
});
