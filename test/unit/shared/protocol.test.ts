import * as assert from 'assert';
import { parseHostMessage, parseWebviewMessage } from '../../../src/shared/protocol';

describe('host ⇄ webview protocol', () => {
	it('accepts the commands the webview may send', () => {
		assert.deepStrictEqual(parseWebviewMessage({ type: 'sendPrompt', text: 'hi' }), { type: 'sendPrompt', text: 'hi' });
		assert.ok(parseWebviewMessage({ type: 'decideToolCall', toolCallId: 'c1', approved: false, reason: 'no' }));
	});

	it('drops forged or malformed messages', () => {
		const bad = [
			null,
			'ready',
			{ type: 'runShell', command: 'rm -rf /' },
			{ type: 'sendPrompt', text: '' },
			{ type: 'sendPrompt', text: 'x'.repeat(100_001) },
			{ type: 'decideToolCall', toolCallId: 'c1', approved: 'true' },
			{ type: 'decideToolCall', toolCallId: 'c1', approved: true, extra: 1 },
			{ type: 'cancelTurn', __proto__: { polluted: true }, x: 1 },
		];
		for (const message of bad) {
			assert.strictEqual(parseWebviewMessage(message), undefined, JSON.stringify(message));
		}
	});

	it('validates host notifications on the webview side too', () => {
		assert.strictEqual(parseHostMessage({ type: 'didAppendText', version: 1, itemId: 'a' }), undefined);
		assert.ok(parseHostMessage({ type: 'didSetStatus', version: 2, busy: true }));
	});
});
