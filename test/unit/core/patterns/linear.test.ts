import * as assert from 'assert';
import picomatch from 'picomatch';
import { linearGlob } from '../../../../src/core/patterns/linearGlob';
import { checkPattern, linearRegex, UnsupportedPattern } from '../../../../src/core/patterns/linearRegex';

/** A small seeded generator, so a failure names a reproducible glob. */
function generator(seed: number) {
	return (n: number) => {
		seed = (seed * 1103515245 + 12345) % 2147483648;
		return seed % n;
	};
}

describe('linear-time patterns', () => {
	it('matches like picomatch (dot: true) on generated globs and paths, case-folded or not', function () {
		this.timeout(30_000);
		const rnd = generator(7);
		const atoms = [
			'a',
			'b',
			'.',
			'*',
			'?',
			'**',
			'[ab]',
			'[!a]',
			'{a,b}',
			'{1..3}',
			'+(a|b)',
			'@(a|.b)',
			'*(a)',
			'x',
		];
		const chars = ['a', 'b', '.', 'x', '/', '1', 'A'];
		let compared = 0;
		for (let g = 0; g < 600; g++) {
			const glob = Array.from({ length: 1 + rnd(3) }, () =>
				Array.from({ length: 1 + rnd(3) }, () => atoms[rnd(atoms.length)]).join(''),
			).join('/');
			// picomatch reads "?" right after an extglob's ")" as making it optional; Keel reads it as "one character".
			if (glob.includes(')?')) continue;
			const nocase = g % 2 === 0;
			const ours = linearGlob(glob, { nocase });
			const theirs = picomatch(glob, { dot: true, nocase });
			for (let p = 0; p < 20; p++) {
				const path = Array.from({ length: 1 + rnd(8) }, () => chars[rnd(chars.length)])
					.join('')
					.replace(/\/+/g, '/')
					.replace(/^\/|\/$/g, '');
				if (!path || /(^|\/)\.\.?(\/|$)/.test(path)) continue;
				compared++;
				assert.strictEqual(ours(path), theirs(path), `${glob} on ${path} (nocase ${nocase})`);
			}
		}
		assert.ok(compared > 5000);
	});

	it('a leading ! negates the glob; a negated extglob inside is refused with what to do instead', () => {
		assert.strictEqual(linearGlob('!src/**')('docs/a.md'), true);
		assert.strictEqual(linearGlob('!src/**')('src/a.ts'), false);
		assert.throws(() => linearGlob('!(src)/**'), /negated extglob "!\(…\)".*list what should match instead/);
	});

	it('refuses what only a backtracking engine can run, naming the construct', () => {
		const cases: Array<[string, RegExp]> = [
			['(a)\\1', /backreference/],
			['(?<n>a)\\k<n>', /named backreference/],
			['foo(?=bar)', /lookahead/],
			['foo(?!bar)', /lookahead/],
			['(?<=x)y', /lookbehind/],
			['(?<!x)y', /lookbehind/],
			['(?>a+)b', /atomic group/],
			['a++b', /possessive/],
			['((a{100}){100}){100}', /not a valid regular expression/],
			['(', /not a valid regular expression/],
		];
		for (const [source, message] of cases) {
			assert.throws(() => linearRegex(source), UnsupportedPattern);
			assert.match(checkPattern(source) ?? '', message, source);
		}
		// Escaped or inside a class, the same characters are literal.
		for (const literal of ['\\(?=x', '[(?=]x', 'a\\+\\+']) {
			assert.strictEqual(checkPattern(literal), undefined, literal);
		}
	});

	it('keeps JavaScript syntax: named groups, classes, flags', () => {
		const match = linearRegex('(?<file>[^:]+):(?<line>\\d+)').exec('src/a.ts:12: error');
		assert.deepStrictEqual({ ...match?.groups }, { file: 'src/a.ts', line: '12' });
		assert.ok(linearRegex('^error', { multiline: true }).test('ok\nerror here'));
		assert.ok(linearRegex('ERROR', { ignoreCase: true }).test('an error'));
		assert.strictEqual(
			linearRegex('a').replace('banana', () => 'o'),
			'bonono',
		);
	});
});
