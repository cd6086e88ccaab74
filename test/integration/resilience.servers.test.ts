// Server errors that are not the model's fault, with the bodies real servers send, through the
// real loop, the real adapters and HTTP: what is retried, what switches mode, what stops and
// what the user reads.

import * as assert from 'node:assert/strict';
import { presets, httpError, text, toolCall, toolCalls, withFaults, type ModelDouble } from '../support/modelDouble';
import { startModelDouble } from '../support/modelDouble';
import { harness } from '../support/resilience/harness';

describe('resilience — server errors classified by their real bodies', function () {
	this.timeout(20_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	afterEach(() => double.reset());
	after(() => double.close());

	it('a billing error sent as HTTP 429 (Z.AI 1113) is not retried as a rate limit and says what to do', async () => {
		double.script(
			httpError(429, {
				error: { code: '1113', message: 'Insufficient balance or no resource package. Please recharge.' },
			}),
			text('never'),
		);
		const outcome = await harness(double).run();
		assert.equal(outcome.reason, 'failed');
		assert.equal(double.modelRequests.length, 1);
		assert.match(
			outcome.error!.message,
			/Insufficient balance.*billing or balance problem, not a rate limit.*top up/,
		);
	});

	it('Anthropic 529 overloaded_error and a mid-stream `event: error` are retried, and the turn completes', async () => {
		double.script(
			presets.anthropicOverloaded(),
			withFaults(text('Partial answer that breaks'), {
				errorAfter: 3,
				streamError: { type: 'overloaded_error', message: 'Overloaded' },
			}),
			text('All good.'),
		);
		const t = harness(double, 'anthropic');
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.deepEqual(
			t.notices().map(n => n.code),
			['transportRetry', 'streamRetry'],
		);
		assert.match(t.notices()[0].text, /overloaded \(529\)/i);
		assert.deepEqual(
			outcome.messages.filter(m => m.kind === 'assistant').map(m => m.content),
			['All good.'],
		);
	});

	it('Ollama "does not support tools": switches this model to text-mode calls and goes on', async () => {
		double.script(
			httpError(400, { error: 'registry.ollama.ai/library/gemma3:4b does not support tools' }),
			text('<tool_call>{"name": "read_file", "arguments": {"path": "notes/a.txt"}}</tool_call>'),
			text('It says alpha.'),
		);
		const t = harness(double, 'ollama');
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.equal(double.modelRequests[1].body.tools, undefined);
		assert.match(double.modelRequests[1].body.messages[0].content, /<tool_call>/);
		assert.ok(outcome.messages.some(m => m.kind === 'tool_result' && m.data.ok));
		assert.match(t.notices()[0].text, /does not take native tool calls.*switched to text-mode/);
	});

	it('vLLM without --enable-auto-tool-choice: the notice names the server flags, and the turn goes on in text mode', async () => {
		double.script(
			httpError(400, {
				object: 'error',
				message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
				type: 'BadRequestError',
				param: null,
				code: 400,
			}),
			text('Hello.'),
		);
		const t = harness(double);
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.match(t.notices()[0].text, /--enable-auto-tool-choice and --tool-call-parser/);
	});

	for (const [name, body] of [
		['llama.cpp', presets.llamacppContextExceeded(40_000, 4096)],
		[
			'vLLM',
			httpError(400, {
				object: 'error',
				message:
					"This model's maximum context length is 4096 tokens. However, you requested 41024 tokens (40000 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.",
				type: 'BadRequestError',
				param: null,
				code: 400,
			}),
		],
		['OpenAI', presets.openaiContextLengthExceeded(4096, 40_000)],
		// Ollama's runner when it will not truncate (its log: "input exceeds context length" prompt=2782 limit=2048).
		['Ollama', httpError(500, { error: 'input exceeds context length' })],
	] as const) {
		it(`${name} context exceeded: compacts and retries once, then stops with the numbers and what to change`, async () => {
			double.script(body, body, text('never'));
			const t = harness(double);
			const outcome = await t.run();
			assert.equal(outcome.reason, 'failed');
			assert.equal(double.modelRequests.length, 2);
			assert.match(
				outcome.error!.message,
				/Keel sent about \d+ tokens after compacting .*keel\.model\.contextWindow = \d+.*--ctx-size.*--max-model-len/,
			);
			assert.ok(t.notices().some(n => n.code === 'contextOverflow'));
		});
	}

	it('an error body in another envelope ({"detail": …}) still reaches the user in the server\'s words', async () => {
		const odd = httpError(400, { detail: 'Model qwen3 is still loading weights' });
		double.script(odd, odd, odd);
		const outcome = await harness(double).run();
		assert.match(outcome.error!.message, /still loading weights/);
	});

	it('empty and duplicate call ids still get one result each, matched to distinct ids', async () => {
		double.script(
			toolCalls([
				{ name: 'read_file', arguments: { path: 'notes/a.txt' }, id: 'call_0' },
				{ name: 'list_directory', arguments: { path: 'notes' }, id: 'call_0' },
			]),
			text('ok'),
		);
		const outcome = await harness(double).run();
		const ids = outcome.messages.flatMap(m => (m.kind === 'tool_call' ? [m.data.id] : []));
		assert.equal(new Set(ids).size, 2);
		const answered = outcome.messages.flatMap(m => (m.kind === 'tool_result' ? [m.data.toolCallId] : []));
		assert.deepEqual(answered, ids);
		const wire = (double.modelRequests[1].body.messages as Array<{ role: string; tool_call_id?: string }>)
			.filter(m => m.role === 'tool')
			.map(m => m.tool_call_id);
		assert.deepEqual(wire, ids);
	});

	it('the legacy function_call field and arguments sent as an object are calls like any other', async () => {
		double.script(
			{ ...toolCall('read_file', { path: 'notes/a.txt' }), callShape: 'legacyFunctionCall' },
			{ ...toolCall('list_directory', { path: 'notes' }), callShape: 'objectArguments' },
			text('ok'),
		);
		const outcome = await harness(double).run();
		assert.equal(outcome.reason, 'completed');
		assert.deepEqual(
			outcome.messages
				.filter(m => m.kind === 'tool_result')
				.map(m => m.kind === 'tool_result' && [m.data.name, m.data.ok]),
			[
				['read_file', true],
				['list_directory', true],
			],
		);
	});

	it('near-miss argument keys are mapped when one property fits (file_path → path), on every wire', async () => {
		for (const wire of ['openai', 'ollama', 'anthropic'] as const) {
			double.reset();
			double.script(toolCall('read_file', { file_path: 'notes/a.txt' }), text('ok'));
			const t = harness(double, wire);
			const outcome = await t.run();
			assert.match(
				outcome.messages.find(m => m.kind === 'tool_result')!.content,
				/content of notes\/a.txt/,
				wire,
			);
			assert.ok(
				t.notices().some(n => /renamed "file_path" to "path"/.test(n.text)),
				wire,
			);
		}
	});

	it('Ollama /v1 index-0 parallel calls become two calls, each with its result', async () => {
		double.script(
			{
				...toolCall('read_file', { path: 'notes/a.txt' }),
				toolCalls: [
					{ name: 'read_file', arguments: '{"path":"notes/a.txt"}', id: 'call_a' },
					{ name: 'list_directory', arguments: '{"path":"notes"}', id: 'call_b' },
				],
				callShape: 'indexZero',
			},
			text('ok'),
		);
		const outcome = await harness(double).run();
		assert.deepEqual(
			outcome.messages
				.filter(m => m.kind === 'tool_result')
				.map(m => m.kind === 'tool_result' && [m.data.toolCallId, m.data.ok]),
			[
				['call_a', true],
				['call_b', true],
			],
		);
	});
});
