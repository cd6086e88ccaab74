import * as assert from 'assert';
import { waitingText } from '../../../../src/webview/chatList/waitingText';

describe('the wait for a first token, in words', () => {
	it('tokens processed of the total, and the cached part, where the server says', () => {
		assert.strictEqual(
			waitingText({ elapsedMs: 0, total: 48_000, cached: 30_000, processed: 36_500 }, 45_200),
			'The server is reading the prompt: 36,500 of 48,000 tokens (30,000 from its cache) · 45 s',
		);
		assert.strictEqual(
			waitingText({ elapsedMs: 0, total: 3012, cached: 0, processed: 2048 }, 3000),
			'The server is reading the prompt: 2,048 of 3,012 tokens · 3 s',
		);
	});
	it('else the time waited, in minutes past two', () => {
		assert.strictEqual(
			waitingText({ elapsedMs: 0 }, 150_400),
			"Waiting for the model's first token (the server is reading the prompt) · 2 min 30 s",
		);
	});
});
