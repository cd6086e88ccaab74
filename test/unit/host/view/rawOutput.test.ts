import * as assert from 'assert';
import { InMemoryOutputStore } from '../../../../src/core/tools/outputStore';
import { ChatView } from '../../../../src/host/view/chatView';
import { RAW_PAGE_CHARS, rawOutputPage } from '../../../../src/host/view/rawOutput';
import { parseHostMessage, parseWebviewMessage } from '../../../../src/shared/protocol';
import type { ToolCallState } from '../../../../src/core/agent/events';

function card(extra: Partial<ToolCallState>): ToolCallState {
	return {
		id: 'c1',
		name: 'run_command',
		title: 'Run npm test',
		argumentsText: '{}',
		status: 'succeeded',
		output: 'kept',
		...extra,
	};
}

describe('Show unfiltered (raw output pages)', () => {
	it("pages a card's stored raw output through the session store, on line breaks", async () => {
		const store = new InMemoryOutputStore();
		const line = 'x'.repeat(99) + '\n';
		const raw = line.repeat(Math.ceil((RAW_PAGE_CHARS * 1.5) / line.length));
		const ref = await store.put('s1', raw);
		const view = new ChatView('s1', 'model');
		view.apply({
			type: 'toolCallUpdated',
			turnId: 't1',
			call: card({
				rawOutputRef: ref,
				filtered: { from: 1000, to: 3 },
				filterConfidence: 'partial',
				filterRule: 'npm-test',
			}),
		});
		const read = (r: string) => store.get('s1', r);
		const first = await rawOutputPage(view.toolCall('c1'), 'c1', 0, read);
		assert.strictEqual(first.error, undefined);
		assert.strictEqual(first.total, raw.length);
		assert.ok(first.text.endsWith('\n'), 'a page ends at a line break');
		assert.ok(first.nextOffset !== undefined && first.nextOffset <= RAW_PAGE_CHARS);
		const second = await rawOutputPage(view.toolCall('c1'), 'c1', first.nextOffset!, read);
		assert.strictEqual(second.nextOffset, undefined, 'the last page says so');
		assert.strictEqual(first.text + second.text, raw);
		// The answer passes the webview's own validation.
		assert.ok(parseHostMessage({ ...first, version: 1 }));
	});

	it("says why when a card has no raw output, or another session's store would be needed", async () => {
		const store = new InMemoryOutputStore();
		const ref = await store.put('other-session', 'secret');
		const none = await rawOutputPage(undefined, 'nope', 0, r => store.get('s1', r));
		assert.match(none.error ?? '', /no stored unfiltered output/);
		const foreign = await rawOutputPage({ id: 'c1', rawOutputRef: ref }, 'c1', 0, r => store.get('s1', r));
		assert.strictEqual(foreign.text, '');
		assert.match(foreign.error ?? '', /no longer stored/);
	});

	it('the webview asks by card id only, with a bounded offset', () => {
		assert.deepStrictEqual(parseWebviewMessage({ type: 'readRawOutput', toolCallId: 'c1' }), {
			type: 'readRawOutput',
			toolCallId: 'c1',
			offset: 0,
		});
		assert.strictEqual(parseWebviewMessage({ type: 'readRawOutput', toolCallId: 'c1', ref: 'out_x' }), undefined);
		assert.strictEqual(parseWebviewMessage({ type: 'readRawOutput', toolCallId: 'c1', offset: -1 }), undefined);
		assert.strictEqual(parseWebviewMessage({ type: 'readRawOutput', toolCallId: '', offset: 0 }), undefined);
	});

	it('carries the new card fields to the webview, validated', () => {
		const view = new ChatView('s1', 'model');
		const [added] = view.apply({
			type: 'toolCallUpdated',
			turnId: 't1',
			call: card({ status: 'running', output: undefined }),
		});
		assert.ok(parseHostMessage({ ...added, version: 1 }));
		const updates = view.apply({
			type: 'toolCallUpdated',
			turnId: 't1',
			call: card({
				cached: true,
				errorCategory: 'rate_limited',
				filterConfidence: 'fallback',
				filterRule: 'generic',
				rawOutputRef: 'out_abc',
			}),
		});
		const patch = updates.find(u => u.type === 'didPatchTool');
		assert.ok(patch && patch.type === 'didPatchTool');
		assert.deepStrictEqual(
			{
				cached: patch.patch.cached,
				errorCategory: patch.patch.errorCategory,
				filterConfidence: patch.patch.filterConfidence,
				filterRule: patch.patch.filterRule,
				rawOutputRef: patch.patch.rawOutputRef,
			},
			{
				cached: true,
				errorCategory: 'rate_limited',
				filterConfidence: 'fallback',
				filterRule: 'generic',
				rawOutputRef: 'out_abc',
			},
		);
		assert.ok(parseHostMessage({ ...patch, version: 2 }));
		assert.strictEqual(
			parseHostMessage({
				type: 'didPatchTool',
				version: 3,
				itemId: 'c1',
				patch: { filterConfidence: 'certain' },
			}),
			undefined,
		);
	});
});
