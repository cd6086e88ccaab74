import * as assert from 'assert';
import { WebviewChannel } from '../../../src/host/webviewChannel';
import type { HostToWebview } from '../../../src/shared/protocol';

describe('WebviewChannel', () => {
	const state = { sessionId: 's', busy: false, items: [], olderCount: 0, modelLabel: 'm' };

	it('sends nothing before ready, then a snapshot, then versioned deltas', () => {
		const posted: HostToWebview[] = [];
		const channel = new WebviewChannel(m => posted.push(m));
		channel.push({ type: 'didSetStatus', busy: true });
		channel.flush();
		assert.strictEqual(posted.length, 0);
		channel.resetWithSnapshot({ type: 'didSnapshot', state });
		channel.push({ type: 'didSetStatus', busy: true });
		channel.flush();
		assert.deepStrictEqual(posted.map(m => [m.type, m.version]), [['didSnapshot', 1], ['didSetStatus', 2]]);
	});

	it('coalesces text deltas for the same item into one message', () => {
		const posted: HostToWebview[] = [];
		const channel = new WebviewChannel(m => posted.push(m));
		channel.resetWithSnapshot({ type: 'didSnapshot', state });
		for (const text of ['He', 'll', 'o']) {
			channel.push({ type: 'didAppendText', itemId: 'a', text });
		}
		channel.push({ type: 'didAppendText', itemId: 'b', text: '!' });
		channel.flush();
		assert.deepStrictEqual(posted.slice(1).map(m => m.type === 'didAppendText' && [m.itemId, m.text, m.version]), [['a', 'Hello', 2], ['b', '!', 3]]);
	});
});
