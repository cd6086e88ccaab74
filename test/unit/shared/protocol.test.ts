import * as assert from 'assert';
import { parseHostMessage, parseWebviewMessage } from '../../../src/shared/protocol';

describe('host ⇄ webview protocol', () => {
	it('accepts the commands the webview may send', () => {
		assert.deepStrictEqual(parseWebviewMessage({ type: 'sendPrompt', text: 'hi' }), {
			type: 'sendPrompt',
			text: 'hi',
		});
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

	it('validates the everyday controls both ways: commands, completions, modes, per-turn actions, mentions', () => {
		for (const message of [
			{ type: 'submit', text: '/plan' },
			{ type: 'complete', requestId: 3, kind: 'mention', query: 'src/a' },
			{ type: 'setMode', name: 'plan' },
			{ type: 'openTurnChanges', turnId: 't1' },
			{ type: 'restoreCheckpoint', turnId: 't1' },
			{ type: 'rewindTo', turnId: 't1' },
			{ type: 'measureMention', value: 'src/a.ts' },
		]) {
			assert.deepStrictEqual(parseWebviewMessage(message), message);
		}
		for (const message of [
			{ type: 'submit', text: '   ' },
			{ type: 'complete', requestId: -1, kind: 'slash', query: '' },
			{ type: 'complete', requestId: 1, kind: 'shell', query: '' },
			{ type: 'rewindTo', turnId: '' },
			{ type: 'restoreCheckpoint', turnId: 't1', force: true },
			{ type: 'setMode', name: '' },
		]) {
			assert.strictEqual(parseWebviewMessage(message), undefined, JSON.stringify(message));
		}
		assert.ok(
			parseHostMessage({
				type: 'didSetMode',
				version: 1,
				mode: { id: 'plan', name: 'Plan' },
				modes: [{ id: 'act', name: 'Act' }],
			}),
		);
		assert.ok(
			parseHostMessage({
				type: 'didSetTurns',
				version: 1,
				turns: [{ itemId: 'u', turnId: 't', filesChanged: 2 }],
			}),
		);
		assert.strictEqual(
			parseHostMessage({
				type: 'didSetTurns',
				version: 1,
				turns: [{ itemId: 'u', turnId: 't', filesChanged: -1 }],
			}),
			undefined,
		);
		assert.ok(
			parseHostMessage({
				type: 'didComplete',
				version: 1,
				requestId: 3,
				items: [{ value: 'plan', label: '/plan' }],
			}),
		);
		assert.ok(parseHostMessage({ type: 'didFillComposer', version: 1, text: 'again' }));
		assert.ok(
			parseHostMessage({ type: 'didMeasureMention', version: 1, value: 'a.ts', label: 'a.ts', tokens: 12 }),
		);
	});
});
