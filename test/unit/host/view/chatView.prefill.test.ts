import * as assert from 'assert';
import { ChatView } from '../../../../src/host/view/chatView';

describe('ChatView — the wait for a first token', () => {
	it('shows the server’s progress while it reads the prompt, and clears it at the first token', () => {
		const view = new ChatView('s', 'm');
		view.apply({ type: 'turnStarted', turnId: 't', prompt: 'go' });
		assert.deepStrictEqual(view.apply({ type: 'prefill', turnId: 't', elapsedMs: 0 }), [
			{ type: 'didSetWaiting', waiting: { elapsedMs: 0 } },
		]);
		const progress = { total: 48_000, cached: 30_000, processed: 36_000, elapsedMs: 4000 };
		assert.deepStrictEqual(view.apply({ type: 'prefill', turnId: 't', elapsedMs: 5000, progress }), [
			{ type: 'didSetWaiting', waiting: { elapsedMs: 5000, total: 48_000, cached: 30_000, processed: 36_000 } },
		]);
		assert.deepStrictEqual(view.page().waiting, {
			elapsedMs: 5000,
			total: 48_000,
			cached: 30_000,
			processed: 36_000,
		});
		const updates = view.apply({ type: 'textDelta', turnId: 't', text: 'Hi' });
		assert.deepStrictEqual(updates[0], { type: 'didSetWaiting' });
		assert.strictEqual(view.page().waiting, undefined);
		// Nothing more to clear: the next token sends no wait update.
		assert.ok(!view.apply({ type: 'textDelta', turnId: 't', text: '!' }).some(u => u.type === 'didSetWaiting'));
	});

	it('a notice does not end the wait; the end of the turn does', () => {
		const view = new ChatView('s', 'm');
		view.apply({ type: 'turnStarted', turnId: 't', prompt: 'go' });
		view.apply({ type: 'prefill', turnId: 't', elapsedMs: 0 });
		view.apply({ type: 'notice', turnId: 't', level: 'warning', code: 'serverWindow', text: 'smaller window' });
		assert.ok(view.page().waiting);
		const end = view.apply({ type: 'turnFinished', turnId: 't', reason: 'cancelled' });
		assert.deepStrictEqual(end[0], { type: 'didSetWaiting' });
	});

	it('the meter carries why its window is not the setting', () => {
		const view = new ChatView('s', 'm');
		const [update] = view.apply({
			type: 'usage',
			turnId: 't',
			promptTokens: 1000,
			completionTokens: 10,
			estimated: false,
			contextWindow: 4096,
			turnRequests: 1,
			turnTokens: 1010,
			windowNote: 'the server runs 4,096 tokens',
		});
		assert.ok(update.type === 'didSetUsage');
		assert.strictEqual(update.usage.contextWindow, 4096);
		assert.strictEqual(update.usage.windowNote, 'the server runs 4,096 tokens');
	});
});
