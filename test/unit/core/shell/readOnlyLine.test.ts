import * as assert from 'assert';
import fc from 'fast-check';
import { loadBashParser } from '../../../../src/core/shell/bashParser';
import { provesReadOnly } from '../../../../src/core/shell/readOnlyLine';

/** Commands that only read, and ones that write, run others, or hide what runs. */
const READS = ['cat a.txt', 'head -5 src/x.ts', 'grep -rn "a b" src', 'ls -la', 'wc -l "$F"', 'diff a b'];
const NOT = [
	'rm a',
	'sort -o out in',
	'find . -delete',
	'xargs cat',
	'sudo cat a',
	'env LD_PRELOAD=x.so cat a',
	'LD_PRELOAD=x.so cat a',
	'./cat a',
	'"cat x" y',
	'cat $(touch z)',
	'cat <(touch z)',
	'eval "cat a"',
	'$CMD a',
	'cat() { rm x; }; cat y',
];
const JOIN = [' | ', ' && ', '; ', ' || '];

describe('run_command: a line proven to only read', () => {
	before(() => loadBashParser());

	it('is proven when every command only reads and nothing is redirected into a file, for generated lines', () => {
		fc.assert(
			fc.property(
				fc.array(fc.record({ read: fc.boolean(), i: fc.nat(), join: fc.nat() }), {
					minLength: 1,
					maxLength: 4,
				}),
				fc.constantFrom('', ' > out.txt', ' >> log', ' 2>/dev/null', ' < in.txt'),
				(parts, redirect) => {
					const line =
						parts
							.map(
								(p, k) =>
									`${k ? JOIN[p.join % JOIN.length] : ''}${(p.read ? READS : NOT)[p.i % (p.read ? READS : NOT).length]}`,
							)
							.join('') + redirect;
					const expected =
						parts.every(p => p.read) && !/>(?!\/dev\/null)/.test(redirect.replace('2>/dev/null', ''));
					assert.strictEqual(provesReadOnly(line), expected, line);
				},
			),
			{ numRuns: 500 },
		);
	});

	it('is not proven for a line bash cannot be read for, or an empty one', () => {
		for (const line of ['cat "a', '', 'cat a\r', 'cat a `rm x`']) {
			assert.strictEqual(provesReadOnly(line), false, line);
		}
	});
});
