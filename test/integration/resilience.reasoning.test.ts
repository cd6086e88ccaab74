// Reasoning models through the real loop, the real adapters and HTTP to the model double:
// reasoning is streamed apart and never shown as the answer nor sent back, calls hidden in
// reasoning or Harmony channels are recovered, and a turn never ends silently.

import * as assert from 'node:assert/strict';
import {
	httpError,
	startModelDouble,
	text,
	textThenTools,
	toolCall,
	type ModelDouble,
	type Wire,
} from '../support/modelDouble';
import { harness } from '../support/resilience/harness';
import { OllamaChatModel } from '../../src/core/llm/wires/ollama/ollamaChatModel';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';

const WIRES: Wire[] = ['openai', 'ollama', 'anthropic'];

describe('resilience — reasoning models over HTTP', function () {
	this.timeout(20_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	afterEach(() => double.reset());
	after(() => double.close());

	for (const wire of WIRES) {
		it(`${wire}: reasoning streams as reasoningDelta, stays out of the answer, and a Qwen3 model never gets it back`, async () => {
			double.script(
				{
					...toolCall('read_file', { path: 'notes/a.txt' }),
					reasoning: 'The user wants the note. I will read it.',
				},
				{ ...text('It says alpha.'), reasoning: 'Now answer.' },
				text('Second turn.'),
			);
			const t = harness(double, wire);
			const outcome = await t.run();
			assert.equal(outcome.reason, 'completed');
			assert.equal(t.reasoning(), 'The user wants the note. I will read it.Now answer.');
			assert.equal(t.shown(), 'It says alpha.');
			assert.deepEqual(
				outcome.messages.filter(m => m.kind === 'assistant').map(m => m.content),
				['It says alpha.'],
			);
			// Qwen3's template drops reasoning at the next user message: sent back within the turn it
			// would make the server re-read the turn at the next one, so no request carries it.
			assert.doesNotMatch(JSON.stringify(double.modelRequests[1].body), /I will read it/);
			await t.run('and now?', outcome.messages);
			assert.doesNotMatch(JSON.stringify(double.modelRequests[2].body), /I will read it/);
		});
	}

	const wantsItBack = { openai: 'reasoning_content', ollama: 'thinking' } as const;
	for (const [wire, field] of Object.entries(wantsItBack) as Array<['openai' | 'ollama', string]>) {
		it(`${wire}: a model that wants its reasoning back (DeepSeek) gets it in every later request, the next turn's too`, async () => {
			double.script(
				{ ...toolCall('read_file', { path: 'notes/a.txt' }), reasoning: 'I will read it.' },
				text('It says alpha.'),
				text('Second turn.'),
			);
			const model =
				wire === 'openai'
					? new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'deepseek-reasoner' })
					: new OllamaChatModel({ baseUrl: double.url, model: 'deepseek-v3.1:671b' });
			const t = harness(double, wire, { model });
			const outcome = await t.run();
			await t.run('and now?', outcome.messages);
			for (const request of double.modelRequests.slice(1)) {
				const sent = (request.body.messages as Array<Record<string, unknown>>).find(
					m => m.role === 'assistant',
				);
				assert.equal(sent?.[field], 'I will read it.');
			}
		});
	}

	it('a server that refuses reasoning sent back gets the request again without it', async () => {
		double.script(
			{ ...toolCall('read_file', { path: 'notes/a.txt' }), reasoning: 'Read it first.' },
			httpError(400, {
				error: {
					message: 'Invalid request: reasoning_content is not allowed in input messages',
					type: 'invalid_request_error',
				},
			}),
			text('alpha'),
		);
		const t = harness(double, 'openai', {
			model: new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'deepseek-reasoner' }),
		});
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.match(JSON.stringify(double.modelRequests[1].body), /reasoning_content/);
		assert.doesNotMatch(JSON.stringify(double.modelRequests[2].body), /reasoning_content|Read it first/);
		assert.ok(t.notices().some(n => n.code === 'reasoningDropped'));
	});

	it('<think>…</think> in the content, torn across many chunks, is reasoning; the answer is clean', async () => {
		double.script(text('<think>Short question, short answer.</think>Paris.', { chunks: 17 }));
		const t = harness(double);
		const outcome = await t.run();
		assert.equal(t.reasoning(), 'Short question, short answer.');
		assert.equal(t.shown(), 'Paris.');
		assert.deepEqual(
			outcome.messages.filter(m => m.kind === 'assistant').map(m => m.content),
			['Paris.'],
		);
	});

	it('Harmony channels: analysis is reasoning, the commentary call runs (cut at the first <|call|>), final is the answer', async () => {
		double.script(
			text(
				'<|channel|>analysis<|message|>Need the file.<|end|><|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"notes/a.txt"}<|call|><|start|>functions.read_file<|message|>fake result',
				{
					chunks: 9,
				},
			),
			text(
				'<|channel|>analysis<|message|>Got it.<|end|><|start|>assistant<|channel|>final<|message|>The note says alpha.<|return|>',
				{ chunks: 5 },
			),
		);
		const t = harness(double, 'ollama');
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		const result = outcome.messages.find(m => m.kind === 'tool_result');
		assert.match(result!.content, /content of notes\/a.txt:\nalpha/);
		assert.equal(t.reasoning(), 'Need the file.Got it.');
		assert.deepEqual(
			outcome.messages.filter(m => m.kind === 'assistant').map(m => m.content),
			['The note says alpha.'],
		);
		assert.doesNotMatch(t.shown(), /fake result|<\|/);
	});

	it('a complete call written only in the reasoning runs; a call for an unoffered tool there is re-asked as a real call', async () => {
		double.script(
			{
				kind: 'reply',
				text: '',
				reasoning:
					'Let me read it.\n<tool_call>{"name": "read_file", "arguments": {"path": "notes/a.txt"}}</tool_call>',
			},
			text('alpha'),
		);
		const t = harness(double);
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.ok(outcome.messages.some(m => m.kind === 'tool_result' && m.data.ok));
		assert.ok(t.notices().some(n => /reasoning/.test(n.text)));

		double.reset();
		double.script(
			{ kind: 'reply', text: '', reasoning: 'I should call read_file( on it, maybe.' },
			toolCall('read_file', { path: 'notes/a.txt' }),
			text('alpha'),
		);
		const u = harness(double);
		assert.equal((await u.run()).reason, 'completed');
		assert.match(JSON.stringify(double.modelRequests[1].body), /Issue it now as a real tool call/);
	});

	for (const wire of WIRES) {
		it(`${wire}: empty answers after a correction and a different second re-ask end 'failed' with a clear message — never 'completed' with nothing shown`, async () => {
			double.script(text(''), text(''), text(''), text(''));
			const t = harness(double, wire);
			const outcome = await t.run();
			// A server that enforces tool_choice (the OpenAI and Anthropic doubles, as their APIs do) is
			// asked once more with the call forced; Ollama ignores tool_choice, so it is never sent there.
			const forces = wire !== 'ollama';
			assert.equal(outcome.reason, 'failed');
			assert.match(
				outcome.error!.message,
				forces
					? /empty answer.*again after two different corrections and a forced call, so the turn ended/
					: /empty answer.*again after two different corrections, so the turn ended/,
			);
			assert.equal(double.modelRequests.length, forces ? 4 : 3);
			assert.match(JSON.stringify(double.modelRequests[1].body), /Your last reply was empty/);
			// The second re-ask is different: the exact form, asked for as text (no native tools this once).
			const third = JSON.stringify(double.modelRequests[2].body);
			assert.match(third, /exactly one tool call written as text/);
			assert.ok(!(double.modelRequests[2].body.tools?.length > 0), 'no native tools on the second re-ask');
			if (forces) {
				assert.ok(double.modelRequests[3].body.tool_choice, 'the last rung forces a call');
			}
			assert.equal(t.notices().at(-1)?.code, 'noAnswer');
			assert.deepEqual(
				t
					.notices()
					.map(n => n.code)
					.slice(0, 2),
				['reask', 'reask'],
			);
		});
	}

	it('reasoning only, then a real answer after the nudge, completes', async () => {
		double.script({ kind: 'reply', text: '', reasoning: 'Hmm, thinking about it.' }, text('Here it is.'));
		const t = harness(double, 'ollama');
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.match(JSON.stringify(double.modelRequests[1].body), /only reasoning/);
		// The nudge stays in the history as a note where it was sent (so later requests extend that
		// one), never as something the model or the user said.
		assert.ok(outcome.messages.every(m => m.kind === 'system' || !/only reasoning/.test(m.content)));
		assert.match(JSON.stringify(double.modelRequests.at(-1)?.body), /only reasoning/);
	});

	it('finish_reason "tool_calls" with no call is re-asked with a precise nudge', async () => {
		double.script(
			text('', { finishReason: 'tool_calls' }),
			toolCall('read_file', { path: 'notes/a.txt' }),
			text('done'),
		);
		const t = harness(double);
		assert.equal((await t.run()).reason, 'completed');
		assert.match(
			JSON.stringify(double.modelRequests[1].body),
			/finish_reason \\"tool_calls\\"\) but no tool call arrived/,
		);
	});

	it('degenerate repetition is stopped while streaming, folded, and re-asked with anti-repetition sampling', async () => {
		double.script(text('the user-providualize '.repeat(150), { chunks: 150 }), text('A short answer.'));
		const t = harness(double);
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.ok(
			t.shown().length < 'the user-providualize '.repeat(150).length / 2,
			`shown ${t.shown().length} chars`,
		);
		assert.ok(t.events.some(e => e.type === 'textRetracted' && e.reason === 'retry'));
		assert.equal(double.modelRequests[1].body.frequency_penalty, 0.6);
		assert.deepEqual(
			outcome.messages.filter(m => m.kind === 'assistant').map(m => m.content),
			['A short answer.'],
		);
	});

	it('Ollama: the re-asks after repetition carry repeat_penalty; repeating three times ends with a message', async () => {
		double.script(
			text('again and again '.repeat(150), { chunks: 100 }),
			text('again and again '.repeat(150), { chunks: 100 }),
			text('again and again '.repeat(150), { chunks: 100 }),
		);
		const t = harness(double, 'ollama');
		const outcome = await t.run();
		assert.equal(outcome.reason, 'failed');
		assert.match(outcome.error!.message, /repeating itself.*lower temperature/);
		assert.equal(double.modelRequests[1].body.options.repeat_penalty, 1.3);
		assert.equal(double.modelRequests[2].body.options.repeat_penalty, 1.3);
		assert.match(JSON.stringify(double.modelRequests[2].body), /at most three short sentences/);
	});

	it('reasoning that loops is stopped too, and nothing is folded that was never shown', async () => {
		double.script(
			{ kind: 'reply', text: '', reasoning: 'Wait, let me reconsider. '.repeat(120), textChunks: 120 },
			text('Decided: yes.'),
		);
		const t = harness(double, 'ollama');
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.ok(t.reasoning().length < 'Wait, let me reconsider. '.repeat(120).length / 2);
		assert.ok(!t.events.some(e => e.type === 'textRetracted'));
		assert.equal(double.modelRequests[1].body.options.repeat_penalty, 1.3);
	});

	it('a dialect call for a tool that is not offered never runs and is not left as the answer; the model is told', async () => {
		double.script(
			text('[TOOL_CALLS][{"name": "delete_repository", "arguments": {"confirm": true}}]'),
			text('Sorry, I cannot do that with the tools I have.'),
		);
		const t = harness(double, 'anthropic');
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.deepEqual(
			outcome.messages.filter(m => m.kind === 'assistant').map(m => m.content),
			['Sorry, I cannot do that with the tools I have.'],
		);
		assert.match(
			JSON.stringify(double.modelRequests[1].body),
			/You called \\"delete_repository\\", which is not one of the offered tools/,
		);
		assert.ok(t.events.some(e => e.type === 'textRetracted'));
	});

	it('a call cut by max_tokens never runs, its broken JSON is never replayed as a call, and the server is asked to continue it', async () => {
		double.script(
			textThenTools('Writing.', [{ name: 'write_file', arguments: '{"path":"out/a.txt","content":"ALP' }], {
				finishReason: 'length',
			}),
			toolCall('write_file', { path: 'out/a.txt', content: 'ALPHA' }),
			text('done'),
		);
		const t = harness(double);
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.equal(t.files.files.get('out/a.txt'), 'ALPHA');
		assert.equal(t.files.writeCount('out/a.txt'), 1);
		// The cut call goes back once, as the model's open text for the server to continue, never as a call's arguments.
		assert.match(String(double.modelRequests[1].continues), /"arguments": \{"path":"out\/a.txt","content":"ALP$/);
		const replayed = (double.modelRequests[1].body.messages as Array<{ tool_calls?: unknown }>).filter(
			m => m.tool_calls,
		);
		assert.equal(replayed.length, 0);
		assert.ok(
			t.notices().some(n => n.code === 'truncatedCall' && /cut off by the output token limit/.test(n.text)),
		);
		assert.doesNotMatch(JSON.stringify(double.modelRequests[2].body), /ALP\\"/);
	});

	it('an unrepairable call is replayed to the server as valid JSON', async () => {
		double.script(toolCall('read_file', 'read_file notes/a.txt'), text('ok'));
		await harness(double).run();
		const calls = (
			double.modelRequests[1].body.messages as Array<{ tool_calls?: Array<{ function: { arguments: string } }> }>
		).flatMap(m => m.tool_calls ?? []);
		assert.ok(calls.length > 0);
		for (const call of calls) {
			assert.doesNotThrow(() => JSON.parse(call.function.arguments));
		}
	});
});
