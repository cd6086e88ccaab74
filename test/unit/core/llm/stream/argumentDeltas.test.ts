import * as assert from 'assert';
import fc from 'fast-check';
import { ToolCallAssembler } from '../../../../../src/core/llm/stream/toolCallAssembler';

/** Argument values as tools take them: strings (JSON-hostile characters included), numbers, flags. */
const argsArb = fc.dictionary(
	fc.stringMatching(/^[a-z_]{1,10}$/),
	fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.boolean()),
	{ minKeys: 1, maxKeys: 5 },
);

/** A text cut into pieces at random places. */
function cut(text: string, cuts: number[]): string[] {
	const points = [...new Set(cuts.map(c => c % (text.length + 1)))].sort((a, b) => a - b);
	const pieces: string[] = [];
	let from = 0;
	for (const point of [...points, text.length]) {
		if (point > from) pieces.push(text.slice(from, point));
		from = Math.max(from, point);
	}
	return pieces;
}

type Shape = 'pieces' | 'accumulated' | 'repeated' | 'partialObjects';

/** The same arguments streamed in each of the four shapes servers use. */
function deltas(args: Record<string, unknown>, shape: Shape, cuts: number[]): unknown[] {
	const text = JSON.stringify(args);
	switch (shape) {
		case 'pieces':
			return cut(text, cuts);
		case 'accumulated': {
			let sofar = '';
			return cut(text, cuts).map(piece => (sofar += piece));
		}
		case 'repeated':
			return [text, args, text];
		case 'partialObjects':
			// Key by key; a string value itself split over several objects.
			return Object.entries(args).flatMap(([key, value]) =>
				typeof value === 'string' && value.length > 1
					? cut(value, cuts).map(piece => ({ [key]: piece }))
					: [{ [key]: value }],
			);
	}
}

function ambiguous(pieces: unknown[]): boolean {
	const held = new Map<string, string>();
	for (const piece of pieces as Array<Record<string, unknown>>) {
		for (const [key, value] of Object.entries(piece)) {
			const before = held.get(key);
			if (typeof value !== 'string') continue;
			if (before !== undefined && value.startsWith(before)) return true;
			held.set(key, (before ?? '') + value);
		}
	}
	return false;
}

describe('streamed tool-call arguments in any shape', () => {
	it('every shape, parts under `function` or beside it, with or without id and index, gives one call with the arguments sent', () => {
		fc.assert(
			fc.property(
				argsArb,
				fc.constantFrom<Shape>('pieces', 'accumulated', 'repeated', 'partialObjects'),
				fc.array(fc.nat(200), { maxLength: 6 }),
				fc.boolean(),
				fc.boolean(),
				fc.boolean(),
				(args, shape, cuts, nested, withId, withIndex) => {
					// A piece that begins with all its key's text so far reads as that text grown: by content
					// alone "a" then "aa" cannot be told from "a" then "a" grown to "aa"; such inputs are skipped.
					fc.pre(shape !== 'partialObjects' || !ambiguous(deltas(args, shape, cuts)));
					const assembler = new ToolCallAssembler();
					for (const [n, piece] of deltas(args, shape, cuts).entries()) {
						const parts = { ...(n === 0 ? { name: 'write_file' } : {}), arguments: piece };
						assembler.add(
							{
								...(withIndex ? { index: 0 } : {}),
								...(withId ? { id: 'call_1' } : {}),
								...(nested ? { function: parts } : parts),
							},
							0,
						);
					}
					const calls = assembler.finish(() => 'made');
					assert.strictEqual(calls.length, 1, JSON.stringify(calls));
					assert.strictEqual(calls[0].name, 'write_file');
					assert.deepStrictEqual(JSON.parse(calls[0].rawArguments), JSON.parse(JSON.stringify(args)));
				},
			),
			{ numRuns: 400 },
		);
	});

	it('a second whole call under the same index (name and arguments again) stays a second call', () => {
		const assembler = new ToolCallAssembler();
		assembler.add({ index: 0, function: { name: 'read_file', arguments: { path: 'a' } } }, 0);
		assembler.add({ index: 0, function: { name: 'read_file', arguments: { path: 'b' } } }, 0);
		assert.deepStrictEqual(
			assembler.finish(i => `c${i}`).map(c => JSON.parse(c.rawArguments)),
			[{ path: 'a' }, { path: 'b' }],
		);
	});
});
