import * as assert from 'assert';
import * as fc from 'fast-check';
import { unescapeTwice } from '../../../../../src/core/llm/textCalls/escapedTwice';

/** A line of code or prose: words, balanced quotes, brackets, accents — no line break of its own. */
const line = fc
	.array(
		fc.oneof(
			fc.stringMatching(/^[a-z]{1,8}$/),
			fc.constantFrom('"quoted"', "'single'", '(x)', '{ a: 1 }', '= 2;', 'café', '✓', '\\d+', "it's", '`tick`'),
		),
		{ minLength: 1, maxLength: 7 },
	)
	.map(words => words.join(' '));
const body = fc.array(line, { minLength: 2, maxLength: 6 }).map(lines => lines.join('\n'));
/** Escaped once more: how a model that encodes twice sends a file body inside valid JSON. */
const twice = (text: string) => JSON.stringify(text).slice(1, -1);

describe('argument values escaped twice', () => {
	it('a multi-line body whose line breaks arrived as \\n is written as the model meant it', () => {
		fc.assert(
			fc.property(body, fc.boolean(), (text, trailing) => {
				const meant = trailing ? `${text}\n` : text;
				const { value, changed } = unescapeTwice({ content: twice(meant) });
				assert.strictEqual(value.content, meant);
				assert.deepStrictEqual(changed, ['content']);
			}),
			{ numRuns: 300, seed: 3 },
		);
	});

	it('a value whose \\n sits inside a string literal (where a language reads it) is left alone', () => {
		fc.assert(
			fc.property(fc.stringMatching(/^[a-z ]{1,12}$/), fc.constantFrom('"', "'"), (words, q) => {
				const code = `printf(${q}${words}\\n${q});`;
				assert.strictEqual(unescapeTwice({ content: code }).value.content, code);
			}),
			{ numRuns: 200, seed: 4 },
		);
		const shell = "echo -e 'a\\nb'";
		assert.strictEqual(unescapeTwice({ command: shell }).value.command, shell);
	});

	it('a body with real line breaks, or backslashes that are not JSON escapes, is left alone', () => {
		fc.assert(
			fc.property(body, text => {
				assert.strictEqual(unescapeTwice({ content: text }).value.content, text);
			}),
			{ numRuns: 200, seed: 5 },
		);
		assert.strictEqual(unescapeTwice({ pattern: 'C:\\Users\\me' }).value.pattern, 'C:\\Users\\me');
	});

	it('unicode escapes left in prose are decoded; inside a string literal they stay', () => {
		assert.strictEqual(unescapeTwice({ content: '# Caf\\u00e9 \\ud83d\\ude00' }).value.content, '# Café 😀');
		assert.strictEqual(unescapeTwice({ content: 'const s = "\\u00e9";' }).value.content, 'const s = "\\u00e9";');
	});
});
