import * as assert from 'assert';
import type { ToolCallState } from '../../../../src/core/agent/events';
import { ChatView, FIRST_PAGE_SIZE, PAGE_SIZE } from '../../../../src/host/view/chatView';
import { diffPreview } from '../../../../src/host/view/toolCallView';

const write = (status: ToolCallState['status']): ToolCallState => ({
	id: 'w1',
	name: 'write_file',
	title: 'Write big.ts',
	argumentsText: '{}',
	status,
	effect: 'write',
	diffs: [
		{
			path: 'big.ts',
			unified: '--- a/big.ts\n+++ b/big.ts\n@@ -1 +1 @@\n-old\n+new',
			before: 'x'.repeat(300_000),
			after: 'y'.repeat(300_000),
		},
	],
});

describe('ChatView — messages sized to the change', () => {
	it('sends a write card without the file contents, and a status change as the status alone', () => {
		const view = new ChatView('s', 'm');
		view.apply({ type: 'turnStarted', turnId: 't', prompt: 'edit' });
		const [added] = view.apply({ type: 'toolCallUpdated', turnId: 't', call: write('awaitingApproval') });
		assert.ok(added.type === 'didUpsertItem' && added.item.kind === 'tool');
		assert.ok(JSON.stringify(added).length < 2_000, 'before/after stay in the host');
		assert.deepStrictEqual(added.item.call.diffs, [
			{ path: 'big.ts', unified: '--- a/big.ts\n+++ b/big.ts\n@@ -1 +1 @@\n-old\n+new', added: 1, removed: 1 },
		]);
		const updates = view.apply({ type: 'toolCallUpdated', turnId: 't', call: write('running') });
		assert.deepStrictEqual(updates, [{ type: 'didPatchTool', itemId: 'w1', patch: { status: 'running' } }]);
	});

	it('sends live output as the appended part only', () => {
		const view = new ChatView('s', 'm');
		const call: ToolCallState = {
			id: 'c',
			name: 'run_command',
			title: 'Run ls',
			argumentsText: '{}',
			status: 'running',
		};
		view.apply({ type: 'toolCallUpdated', turnId: 't', call });
		view.apply({ type: 'toolCallUpdated', turnId: 't', call: { ...call, progress: 'a\n' } });
		const updates = view.apply({ type: 'toolCallUpdated', turnId: 't', call: { ...call, progress: 'a\nb\n' } });
		assert.deepStrictEqual(updates, [{ type: 'didAppendOutput', itemId: 'c', text: 'b\n' }]);
	});

	it('caps a long diff preview and says how much is left for the diff editor', () => {
		const unified = [
			'--- a/f',
			'+++ b/f',
			'@@ -1,1000 +1,1000 @@',
			...Array.from({ length: 1000 }, (_, i) => `+line ${i}`),
		].join('\n');
		const preview = diffPreview('f', unified);
		assert.strictEqual(preview.added, 1000);
		assert.ok(preview.unified.split('\n').length <= 300);
		assert.strictEqual(preview.omittedLines, 1003 - preview.unified.split('\n').length);
	});

	it('folds reasoning into a thinking block that closes when the answer starts', () => {
		const view = new ChatView('s', 'm');
		view.apply({ type: 'turnStarted', turnId: 't', prompt: 'why' });
		view.apply({ type: 'reasoningDelta', turnId: 't', text: 'Let me ' });
		assert.deepStrictEqual(
			view.apply({ type: 'reasoningDelta', turnId: 't', text: 'think.' }).map(u => u.type),
			['didAppendText'],
		);
		const updates = view.apply({ type: 'textDelta', turnId: 't', text: 'Because.' });
		assert.deepStrictEqual(
			updates.map(u => u.type),
			['didFinishText', 'didUpsertItem'],
		);
		assert.deepStrictEqual(
			view.items.map(i => [i.kind, 'text' in i ? i.text : '']),
			[
				['user', 'why'],
				['thinking', 'Let me think.'],
				['assistant', 'Because.'],
			],
		);
	});

	it('turns usage into the context meter', () => {
		const view = new ChatView('s', 'm');
		const [update] = view.apply({
			type: 'usage',
			turnId: 't',
			promptTokens: 1000,
			completionTokens: 200,
			estimated: true,
			contextWindow: 32768,
			turnRequests: 2,
			turnTokens: 2400,
		});
		assert.deepStrictEqual(update, {
			type: 'didSetUsage',
			usage: { contextTokens: 1200, contextWindow: 32768, estimated: true, turnRequests: 2, turnTokens: 2400 },
		});
		assert.strictEqual(view.page().usage?.contextTokens, 1200);
	});
});

describe('ChatView — paged snapshots', () => {
	const long = () => {
		const view = new ChatView('s', 'm', 'http://127.0.0.1:11434/v1');
		for (let i = 0; i < 250; i++) {
			view.apply({ type: 'notice', turnId: 't', level: 'info', code: 'rules', text: `notice ${i}` });
		}
		return view;
	};

	it('opens with the newest page and says how many items came before it', () => {
		const page = long().page();
		assert.strictEqual(page.items.length, FIRST_PAGE_SIZE);
		assert.strictEqual(page.olderCount, 250 - FIRST_PAGE_SIZE);
		assert.deepStrictEqual(
			[page.items[0].kind === 'notice' && page.items[0].text, page.endpoint],
			[`notice ${250 - FIRST_PAGE_SIZE}`, 'http://127.0.0.1:11434/v1'],
		);
	});

	it('gives the pages before an item until the start', () => {
		const view = long();
		const first = view.page().items[0].id;
		const older = view.older(first);
		assert.deepStrictEqual([older.items.length, older.olderCount], [PAGE_SIZE, 250 - FIRST_PAGE_SIZE - PAGE_SIZE]);
		const left = 250 - FIRST_PAGE_SIZE - PAGE_SIZE;
		const next = view.older(older.items[0].id);
		assert.deepStrictEqual(
			[next.items.length, next.olderCount],
			[Math.min(left, PAGE_SIZE), Math.max(0, left - PAGE_SIZE)],
		);
		assert.strictEqual(
			next.items.at(-1)?.id,
			view.items[left - 1].id,
			'the page ends just before the one after it',
		);
		assert.deepStrictEqual(view.older('unknown'), { items: [], olderCount: 0 });
	});
});
