// What a server says is read wherever and however it says it, through the real loop and HTTP
// to the model double on the wires each shape belongs to: argument deltas in every shape a
// server streams them, an error object on an SSE line whose field is not `data:`, a limit the
// request alone exceeds, and every stop reason by its meaning.

import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { HttpModelServer } from '../../src/core/llm/catalog/modelServer';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import {
	httpError,
	startModelDouble,
	text,
	toolCall,
	withFaults,
	wireError,
	type ArgDeltaShape,
	type ModelDouble,
	type RecordedRequest,
	type Wire,
} from '../support/modelDouble';
import { harness } from '../support/resilience/harness';
import { InMemoryOutputStore } from '../../src/core/tools/outputStore';
import { createSearchTools } from '../../src/core/tools/search/searchTools';
import { defaultToolDeps } from '../../src/core/tools/toolDeps';
import { ToolRegistry } from '../../src/core/tools/registry';
import { logReadHistory } from '../support/resilience/logHistory';

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
const history = () => logReadHistory(3, 'a line of an old log file', 400, 'The logs are long.');

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

	describe('a context error after a large tool result (a 400 KB log on a 6k window)', () => {
		const big = Array.from(
			{ length: 8000 },
			(_, i) => `2026-11-01T00:00:${i} worker ${i % 7} processed batch ${i}`,
		).join('\n');
		const tokens = (req: RecordedRequest) => Math.ceil(JSON.stringify(req.body).length / 4);
		// llama-server's words and numbers (ggml-org/llama.cpp#15780) from a server that does not say its window beforehand.
		const small = (req: RecordedRequest) =>
			tokens(req) >= 6144
				? httpError(400, {
						error: {
							code: 400,
							message: `request (${tokens(req)} tokens) exceeds the available context size (6144 tokens), try increasing it`,
							type: 'exceed_context_size_error',
							n_prompt_tokens: tokens(req),
							n_ctx: 6144,
						},
					})
				: text('The log ends with batch 7999.');
		const lastResult = (req: RecordedRequest) => JSON.stringify(req.body).slice(-3000);

		it('the newest result is sent in part, with how to read the rest: the request is not sent the same again', async () => {
			double.script(toolCall('read_file', { path: 'logs/big.log' }), small, small, small);
			const h = harness(double, 'openai');
			h.files.files.set('logs/big.log', big);
			const outcome = await h.run('How does the log end?');
			assert.equal(outcome.reason, 'completed');
			assert.equal(double.modelRequests.length, 3, 'the call, the refused request, the one that fits');
			assert.ok(tokens(double.modelRequests[2]) < 6144 * 0.8, `fits: ${tokens(double.modelRequests[2])}`);
			const sent = JSON.stringify(double.modelRequests[2].body);
			assert.match(sent, /left out so the request fits/);
			assert.match(sent, /batch 7999/, 'the end of the output is kept');
			assert.match(lastResult(double.modelRequests[2]), /processed batch|narrower part/);
			// The chat keeps the output whole.
			const result = outcome.messages.find(m => m.kind === 'tool_result');
			assert.ok(result && result.content.length > big.length, 'whole in the history');
		});

		for (const wire of WIRES) {
			it(`${wire}: the part left out is kept whole in the output store, and the model pages it with read_output`, async () => {
				const outputs = new InMemoryOutputStore();
				const readOutput = createSearchTools(defaultToolDeps({ outputs })).filter(
					t => t.name === 'read_output',
				);
				let paged = false;
				const step = (req: RecordedRequest) => {
					if (tokens(req) >= 6144) return small(req);
					if (paged) return text('Batch 4000 was processed by worker 3.');
					const ref = /read_output \{\\?"ref\\?":\\?"(out_[\w-]+)/.exec(JSON.stringify(req.body))?.[1];
					paged = true;
					return ref ? toolCall('read_output', { ref, offset: 4001, limit: 2 }) : text('no reference given');
				};
				double.script(toolCall('read_file', { path: 'logs/big.log' }), step, step, step, step);
				const h = harness(double, wire, { outputs, sessionId: 'chat-1' });
				h.files.files.set('logs/big.log', big);
				const registry = new ToolRegistry([...h.files.tools(), ...readOutput]);
				const outcome = await harness(double, wire, {
					outputs,
					sessionId: 'chat-1',
					registry,
					workspace: h.files.workspace,
				}).run('What happened to batch 4000?');
				assert.equal(outcome.reason, 'completed', outcome.error?.message);
				const sentCut = JSON.stringify(double.modelRequests[2].body);
				assert.doesNotMatch(sentCut, /processed batch 4000\b/, 'the middle was left out of the request');
				// The middle the request left out comes back from the store, word for word.
				const paging = outcome.messages.filter(m => m.kind === 'tool_result').at(-1);
				assert.equal(
					paging?.kind === 'tool_result' && paging.data.name,
					'read_output',
					(sentCut.match(/.{200}left out so.{300}/) ?? [''])[0],
				);
				assert.match(paging?.content ?? '', /2026-11-01T00:00:4000 worker 3 processed batch 4000/);
				assert.equal(outcome.messages.at(-1)?.content, 'Batch 4000 was processed by worker 3.');
			});
		}

		it('a server that says its window beforehand gets the cut request at once', async () => {
			const persona = await startModelDouble({ server: { kind: 'llamacpp', nCtx: 6144 } });
			try {
				persona.script(toolCall('read_file', { path: 'logs/big.log' }), text('The log ends with batch 7999.'));
				// A model that asks its server what it runs, as the extension's are made.
				const server = new HttpModelServer({
					provider: 'llamacpp',
					wire: 'openai',
					baseUrl: persona.openaiBaseUrl,
					model: 'qwen3:8b',
				});
				const model = new OpenAIChatModel({ baseUrl: persona.openaiBaseUrl, model: 'qwen3:8b', server });
				const h = harness(persona, 'openai', { model });
				h.files.files.set('logs/big.log', big);
				const outcome = await h.run('How does the log end?');
				assert.equal(outcome.reason, 'completed');
				assert.equal(persona.modelRequests.length, 2, 'nothing refused');
				assert.match(JSON.stringify(persona.modelRequests[1].body), /left out so the request fits/);
			} finally {
				await persona.close();
			}
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

		it('anthropic "pause_turn": the turn goes on from what was written, the model\'s message last', async () => {
			double.script(text('Searching the first half.', { finishReason: 'pause_turn' }), text(' Done: 42.'));
			const h = harness(double, 'anthropic');
			const outcome = await h.run('go');
			assert.equal(outcome.reason, 'completed');
			assert.equal(double.modelRequests.length, 2);
			const sent = double.modelRequests[1].body.messages as Array<{ role: string; content: unknown }>;
			assert.equal(sent.at(-1)?.role, 'assistant');
			assert.match(JSON.stringify(sent.at(-1)?.content), /Searching the first half\./);
			assert.match(h.shown(), /Searching the first half\.[\s\S]*Done: 42\./);
		});

		it('a server that keeps pausing is sent back three times, then what was written is the answer', async () => {
			const pause = text('More.', { finishReason: 'pause_turn' });
			double.script(pause, pause, pause, pause, pause);
			const h = harness(double, 'anthropic');
			const outcome = await h.run('go');
			assert.equal(outcome.reason, 'completed');
			assert.equal(double.modelRequests.length, 4);
		});

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
