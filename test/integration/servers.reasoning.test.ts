// Reasoning kept as the template expects and bounded when it runs away, through the real loop
// over HTTP. As llama.cpp the double takes `reasoning_budget_tokens` (it ends the reasoning
// there and writes `reasoning_budget_message`) and reports its template's
// `supports_preserve_reasoning` in /props; vLLM and llama.cpp honour
// `chat_template_kwargs.enable_thinking: false`, Ollama `think: false`.
// References: https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md
// (--reasoning-budget, --reasoning-preserve, GET /props), https://github.com/ggml-org/llama.cpp/issues/22746 (a template that drops
// reasoning rewrites the history and re-prefills), https://github.com/ollama/ollama/blob/main/docs/api.md (think).
import * as assert from 'node:assert/strict';
import { startModelDouble, text, toolCall, type ModelDouble, type ServerPersona } from '../support/modelDouble';
import { serverSession } from '../support/servers/serverSession';

const WORDS = [
	'cache',
	'parser',
	'index',
	'schema',
	'buffer',
	'token',
	'module',
	'branch',
	'socket',
	'thread',
	'lexer',
];
/** Reasoning that goes on and on without repeating itself: ~5,000 tokens of it, streamed in 100 pieces. */
const runaway = () => ({
	reasoning: Array.from(
		{ length: 560 },
		(_, i) => `Thought ${i}: weigh the ${WORDS[(i * 7) % 11]} against the ${WORDS[(i * 5 + 3) % 11]} once more.`,
	).join(' '),
	textChunks: 100,
	delayMs: 2,
});

async function withDouble(
	server: ServerPersona | undefined,
	models: string[],
	run: (double: ModelDouble) => Promise<void>,
) {
	const double = await startModelDouble({ models, server });
	try {
		await run(double);
	} finally {
		await double.close();
	}
}

describe('reasoning kept and bounded (HTTP, real loop)', function () {
	this.timeout(30_000);

	it('llama.cpp takes the budget: the server ends the reasoning itself and the answer follows, with no stop', () =>
		withDouble({ kind: 'llamacpp', nCtx: 65_536 }, ['keel-noise'], async double => {
			double.script({ ...text('The answer.'), ...runaway() });
			const s = serverSession(double, {
				provider: 'llamacpp',
				model: 'keel-noise',
				recovery: { reasoningBudget: 512 },
			});
			const outcome = await s.chat.send('Think, then answer.');
			assert.equal(outcome.reason, 'completed');
			const body = double.modelRequests[0].body;
			assert.equal(body.reasoning_budget_tokens, 512);
			assert.match(body.reasoning_budget_message, /answer, or make the tool call/);
			assert.equal(double.modelRequests.length, 1, 'no stop, no re-ask');
			assert.deepEqual(s.notices('reask'), []);
			assert.equal(outcome.messages.at(-1)?.content, 'The answer.');
		}));

	it('vLLM takes no budget: Keel stops the runaway reasoning, says so, and asks for the answer without thinking', () =>
		withDouble({ kind: 'vllm', maxModelLen: 32_768 }, ['Qwen/Qwen3-8B'], async double => {
			double.script({ ...text('never shown'), ...runaway() }, text('The answer, at last.'));
			const s = serverSession(double, {
				provider: 'custom',
				model: 'Qwen/Qwen3-8B',
				recovery: { reasoningBudget: 512 },
			});
			const outcome = await s.chat.send('Think, then answer.');
			assert.equal(outcome.reason, 'completed');
			assert.equal(outcome.messages.at(-1)?.content, 'The answer, at last.');
			const [reask] = s.notices('reask');
			assert.match(
				reask.text,
				/reasoned past 512 tokens \(keel\.model\.reasoningBudget\) without answering or calling a tool; the reasoning was stopped; asked it again for the answer or the call without more thinking/,
			);
			const [first, second] = double.modelRequests;
			assert.ok((first.response?.frames ?? 0) < 100, 'the runaway stream was cut, not read to its end');
			assert.equal(
				first.body.reasoning_budget_tokens,
				undefined,
				'a budget goes only to a server that takes one',
			);
			assert.deepEqual(second.body.chat_template_kwargs, { enable_thinking: false });
			assert.match(JSON.stringify(second.body.messages.at(-1)), /reasoning ran past its budget/);
		}));

	it('Ollama: the re-ask carries think: false', () =>
		withDouble(undefined, ['qwen3:8b'], async double => {
			double.script(
				{ ...text('never shown'), ...runaway() },
				{ ...text('Answered.'), reasoning: 'more thinking' },
			);
			const s = serverSession(double, {
				provider: 'ollama',
				model: 'qwen3:8b',
				recovery: { reasoningBudget: 512 },
			});
			const outcome = await s.chat.send('Think, then answer.');
			assert.equal(outcome.reason, 'completed');
			assert.equal(double.modelRequests[0].body.think, undefined);
			assert.equal(double.modelRequests[1].body.think, false);
			assert.equal(outcome.messages.at(-1)?.content, 'Answered.');
		}));

	it('reasoning within the bound, then a call: nothing is stopped or asked again', () =>
		withDouble({ kind: 'vllm', maxModelLen: 32_768 }, ['Qwen/Qwen3-8B'], async double => {
			// ~450 tokens of reasoning (1,800 characters): under a 512-token bound, though over 512 characters.
			const reasoning = runaway().reasoning.slice(0, 1800);
			double.script(
				{ ...toolCall('read_file', { path: 'README.md' }), reasoning, textChunks: 20 },
				text('It says 42.'),
			);
			const s = serverSession(double, {
				provider: 'custom',
				model: 'Qwen/Qwen3-8B',
				recovery: { reasoningBudget: 512 },
			});
			const outcome = await s.chat.send('Read it.');
			assert.equal(outcome.reason, 'completed');
			assert.deepEqual(s.notices('reask'), []);
			assert.equal(double.modelRequests.length, 2, 'the call ran, then the answer');
			assert.equal(outcome.messages.at(-1)?.content, 'It says 42.');
		}));

	for (const preserve of [true, false]) {
		it(`llama.cpp with a template that ${preserve ? 'keeps' : 'drops'} earlier reasoning: it is ${preserve ? '' : 'not '}sent back`, () =>
			withDouble({ kind: 'llamacpp', nCtx: 65_536, preserveReasoning: preserve }, ['qwen3'], async double => {
				double.script(
					{ ...toolCall('read_file', { path: 'README.md' }), reasoning: 'I will read it first.' },
					text('It says 42.'),
					text('Still 42.'),
				);
				const s = serverSession(double, { provider: 'llamacpp', model: 'qwen3' });
				await s.chat.send('What does the README say?');
				await s.chat.send('And again?');
				for (const request of double.modelRequests.slice(1)) {
					const assistant = request.body.messages.find((m: { role: string }) => m.role === 'assistant');
					assert.equal(assistant.reasoning_content, preserve ? 'I will read it first.' : undefined);
				}
			}));
	}
});
