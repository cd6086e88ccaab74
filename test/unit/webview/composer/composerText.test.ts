import * as assert from 'assert';
import { completeMentions, completionTrigger } from '../../../../src/webview/composer/composerText';

describe('composer text', () => {
	it('opens command completion only for a / at the start, before any space', () => {
		assert.deepStrictEqual(completionTrigger('/pl', 3), { kind: 'slash', query: 'pl', start: 0 });
		assert.deepStrictEqual(completionTrigger('/', 1), { kind: 'slash', query: '', start: 0 });
		assert.strictEqual(completionTrigger('/plan now', 9), undefined);
		assert.strictEqual(completionTrigger('a /plan', 7), undefined);
	});

	it('opens the mention picker for an @ word at the caret, not inside an e-mail address', () => {
		assert.deepStrictEqual(completionTrigger('Explain @src/ap', 15), {
			kind: 'mention',
			query: 'src/ap',
			start: 8,
		});
		assert.deepStrictEqual(completionTrigger('@', 1), { kind: 'mention', query: '', start: 0 });
		assert.strictEqual(completionTrigger('mail me@example.com', 19), undefined);
		// The caret decides: typing after the mention closes the picker.
		assert.strictEqual(completionTrigger('see @a.ts and', 13), undefined);
	});

	it('finds typed-out mentions once, without trailing punctuation', () => {
		assert.deepStrictEqual(completeMentions('Fix @src/a.ts, see @problems and @src/a.ts again'), [
			{ token: '@src/a.ts,', value: 'src/a.ts' },
			{ token: '@problems', value: 'problems' },
		]);
		assert.deepStrictEqual(
			completeMentions('still typing @src/a'),
			[],
			'a mention at the end is still being typed',
		);
	});
});
