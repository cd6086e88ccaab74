import * as assert from 'assert';
import type { HostToWebview } from '../../../../src/shared/protocol';
import type { ChatItem, SessionView } from '../../../../src/shared/views';
import { ChatStore } from '../../../../src/webview/state/store';

const tool = (id: string, status: 'running' | 'succeeded' = 'running'): ChatItem => ({
	kind: 'tool',
	id,
	call: { id, name: 'read_file', title: `Read ${id}`, argumentsText: '{}', status },
});

function storeWith(items: ChatItem[], olderCount = 0): ChatStore {
	const store = new ChatStore();
	const state: SessionView = { sessionId: 's', busy: false, items, olderCount, modelLabel: 'm' };
	store.apply({ type: 'didSnapshot', version: 4, state });
	return store;
}

describe('webview store', () => {
	it('applies consecutive versions and appends text, replacing only the changed item', () => {
		const store = storeWith([
			{ kind: 'user', id: 'u', text: 'hi' },
			{ kind: 'assistant', id: 'a', text: 'Hel', streaming: true },
		]);
		const user = store.items[0];
		assert.strictEqual(store.apply({ type: 'didAppendText', version: 5, itemId: 'a', text: 'lo' }), 'applied');
		assert.strictEqual((store.get('a') as { text: string }).text, 'Hello');
		assert.strictEqual(store.items[0], user, 'an unchanged item keeps its identity, so its row does not re-render');
		store.apply({ type: 'didFinishText', version: 6, itemId: 'a' });
		assert.strictEqual((store.get('a') as { streaming: boolean }).streaming, false);
	});

	it('ignores stale versions and reports gaps so a snapshot is requested', () => {
		const store = storeWith([]);
		assert.strictEqual(store.apply({ type: 'didSetStatus', version: 4, busy: true }), 'stale');
		assert.strictEqual(store.apply({ type: 'didSetStatus', version: 6, busy: true }), 'gap');
	});

	it('patches a card with only what changed and appends live output', () => {
		const store = storeWith([tool('c1')]);
		const messages: HostToWebview[] = [
			{ type: 'didAppendOutput', version: 5, itemId: 'c1', text: 'line 1\n' },
			{ type: 'didAppendOutput', version: 6, itemId: 'c1', text: 'line 2' },
			{ type: 'didPatchTool', version: 7, itemId: 'c1', patch: { status: 'succeeded', output: 'done' } },
		];
		messages.forEach(message => assert.strictEqual(store.apply(message), 'applied'));
		const card = store.get('c1');
		assert.ok(card?.kind === 'tool');
		assert.deepStrictEqual(
			[card.call.status, card.call.progress, card.call.output, card.call.title],
			['succeeded', 'line 1\nline 2', 'done', 'Read c1'],
		);
	});

	it('puts an older page before the loaded items', () => {
		const store = storeWith([tool('c3')], 2);
		store.apply({ type: 'didPrependItems', version: 5, items: [tool('c1'), tool('c2')], olderCount: 0 });
		assert.deepStrictEqual(
			store.items.map(item => item.id),
			['c1', 'c2', 'c3'],
		);
		assert.strictEqual(store.olderCount, 0);
		assert.strictEqual(store.get('c3')?.id, 'c3');
	});

	it('replaces everything on a snapshot whatever the version', () => {
		const store = storeWith([tool('c1')]);
		store.apply({
			type: 'didSnapshot',
			version: 1,
			state: { sessionId: 't', busy: true, items: [], olderCount: 0, modelLabel: 'n' },
		});
		assert.deepStrictEqual([store.items.length, store.version, store.header?.sessionId], [0, 1, 't']);
	});
});
