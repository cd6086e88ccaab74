// Paging a long conversation to the webview: generated conversations of items of every size
// (short answers, cards that restored long outputs, one item larger than a page), paged from
// the newest back the way the webview asks (the page before its first item). Every item
// arrives exactly once, in order; no page is over the size budget unless it is one item; and
// the open's page ends with the newest item.
import * as assert from 'assert';
import fc from 'fast-check';
import { ChatView, FIRST_PAGE_CHARS, PAGE_SIZE } from '../../../../src/host/view/chatView';
import type { ChatItem } from '../../../../src/shared/views';

function item(i: number, size: number): ChatItem {
	return i % 3 === 0
		? { kind: 'user', id: `u${i}`, text: `Question ${i}` }
		: i % 3 === 1
			? {
					kind: 'tool',
					id: `c${i}`,
					call: {
						id: `c${i}`,
						name: 'read_file',
						title: 'Read a',
						argumentsText: '{}',
						status: 'succeeded',
						output: 'x'.repeat(size),
					},
				}
			: { kind: 'assistant', id: `a${i}`, text: `Answer ${i} ${'y'.repeat(size)}`, streaming: false };
}

describe('ChatView — pages within a size budget', () => {
	it('pages every item exactly once, in order, each page within the budget', () => {
		fc.assert(
			fc.property(
				fc.array(fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 60_000 })), {
					minLength: 0,
					maxLength: 400,
				}),
				fc.integer({ min: 2_000, max: 300_000 }),
				fc.integer({ min: 1, max: PAGE_SIZE }),
				fc.integer({ min: 2_000, max: 300_000 }),
				(sizes, chars, firstSize, firstChars) => {
					const view = new ChatView('s', 'm');
					const all = sizes.map((size, i) => item(i, size));
					all.forEach(i => view.push(i));
					// The page the chat opens with may be smaller than the pages before it.
					const first = view.page(firstSize, firstChars);
					assert.ok(first.items.length <= firstSize);
					assert.ok(
						first.items.length <= 1 ||
							first.items.reduce((n, i) => n + JSON.stringify(i).length, 0) <= firstChars,
					);
					const pages = [first.items];
					let olderCount = first.olderCount;
					while (olderCount > 0) {
						const older = view.older(pages[0][0].id, PAGE_SIZE, chars);
						assert.ok(
							older.items.length > 0,
							'a page before the first item is never empty while older ones remain',
						);
						pages.unshift(older.items);
						olderCount = older.olderCount;
						assert.strictEqual(
							olderCount,
							all.length - pages.flat().length,
							'olderCount says what is left',
						);
					}
					assert.deepStrictEqual(
						pages.flat().map(i => i.id),
						all.map(i => i.id),
						'every item once, in order',
					);
					for (const page of pages.slice(0, -1)) {
						assert.ok(page.length <= PAGE_SIZE);
						const posted = page.reduce((n, i) => n + JSON.stringify(i).length, 0);
						assert.ok(
							page.length === 1 || posted <= chars,
							`a page of ${page.length} items is ${posted} > ${chars}`,
						);
					}
				},
			),
			{ numRuns: 60 },
		);
	});

	it('opens a conversation of long outputs with far less than a hundred items of it', () => {
		const view = new ChatView('s', 'm');
		for (let i = 0; i < 300; i++) view.push(item(i, 50_000));
		const page = view.page();
		assert.ok(JSON.stringify(page.items).length <= FIRST_PAGE_CHARS);
		assert.ok(page.items.length < 5 && page.items.length > 0);
		assert.strictEqual(page.items.at(-1)!.id, 'a299', 'the newest item is on the first page');
	});
});
