import * as assert from 'assert';
import { PROTOCOL_REFUSAL_TEXT, WebviewChannel } from '../../../../src/host/view/webviewChannel';
import {
	PROTOCOL_VERSION,
	parseProtocolRefusal,
	type HostToWebview,
	type ProtocolRefusal,
} from '../../../../src/shared/protocol';

describe('WebviewChannel', () => {
	const state = { sessionId: 's', busy: false, items: [], olderCount: 0, modelLabel: 'm' };
	const snapshot = () => ({ type: 'didSnapshot' as const, state });

	it('sends nothing before ready, then a snapshot, then versioned deltas', () => {
		const posted: HostToWebview[] = [];
		const channel = new WebviewChannel();
		channel.push({ type: 'didSetStatus', busy: true });
		channel.flush();
		assert.strictEqual(posted.length, 0);
		assert.strictEqual(
			channel.open(m => posted.push(m as HostToWebview), PROTOCOL_VERSION, snapshot),
			true,
		);
		channel.push({ type: 'didSetStatus', busy: true });
		channel.flush();
		assert.deepStrictEqual(
			posted.map(m => [m.type, m.version]),
			[
				['didSnapshot', 1],
				['didSetStatus', 2],
			],
		);
	});

	it('what follows a snapshot (mode, turn controls) comes after it, at once or when the opener says', () => {
		const posted: HostToWebview[] = [];
		const channel = new WebviewChannel();
		channel.onDidReset(() => {
			channel.push({ type: 'didSetStatus', busy: false });
			channel.flush();
		});
		let later: (() => void) | undefined;
		channel.open(
			m => posted.push(m as HostToWebview),
			PROTOCOL_VERSION,
			snapshot,
			followUp => (later = followUp),
		);
		assert.deepStrictEqual(
			posted.map(m => m.type),
			['didSnapshot'],
			'the snapshot leaves alone',
		);
		later?.();
		assert.deepStrictEqual(
			posted.map(m => [m.type, m.version]),
			[
				['didSnapshot', 1],
				['didSetStatus', 2],
			],
		);
		channel.reset(snapshot());
		assert.deepStrictEqual(
			posted.slice(2).map(m => m.type),
			['didSnapshot', 'didSetStatus'],
			'without an opener, at once',
		);
	});

	it('is opened only by ready: a new chat before it sends nothing, and closing stops the stream', () => {
		const posted: HostToWebview[] = [];
		const channel = new WebviewChannel();
		channel.reset(snapshot());
		channel.push({ type: 'didSetStatus', busy: true });
		channel.flush();
		assert.strictEqual(posted.length, 0, 'a reset does not open the channel');
		channel.open(m => posted.push(m as HostToWebview), PROTOCOL_VERSION, snapshot);
		channel.close();
		channel.reset(snapshot());
		channel.push({ type: 'didSetStatus', busy: false });
		channel.flush();
		assert.deepStrictEqual(
			posted.map(m => m.type),
			['didSnapshot'],
		);
	});

	it('answers a ready of another protocol version with a refusal to show, and stays closed', () => {
		const posted: Array<HostToWebview | ProtocolRefusal> = [];
		const channel = new WebviewChannel();
		assert.strictEqual(
			channel.open(m => posted.push(m), PROTOCOL_VERSION + 1, snapshot),
			false,
		);
		channel.reset(snapshot());
		channel.push({ type: 'didSetStatus', busy: true });
		channel.flush();
		assert.strictEqual(posted.length, 1, 'only the refusal is sent');
		const refusal = parseProtocolRefusal(posted[0]);
		assert.ok(refusal, 'the webview can parse the refusal');
		assert.deepStrictEqual(refusal, {
			type: 'didRefuseProtocol',
			hostVersion: PROTOCOL_VERSION,
			message: PROTOCOL_REFUSAL_TEXT,
		});
		assert.match(refusal.message, /reload the window/);
		assert.strictEqual(channel.refused, true, 'a reload may now be asked for');
		// The webview reloaded with the host's version: the channel opens and the refusal is over.
		assert.strictEqual(
			channel.open(m => posted.push(m), PROTOCOL_VERSION, snapshot),
			true,
		);
		assert.strictEqual(channel.refused, false);
		assert.strictEqual(posted[posted.length - 1].type, 'didSnapshot');
	});

	it('coalesces text deltas for the same item into one message', () => {
		const posted: HostToWebview[] = [];
		const channel = new WebviewChannel();
		channel.open(m => posted.push(m as HostToWebview), PROTOCOL_VERSION, snapshot);
		for (const text of ['He', 'll', 'o']) {
			channel.push({ type: 'didAppendText', itemId: 'a', text });
		}
		channel.push({ type: 'didAppendText', itemId: 'b', text: '!' });
		channel.flush();
		assert.deepStrictEqual(
			posted.slice(1).map(m => m.type === 'didAppendText' && [m.itemId, m.text, m.version]),
			[
				['a', 'Hello', 2],
				['b', '!', 3],
			],
		);
	});
});
