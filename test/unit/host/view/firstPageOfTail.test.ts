// A long conversation's first page from its newest part alone: for generated stored
// conversations (prompts with images, answers of every length up past the page's size budget,
// tool calls answered, failed, interrupted or never answered, system messages) and every place
// the tail may start, the page is the one the view of the whole conversation gives (the same
// items, ids, cards, and count of older items), or nothing when the tail is too short to know it.
// Each tail that holds more items than a page gives one.
import * as assert from 'assert';
import fc from 'fast-check';
import type { CanonicalMessage } from '../../../../src/core/llm/canonical';
import { FIRST_PAGE_CHARS, FIRST_PAGE_SIZE } from '../../../../src/host/view/chatView';
import { chatViewFromHistory, firstPageOfTail } from '../../../../src/host/view/fromHistory';

type Shape =
	| { kind: 'system' | 'user' | 'assistant'; size: number; images: boolean }
	| { kind: 'call'; size: number; outcome: 'ok' | 'failed' | 'interrupted' | 'none'; late: number };

const shape: fc.Arbitrary<Shape> = fc.oneof(
	fc.record({
		kind: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const),
		// Mostly short, sometimes past the whole page's size budget.
		size: fc.oneof(
			{ arbitrary: fc.integer({ min: 0, max: 300 }), weight: 12 },
			{ arbitrary: fc.integer({ min: 0, max: FIRST_PAGE_CHARS * 1.5 }), weight: 1 },
		),
		images: fc.boolean(),
	}),
	fc.record({
		kind: fc.constant('call' as const),
		size: fc.oneof(
			{ arbitrary: fc.integer({ min: 0, max: 300 }), weight: 8 },
			{ arbitrary: fc.integer({ min: 0, max: 40_000 }), weight: 1 },
		),
		outcome: fc.constantFrom('ok' as const, 'failed' as const, 'interrupted' as const, 'none' as const),
		// How many messages later its result comes (others' calls and answers between).
		late: fc.integer({ min: 0, max: 6 }),
	}),
);

/** The stored conversation the shapes describe; a result comes `late` messages after its call. */
function conversation(shapes: Shape[]): CanonicalMessage[] {
	const messages: CanonicalMessage[] = [];
	const pending: Array<{ at: number; result: CanonicalMessage }> = [];
	shapes.forEach((s, i) => {
		if (s.kind === 'call') {
			const id = `call_${i}`;
			const rawArguments = JSON.stringify({ path: `f${i}.ts` });
			messages.push({
				kind: 'tool_call',
				content: `read_file(${rawArguments})`,
				data: { id, name: 'read_file', arguments: { path: `f${i}.ts` }, rawArguments },
			});
			if (s.outcome !== 'none') {
				const output = s.outcome === 'ok' ? 'x'.repeat(s.size) : `Error: no f${i}.ts`;
				pending.push({
					at: messages.length + s.late,
					result: {
						kind: 'tool_result',
						content: output,
						data: {
							toolCallId: id,
							name: 'read_file',
							output,
							ok: s.outcome === 'ok',
							...(s.outcome === 'interrupted' ? { errorKind: 'interrupted' as const } : {}),
						},
					},
				});
			}
		} else if (s.kind === 'user') {
			messages.push({
				kind: 'user',
				content: `Question ${i} ${'q'.repeat(s.size)}`,
				...(s.images
					? { images: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=', name: 'shot.png', bytes: 8 }] }
					: {}),
			});
		} else {
			messages.push({ kind: s.kind, content: `${s.kind} ${i} ${'y'.repeat(s.size)}` });
		}
		for (const due of pending.filter(p => p.at <= messages.length)) {
			messages.push(due.result);
			pending.splice(pending.indexOf(due), 1);
		}
	});
	pending.forEach(p => messages.push(p.result));
	return messages;
}

const options = { modelLabel: 'qwen3:8b', endpoint: 'http://localhost:11434', titleFor: () => 'Read a file' };

describe('the first page from a stored conversation’s newest part', () => {
	it('is the page of the whole conversation, wherever the tail starts, or nothing when the tail is too short', () => {
		fc.assert(
			fc.property(
				fc
					.array(shape, { maxLength: 200, size: 'max' })
					.map(conversation)
					.chain(history => fc.tuple(fc.constant(history), fc.integer({ min: 0, max: history.length }))),
				([history, start]) => {
					const whole = chatViewFromHistory('s', history, options).page();
					const before: Partial<Record<CanonicalMessage['kind'], number>> = {};
					history.slice(0, start).forEach(m => (before[m.kind] = (before[m.kind] ?? 0) + 1));
					const tail = { sessionId: 's', messages: history.slice(start), before };

					const page = firstPageOfTail(tail, options);
					const tailItems = chatViewFromHistory('s', tail.messages, options).items.length;
					if (page) {
						assert.deepStrictEqual(page, whole);
					} else {
						assert.ok(start > 0, 'the whole conversation always gives its page');
						assert.ok(
							tailItems <= whole.items.length,
							`a tail of ${tailItems} items holds more than the page's ${whole.items.length}: it gives the page`,
						);
					}
				},
			),
			{ numRuns: 400 },
		);
	});

	it('gives the page from a tail of a few hundred messages of a 5,000-message conversation', () => {
		const history = conversation(
			Array.from({ length: 2_500 }, (_, i): Shape =>
				i % 2
					? { kind: 'assistant', size: 40, images: false }
					: { kind: 'call', size: 1_000, outcome: 'ok', late: 0 },
			),
		);
		const start = history.length - 128;
		const before: Partial<Record<CanonicalMessage['kind'], number>> = {};
		history.slice(0, start).forEach(m => (before[m.kind] = (before[m.kind] ?? 0) + 1));
		const page = firstPageOfTail({ sessionId: 's', messages: history.slice(start), before }, options);
		assert.ok(page, 'the newest 128 messages hold the first page');
		assert.strictEqual(page.items.length, FIRST_PAGE_SIZE);
		assert.deepStrictEqual(page, chatViewFromHistory('s', history, options).page());
	});
});
