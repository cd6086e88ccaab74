// What a server says is read wherever and however it says it, through the real loop and HTTP
// to the model double on the wires each shape belongs to: argument deltas in every shape a
// server streams them, an error object on an SSE line whose field is not `data:`, a limit the
// request alone exceeds, and every stop reason by its meaning.

import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import type { CanonicalMessage } from '../../src/core/llm/canonical';
import {
	startModelDouble,
	text,
	toolCall,
	withFaults,
	wireError,
	type ArgDeltaShape,
	type ModelDouble,
	type Wire,
} from '../support/modelDouble';
import { harness } from '../support/resilience/harness';

const SHAPES: ArgDeltaShape[] = ['pieces', 'accumulated', 'repeatComplete', 'objectPieces'];
const WIRES: Wire[] = ['openai', 'ollama', 'anthropic'];

/** File bodies with what breaks naive joining: quotes, braces, backslashes, newlines, non-ASCII. */
const body = fc
	.array(
		fc.constantFrom(
			'const a = {"b": 1};',
			'line with "quotes"',
			'path\\to\\file',
			'naïve café ✓',
			'}{',
			'plain words here',
			'\ttabbed',
		),
		{ minLength: 1, maxLength: 6 },
	)
	.map(lines => lines.join('\n'));

/** An earlier turn that read large logs: what a shrunk request leaves out. */
function history(): CanonicalMessage[] {
	const out: CanonicalMessage[] = [{ kind: 'user', content: 'Read the logs.' }];
	for (let i = 0; i < 3; i++) {
		const id = `old${i}`;
		const output = `log ${i}\n${'a line of an old log file\n'.repeat(400)}`;
		out.push({
			kind: 'tool_call',
			content: '',
			data: {
				id,
				name: 'read_file',
				rawArguments: `{"path":"logs/${i}.txt"}`,
				arguments: { path: `logs/${i}.txt` },
			},
		});
		out.push({
			kind: 'tool_result',
			content: output,
			data: { toolCallId: id, name: 'read_file', output, ok: true },
		});
	}
	out.push({ kind: 'assistant', content: 'The logs are long.' });
	return out;
}

const size = (double: ModelDouble, i: number) => JSON.stringify(double.modelRequests[i].body).length;

describe('resilience — what a server says, read wherever it says it (real loop, HTTP)', function () {
	this.timeout(60_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	afterEach(() => double.reset());
	after(() => double.close());

	describe('argument deltas in every shape (OpenAI-compatible wire)', () => {
		for (const shape of SHAPES) {
			it(`${shape}: the call runs once with exactly the arguments sent, and the turn goes on`, async () => {
				const cases = fc.sample(fc.tuple(body, fc.integer({ min: 1, max: 9 })), { seed: 31, numRuns: 6 });
				for (const [content, split] of cases) {
					double.reset();
					double.script(
						{ ...toolCall('write_file', { path: 'out.txt', content }, { split }), argDeltas: shape },
						text('Written.'),
					);
					const h = harness(double, 'openai');
					const outcome = await h.run('write it');
					const where = `${shape} split ${split}: ${JSON.stringify(content)}`;
					assert.equal(outcome.reason, 'completed', where);
					assert.equal(h.files.files.get('out.txt'), content, where);
					assert.equal(h.files.writeCount('out.txt'), 1, where);
					// One request for the call, one for the answer: nothing was asked again.
					assert.equal(double.modelRequests.length, 2, where);
				}
			});
		}

		it('object-valued deltas with a string cut over several chunks are one call, as MiniMax streams them', async () => {
			double.script(
				{
					...toolCall(
						'write_file',
						{ path: 'notes/b.txt', content: 'first half, then the second half' },
						{ split: 4 },
					),
					argDeltas: 'objectPieces',
				},
				text('Done.'),
			);
			const h = harness(double, 'openai');
			const outcome = await h.run('write b');
			assert.equal(outcome.reason, 'completed');
			assert.equal(h.files.files.get('notes/b.txt'), 'first half, then the second half');
			const frames = double.modelRequests[0].response!.frames;
			assert.ok(frames >= 6, `the arguments arrived over several object deltas (${frames} frames)`);
		});
	});

	describe("llama-server's context error on an `error:` line of a 200 stream", () => {
		// The frame as llama-server wrote it before ggml-org/llama.cpp#16109.
		const contextError = {
			error: {
				code: 400,
				message:
					'the request exceeds the available context size. try increasing the context size or enable context shift',
				type: 'invalid_request_error',
			},
		};
		for (const after of [0, 1]) {
			it(`after ${after} frame(s): read as a full context, the request shrunk and sent once more`, async () => {
				double.script(
					withFaults(text('never shown'), {
						errorAfter: after,
						streamErrorShape: 'field',
						streamErrorBody: contextError,
					}),
					text('The logs are fine.'),
				);
				const h = harness(double, 'openai');
				const outcome = await h.run('And now?', history());
				assert.equal(outcome.reason, 'completed');
				assert.equal(double.modelRequests.length, 2);
				assert.ok(size(double, 1) < size(double, 0) / 2, 'the second request is the smaller one');
				assert.ok(h.notices().some(n => n.code === 'contextOverflow'));
				assert.ok(!h.notices().some(n => n.code === 'noAnswer'), 'never read as an empty answer');
				assert.doesNotMatch(h.shown(), /never shown/);
			});
		}

		it("refused again after shrinking: stops with the server's words, not an empty answer", async () => {
			const step = withFaults(text('x'), {
				errorAfter: 1,
				streamErrorShape: 'field',
				streamErrorBody: contextError,
			});
			double.script(step, step, step);
			const h = harness(double, 'openai');
			const outcome = await h.run('And now?', history());
			assert.equal(outcome.reason, 'failed');
			assert.equal(double.modelRequests.length, 2);
			assert.match(outcome.error!.message, /context/i);
		});
	});

	describe('a limit the request alone exceeds ("Limit 6000, Requested 7000")', () => {
		// Groq's words, as users report them (ITSpecialist111/ai_automation_suggester#61; HTTP 413 in
		// zeeyado/koassistant.koplugin#106): waiting never makes the request fit.
		const groq =
			'Request too large for model `llama-3.3-70b-versatile` in organization `org_01` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 7000, please reduce your message size and try again. Visit https://console.groq.com/docs/rate-limits for more information.';
		for (const wire of WIRES) {
			for (const status of [413, 429]) {
				it(`${wire}, HTTP ${status}: shrunk once and sent again, never waited for as busy`, async () => {
					double.script(
						wireError(status, groq, { type: 'tokens', code: 'rate_limit_exceeded' }),
						text('Fine.'),
					);
					const h = harness(double, wire);
					const outcome = await h.run('And now?', history());
					assert.equal(outcome.reason, 'completed');
					assert.equal(double.modelRequests.length, 2);
					assert.ok(size(double, 1) < size(double, 0) / 2, 'the request was shrunk');
					assert.ok(!h.notices().some(n => n.code === 'transportRetry'), 'not retried as a rate limit');
				});
			}
			it(`${wire}: still over after shrinking, says what to change after two requests`, async () => {
				const refuse = wireError(413, groq, { type: 'tokens', code: 'rate_limit_exceeded' });
				double.script(refuse, refuse, refuse, refuse, refuse, refuse, refuse);
				const h = harness(double, wire);
				const outcome = await h.run('And now?', history());
				assert.equal(outcome.reason, 'failed');
				assert.equal(double.modelRequests.length, 2);
				assert.match(outcome.error!.message, /allows 6000 tokens.*waiting does not change that/);
			});
		}

		it('the same words in a 200 stream (OpenAI-compatible error event) are read the same', async () => {
			const inStream = withFaults(text('x'), {
				errorAfter: 1,
				streamErrorBody: { error: { message: groq, type: 'tokens', code: 'rate_limit_exceeded' } },
			});
			double.script(inStream, text('Fine.'));
			const h = harness(double, 'openai');
			const outcome = await h.run('And now?', history());
			assert.equal(outcome.reason, 'completed');
			assert.equal(double.modelRequests.length, 2);
			assert.ok(size(double, 1) < size(double, 0) / 2);
		});
	});

	describe('stop reasons by meaning', () => {
		it("Anthropic's model_context_window_exceeded: compacted and sent once more, not taken as the answer", async () => {
			double.script(
				text('I was in the middle of', { finishReason: 'model_context_window_exceeded' }),
				text('Done.'),
			);
			const h = harness(double, 'anthropic');
			const outcome = await h.run('And now?', history());
			assert.equal(outcome.reason, 'completed');
			assert.equal(double.modelRequests.length, 2);
			assert.ok(size(double, 1) < size(double, 0) / 2, 'the second request is the smaller one');
			assert.ok(h.notices().some(n => n.code === 'contextOverflow'));
			const last = outcome.messages.filter(m => m.kind === 'assistant').at(-1);
			assert.equal(last?.content, 'Done.');
		});

		// The reasons each wire can carry, and what the user must read for each.
		const SAID: Array<[Wire, string, RegExp]> = [
			['anthropic', 'refusal', /refused/],
			['openai', 'content_filter', /content filter/],
			['openai', 'refusal', /refused/],
			['anthropic', 'pause_turn', /paused/],
			['openai', 'SAFETY', /content filter/],
			['anthropic', 'some_new_reason', /does not know \("some_new_reason"\)/],
			['openai', 'some_new_reason', /does not know \("some_new_reason"\)/],
			['ollama', 'some_new_reason', /does not know \("some_new_reason"\)/],
		];
		for (const [wire, reason, said] of SAID) {
			it(`${wire} "${reason}": said in the chat, what was written kept, nothing guessed`, async () => {
				double.script(text('Partial words.', { finishReason: reason }), text('More.'));
				const h = harness(double, wire);
				const outcome = await h.run('go');
				const notice = h.notices().find(n => n.code === 'stopReason');
				assert.ok(notice, `a stopReason notice for ${reason}`);
				assert.match(notice.text, said);
				assert.match(h.shown(), /Partial words\./);
				assert.notEqual(outcome.reason, 'failed');
			});
		}

		for (const wire of WIRES) {
			const reason = wire === 'anthropic' ? 'end_turn' : 'stop';
			it(`${wire} "${reason}" is an answer, not a stop-reason notice`, async () => {
				double.script(text('All done.', { finishReason: reason }));
				const h = harness(double, wire);
				await h.run('go');
				assert.ok(!h.notices().some(n => n.code === 'stopReason'));
			});
		}
	});
});
