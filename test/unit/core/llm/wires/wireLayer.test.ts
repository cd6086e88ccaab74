import * as assert from 'assert';
import * as fc from 'fast-check';
import { payloadError } from '../../../../../src/core/llm/stream/payloadError';
import { bodyText, sseFrames, type WireFrame } from '../../../../../src/core/llm/stream/responseBody';
import { ToolCallAssembler } from '../../../../../src/core/llm/stream/toolCallAssembler';
import { wireId } from '../../../../../src/core/llm/wires/wireIds';

function streamOf(pieces: string[], holdOpen = false): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	return new ReadableStream({
		start(controller) {
			pieces.forEach(piece => controller.enqueue(encoder.encode(piece)));
			if (!holdOpen) {
				controller.close();
			}
		},
	});
}

/** Cuts text at the given fractions: chunk boundaries anywhere, inside a line, a CRLF or a UTF-8 character. */
function cut(text: string, at: number[]): string[] {
	const points = [...new Set(at.map(f => Math.floor(f * text.length)))].sort((a, b) => a - b);
	return [0, ...points, text.length].slice(1).map((end, i, ends) => text.slice(i === 0 ? 0 : ends[i - 1], end));
}

async function frames(pieces: string[]): Promise<WireFrame[]> {
	const out: WireFrame[] = [];
	for await (const frame of sseFrames(bodyText(streamOf(pieces), { ended: () => false, settled: () => false }))) {
		out.push(frame);
	}
	return out;
}

const payload = fc.dictionary(
	fc.stringMatching(/^[a-z]{1,6}$/),
	fc.oneof(fc.string(), fc.integer(), fc.constant('é ✓ 中文')),
	{
		minKeys: 1,
		maxKeys: 4,
	},
);

describe('the wire layer', () => {
	it('reads SSE as the spec does: comments, data: with or without a space, CRLF, multi-line data, any chunk boundaries', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(payload, { minLength: 1, maxLength: 6 }),
				fc.record({ crlf: fc.boolean(), space: fc.boolean(), comments: fc.boolean(), multiline: fc.boolean() }),
				fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
				async (events, style, at) => {
					const eol = style.crlf ? '\r\n' : '\n';
					const text = events
						.map(e => {
							const data = JSON.stringify(e, null, style.multiline ? 1 : undefined).split('\n');
							const lines = [
								...(style.comments ? [': ping'] : []),
								...data.map(d => `data:${style.space ? ' ' : ''}${d}`),
							];
							return lines.join(eol) + eol + eol;
						})
						.join('');
					const got = await frames(cut(text, at));
					assert.deepStrictEqual(
						got.map(f => (f.kind === 'event' ? JSON.parse(f.data) : f)),
						events.map(e => ({ ...e })),
					);
				},
			),
			{ numRuns: 150, seed: 21 },
		);
	});

	it('hands lines that are not SSE (a JSON error sent as is) to the reader as raw lines', async () => {
		const got = await frames(['{"error": {"message": "quota exceeded"}}\n']);
		assert.deepStrictEqual(got, [{ kind: 'raw', line: '{"error": {"message": "quota exceeded"}}' }]);
	});

	it('a settled response ends after a quiet moment even when the server keeps the socket open', async () => {
		let settled = false;
		const pieces: string[] = [];
		for await (const piece of bodyText(
			streamOf(['data: {"a":1}\n\n'], true),
			{ ended: () => false, settled: () => settled },
			50,
		)) {
			pieces.push(piece);
			settled = true;
		}
		assert.deepStrictEqual(pieces, ['data: {"a":1}\n\n']);
	});

	it('recognises an error in every envelope servers use, and nothing else', () => {
		const errors = [
			{ error: 'boom' },
			{ error: { message: 'boom', type: 'server_error' } },
			{ object: 'error', message: 'boom', code: 500 },
			{ type: 'error', error: { type: 'overloaded_error', message: 'boom' } },
			{ detail: 'boom' },
			{ choices: [{ finish_reason: 'error', delta: {} }], error: { message: 'boom' } },
			[{ error: { code: 429, message: 'boom', status: 'RESOURCE_EXHAUSTED' } }],
		];
		for (const e of errors) {
			assert.strictEqual(payloadError(e)?.message, 'boom', JSON.stringify(e));
		}
		for (const ok of [
			{ choices: [{ delta: { content: 'hi' } }] },
			{ type: 'message_delta' },
			{ message: { content: 'x' } },
		]) {
			assert.strictEqual(payloadError(ok), undefined, JSON.stringify(ok));
		}
	});

	it('a call sent again under its index or id is merged, never doubled', () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.record({
						name: fc.constantFrom('read_file', 'list_directory'),
						path: fc.stringMatching(/^[a-z]{1,6}\.txt$/),
					}),
					{ minLength: 1, maxLength: 4 },
				),
				fc.integer({ min: 1, max: 4 }),
				fc.boolean(),
				(calls, split, byId) => {
					const assembler = new ToolCallAssembler();
					calls.forEach((call, index) => {
						const args = JSON.stringify({ path: call.path });
						const size = Math.ceil(args.length / split);
						assembler.add({ index, id: `c${index}`, function: { name: call.name, arguments: '' } }, index);
						for (let at = 0; at < args.length; at += size) {
							assembler.add({ index, function: { arguments: args.slice(at, at + size) } }, index);
						}
					});
					// The server repeats every finished call whole, under its index or (at another index) its id.
					calls.forEach((call, index) => {
						const again = {
							id: `c${index}`,
							function: { name: call.name, arguments: JSON.stringify({ path: call.path }) },
						};
						assembler.add(byId ? { ...again, index: index + 10 } : { ...again, index }, index);
					});
					assert.deepStrictEqual(
						assembler.finish(i => `x${i}`).map(c => [c.name, JSON.parse(c.rawArguments).path]),
						calls.map(c => [c.name, c.path]),
					);
				},
			),
			{ numRuns: 200, seed: 22 },
		);
	});

	it('ids go out in the form each server takes, the same every time, distinct for distinct ids', () => {
		fc.assert(
			fc.property(
				fc.uniqueArray(fc.string({ minLength: 1, maxLength: 60 }), { minLength: 2, maxLength: 8 }),
				ids => {
					for (const rule of ['openai', 'anthropic', 'nine'] as const) {
						const out = ids.map(id => wireId(id, rule));
						const pattern = {
							openai: /^[A-Za-z0-9_.:-]{1,40}$/,
							anthropic: /^[A-Za-z0-9_-]+$/,
							nine: /^[A-Za-z0-9]{9}$/,
						}[rule];
						out.forEach(id => assert.match(id, pattern));
						assert.deepStrictEqual(
							ids.map(id => wireId(id, rule)),
							out,
						);
						assert.strictEqual(new Set(out).size, ids.length);
					}
				},
			),
			{ numRuns: 200, seed: 23 },
		);
		assert.strictEqual(wireId('call_abc123', 'openai'), 'call_abc123', 'an id that passes is kept');
	});
});
