// The other side of the guard: lines that touch only ordinary workspace files still run without a
// card. Generated from the same readers, writers, inline programs, spellings and contexts as the
// attacks, aimed at harmless targets (a `..` that stays inside, a quoted name with a space, awk and
// sed writing a workspace file, everyday git), through Keel's whole pipeline with real bash and git
// and everything auto-approved. A line that asks here is a cost users would notice: the test fails
// on it. Interpreters' inline programs (`python3 -c`, `node -e`) ask by design (Keel cannot read
// what they touch): they are counted and printed, not failed.
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { shellFixture, type ShellFixture } from './support/shellFixture';

const SEED = Number(process.env.KEEL_SEED ?? 20_261_128);
const RAN = ['succeeded', 'failed'];

const READERS = [
	'cat {}',
	'head -n 5 {}',
	'tail -n 5 {}',
	'sort {}',
	'grep -h a {}',
	'wc -l {}',
	"awk '{print}' {}",
	"sed -n '1p' {}",
];
const WRITERS = [
	'echo ok > {}',
	'touch {}',
	'cp src/a.txt {}',
	'tee {} < src/a.txt',
	'printf x >> {}',
	'sort -o {} src/a.txt',
];
const INLINE_WRITERS = [
	`awk '{print > "{}"}' src/a.txt`,
	`awk 'BEGIN{print "x" >> "{}"}'`,
	`sed -n 'w {}' src/a.txt`,
	`sed 's/a/b/w {}' src/a.txt`,
];
// Brace lists, `$(…)` and `git grep` are left out: the approval policy asks for them before any path is judged.
const CONTEXTS = ['X', 'true && X', '(X)', 'X | cat', '{ X; }'];
const READ_TARGETS = [
	'src/a.txt',
	'sub/../x',
	'sub/deep/../../src/b.txt',
	"'a b/../x'",
	'"sub/deep/file.txt"',
	"$'src/a.txt'",
];
const WRITE_TARGETS = ['out.txt', 'sub/../made.txt', 'sub/deep/new.txt', "'a b/new.txt'", 'src/../made2.txt'];
const GIT = [
	'git status',
	'git log --oneline',
	'git log -p -- src',
	'git show HEAD:src/a.txt',
	'git diff HEAD -- src',
	'git blame src/a.txt',
	'git cat-file -p HEAD:src/b.txt',
	'git ls-files',
];
/** Ask by design: what such a program touches cannot be read from the line. */
const INTERPRETERS = ["python3 -c 'print(1)'", "node -e 'console.log(1)'", "perl -e 'print 1'"];

const fill = (template: string, word: string) => template.replace('{}', () => word);

function everydayLines(): string[] {
	const lines = new Set<string>();
	for (const t of READ_TARGETS) lines.add(fill(READERS[0], t));
	for (const t of WRITE_TARGETS) lines.add(fill(WRITERS[0], t));
	GIT.forEach(line => lines.add(line));
	const mix = (programs: string[], targets: string[], offset: number, count: number) =>
		fc
			.sample(
				fc
					.tuple(fc.constantFrom(...programs), fc.constantFrom(...targets), fc.constantFrom(...CONTEXTS))
					.map(([p, t, c]) => c.replace('X', () => fill(p, t))),
				{ seed: SEED + offset, numRuns: count },
			)
			.forEach(line => lines.add(line));
	mix(READERS, READ_TARGETS, 1, 60);
	mix(WRITERS, WRITE_TARGETS, 2, 40);
	mix(
		INLINE_WRITERS,
		WRITE_TARGETS.filter(t => !t.startsWith("'")),
		3,
		30,
	);
	fc.sample(
		fc.tuple(fc.constantFrom(...GIT), fc.constantFrom(...CONTEXTS)).map(([g, c]) => c.replace('X', () => g)),
		{
			seed: SEED + 4,
			numRuns: 20,
		},
	).forEach(line => lines.add(line));
	return [...lines];
}

describe('security: everyday lines still run without a card', function () {
	this.timeout(60_000);
	let f: ShellFixture;
	const asked: string[] = [];
	before(() => {
		f = shellFixture();
		fs.mkdirSync(path.join(f.ws, 'a b'), { recursive: true });
	});
	after(() => {
		f.tree.cleanup();
		console.log(`\n  EVERYDAY: ${asked.length} of ${everydayLines().length} everyday lines asked`);
		asked.forEach(line => console.log(`    - ${line}`));
	});

	for (const line of everydayLines()) {
		it(`runs ${JSON.stringify(line).slice(0, 90)}`, async () => {
			const result = await f.h.run('run_command', { command: line });
			if (!RAN.includes(result.card.status)) {
				asked.push(line);
				throw new Error(`${line} asked (${result.card.status})`);
			}
		});
	}

	it('interpreters with an inline program ask (counted: the cost of failing closed)', async () => {
		let asking = 0;
		for (const line of INTERPRETERS) {
			const result = await f.h.run('run_command', { command: line });
			if (!RAN.includes(result.card.status)) asking++;
		}
		console.log(`\n  INLINE INTERPRETERS: ${asking} of ${INTERPRETERS.length} ask`);
	});
});
