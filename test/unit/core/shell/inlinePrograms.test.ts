// Inline programs: what awk and sed programs write, read and run, read from their text; the
// interpreters' program texts in every spelling make the line opaque.
import * as assert from 'assert';
import fc from 'fast-check';
import { awkEffects } from '../../../../src/core/shell/writers/awkProgram';
import { loadBashParser } from '../../../../src/core/shell/bashParser';
import { sedEffects } from '../../../../src/core/shell/writers/sedScript';
import { splitCommandLine } from '../../../../src/core/shell/shellRules';

describe('inline programs', () => {
	before(() => loadBashParser());

	it('awk: print redirections, getline and system, with literal names', () => {
		assert.deepStrictEqual(awkEffects('{print > "out"}').writes, ['out']);
		assert.deepStrictEqual(awkEffects('{printf("%s", $1) >> "a/b"}').writes, ['a/b']);
		assert.deepStrictEqual(awkEffects('BEGIN{while((getline l < "f")>0) print l}').reads, ['f']);
		assert.deepStrictEqual(awkEffects('BEGIN{system("touch x")}').commands, ['touch x']);
		assert.deepStrictEqual(awkEffects('BEGIN{"date" | getline d}').commands, ['date']);
		assert.deepStrictEqual(awkEffects('{print | "sort -r"}').commands, ['sort -r']);
		assert.ok(awkEffects('BEGIN{f="x"; print > f}').opaque);
		assert.ok(awkEffects('BEGIN{system(cmd)}').opaque);
		assert.ok(awkEffects('@load "x"').opaque);
	});

	it('awk: comparisons, regexes and everyday programs touch nothing', () => {
		for (const program of [
			'{print $1}',
			'$3 > 100',
			'NR>1{print $2}',
			'{ if ($1 > 2) print }',
			'/a|b/ {n++} END{print n}',
			'{print ($1 > $2)}',
			'{ x = a / b / c }',
			"-F: '{print $1}'",
		]) {
			const effects = awkEffects(program);
			assert.deepStrictEqual(
				[effects.writes, effects.reads, effects.commands, effects.opaque],
				[[], [], [], undefined],
				program,
			);
		}
	});

	it('awk: a generated print statement with a literal target always yields that target', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('print', 'printf "%s\\n",', 'print $1,'),
				fc.constantFrom('>', '>>'),
				fc.stringMatching(/^[a-z./]{1,12}$/),
				fc.constantFrom('{%s}', 'BEGIN{%s; exit}', 'NR==1 { if (1) %s }'),
				(verb, op, target, shape) => {
					const program = shape.replace('%s', `${verb} $0 ${op} "${target}"`);
					assert.deepStrictEqual(awkEffects(program).writes, [target], program);
				},
			),
			{ numRuns: 100, seed: 3 },
		);
	});

	it('sed: w, W, s///w, r, R, e', () => {
		assert.deepStrictEqual(sedEffects('w out').writes, ['out']);
		assert.deepStrictEqual(sedEffects('s/a/b/gw out; x').writes, ['out; x']);
		assert.deepStrictEqual(sedEffects('1{W a\n}').writes, ['a']);
		assert.deepStrictEqual(sedEffects('$r .env').reads, ['.env']);
		assert.deepStrictEqual(sedEffects('/x/R f').reads, ['f']);
		assert.deepStrictEqual(sedEffects('1e touch x').commands, ['touch x']);
		assert.ok(sedEffects('s/.*/x/e').opaque);
		assert.ok(sedEffects('e').opaque);
		assert.deepStrictEqual(sedEffects('s|a|b|w /dev/stdout').writes, []);
	});

	it('sed: everyday scripts touch nothing', () => {
		for (const script of [
			's/a/b/g',
			'1,5p',
			'/^#/d',
			's/\\//|/g',
			'y/abc/xyz/',
			'$!N;s/\\n/ /',
			':a;N;$!ba;s/\\n/,/g',
			'1i\\\nheader',
			's#w#r#g',
			'/start/,/end/{/x/d}',
		]) {
			const effects = sedEffects(script);
			assert.deepStrictEqual(
				[effects.writes, effects.reads, effects.commands, effects.opaque],
				[[], [], [], undefined],
				script,
			);
		}
	});

	it('interpreters: every spelling of an inline program, and a program on stdin, is opaque', () => {
		for (const line of [
			'python3 -c "x"',
			"python3 -c'x'",
			'python3 -Sc x',
			'python3 -I -W ignore -c x',
			'python3 - <<<x',
			'echo x | python3',
			'perl -e x',
			"perl -e'x'",
			'perl -lne x f',
			'node --eval=x',
			'node --eval x',
			'node -pe x',
			'node --print=x',
			'echo x | node',
			'ruby -e x',
			'php -r x',
			'lua -e x',
			'gdb -batch -ex x',
			'sqlite3 db "select 1"',
			'ed -s f',
			'vim -es f',
		]) {
			assert.ok(splitCommandLine(line).opaque, line);
		}
		for (const line of [
			'python3 x.py -c y',
			'python3 -m pytest -q',
			'node build.js',
			'perl script.pl',
			'python3 --version',
			'node -v',
			'jq .a f.json',
		]) {
			assert.strictEqual(splitCommandLine(line).opaque, undefined, line);
		}
	});

	it('awk and sed programs are judged like the rest of the line', () => {
		const awk = splitCommandLine(`awk '{print > ".git/hooks/x"} BEGIN{system("rm -f y")}' f`);
		assert.deepStrictEqual(
			awk.writes.map(w => w.path),
			['.git/hooks/x', 'y'],
		);
		assert.ok(awk.commands.some(c => c.text === 'rm -f y'));
		const sed = splitCommandLine(`sed -i -e 's/a/b/' -e 'r .env' f g`);
		assert.deepStrictEqual(
			sed.reads.map(r => r.path),
			['.env'],
		);
		assert.deepStrictEqual(
			sed.writes.map(w => w.path),
			['f', 'g'],
		);
	});
});
