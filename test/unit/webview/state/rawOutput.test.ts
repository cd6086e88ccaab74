import * as assert from 'assert';
import type { ChatItem, SessionView } from '../../../../src/shared/views';
import { onRawOutput, rawOutput, requestedRawOutput } from '../../../../src/webview/state/rawOutput';
import { ChatStore } from '../../../../src/webview/state/store';

describe('webview raw outputs (Show unfiltered)', () => {
	it("the host's pages fill the card's raw output: first replaces, later appends; a snapshot keeps them", () => {
		const store = new ChatStore();
		const item: ChatItem = {
			kind: 'tool',
			id: 'r1',
			call: {
				id: 'r1',
				name: 'run_command',
				title: 'Run',
				argumentsText: '{}',
				status: 'succeeded',
				output: 'kept',
				rawOutputRef: 'out_x',
			},
		};
		const state: SessionView = { sessionId: 's', busy: false, items: [item], olderCount: 0, modelLabel: 'm' };
		store.apply({ type: 'didSnapshot', version: 1, state });
		let changes = 0;
		const stop = onRawOutput('r1', () => changes++);
		requestedRawOutput('r1');
		assert.strictEqual(rawOutput('r1')?.loading, true);
		assert.strictEqual(
			store.apply({
				type: 'didRawOutput',
				version: 2,
				toolCallId: 'r1',
				offset: 0,
				text: 'line 1\n',
				total: 14,
				nextOffset: 7,
			}),
			'applied',
		);
		store.apply({ type: 'didRawOutput', version: 3, toolCallId: 'r1', offset: 7, text: 'line 2\n', total: 14 });
		assert.deepStrictEqual(rawOutput('r1'), {
			text: 'line 1\nline 2\n',
			total: 14,
			nextOffset: undefined,
			error: undefined,
			loading: false,
		});
		store.apply({ type: 'didSnapshot', version: 9, state });
		assert.strictEqual(rawOutput('r1')?.text, 'line 1\nline 2\n');
		assert.strictEqual(changes, 3);
		stop();
		store.apply({
			type: 'didRawOutput',
			version: 10,
			toolCallId: 'r1',
			offset: 0,
			text: '',
			total: 0,
			error: 'gone',
		});
		assert.strictEqual(changes, 3, 'an unsubscribed card is not told');
		assert.strictEqual(rawOutput('r1')?.error, 'gone');
	});
});
