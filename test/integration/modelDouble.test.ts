// Proves the model double speaks OpenAI chat completions well enough for the official
// `openai` client: streamed text, split tool-call arguments reassembled by index, usage,
// errors with status and headers, and the stream faults the agent must survive.

import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionTool } from 'openai/resources/chat/completions';
import {
	presets,
	startModelDouble,
	text,
	textThenTools,
	toolCalls,
	withFaults,
	type ModelDouble,
} from '../support/modelDouble';

const tools: ChatCompletionTool[] = [
	{
		type: 'function',
		function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
	},
	{
		type: 'function',
		function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
	},
];

describe('model double — OpenAI chat completions through the openai SDK', function () {
	this.timeout(10_000);
	let double: ModelDouble;
	let client: OpenAI;

	before(async () => {
		double = await startModelDouble();
		client = new OpenAI({ baseURL: double.openaiBaseUrl, apiKey: 'sk-test', maxRetries: 0 });
	});
	afterEach(() => double.reset());
	after(() => double.close());

	const ask = (extra: Partial<OpenAI.ChatCompletionCreateParamsStreaming> = {}) =>
		client.chat.completions.create({
			model: 'qwen3:8b',
			messages: [{ role: 'user', content: 'hi' }],
			stream: true,
			tools,
			...extra,
		});

	/** Reassembles a streamed turn the way an adapter must: text by concatenation, calls by index. */
	async function collect(stream: AsyncIterable<ChatCompletionChunk>) {
		const chunks: ChatCompletionChunk[] = [];
		let content = '';
		const calls: { id?: string; name?: string; args: string }[] = [];
		let finish: string | null = null;
		for await (const chunk of stream) {
			chunks.push(chunk);
			const choice = chunk.choices[0];
			if (!choice) continue;
			content += choice.delta.content ?? '';
			for (const tc of choice.delta.tool_calls ?? []) {
				const slot = (calls[tc.index] ??= { args: '' });
				if (tc.id) slot.id = tc.id;
				if (tc.function?.name) slot.name = tc.function.name;
				slot.args += tc.function?.arguments ?? '';
			}
			finish = choice.finish_reason ?? finish;
		}
		return { chunks, content, calls, finish };
	}

	it('streams text in the requested number of chunks and records the request', async () => {
		double.script(text('Hello from the double', { chunks: 4 }));
		const out = await collect(await ask());
		assert.equal(out.content, 'Hello from the double');
		assert.equal(out.chunks.filter(c => c.choices[0]?.delta.content).length, 4);
		assert.equal(out.finish, 'stop');
		assert.equal(double.requests.length, 1);
		const req = double.requests[0];
		assert.equal(req.path, '/v1/chat/completions');
		assert.equal(req.headers.authorization, 'Bearer sk-test');
		assert.equal(req.body.messages[0].content, 'hi');
		assert.deepEqual(req.response, { status: 200, frames: 7 }); // role + 4 text + finish + [DONE]
	});

	it('splits several tool calls across chunks: id+name first, then index-only argument fragments', async () => {
		double.script(
			toolCalls(
				[
					{ name: 'read_file', arguments: { path: 'src/a.ts' }, id: 'call_A' },
					{ name: 'search', arguments: { query: 'TODO fix' } },
				],
				{ split: 4 },
			),
		);
		const out = await collect(await ask());
		assert.equal(out.finish, 'tool_calls');
		assert.equal(out.calls.length, 2);
		assert.deepEqual(
			out.calls.map(c => c.name),
			['read_file', 'search'],
		);
		assert.equal(out.calls[0].id, 'call_A');
		assert.match(out.calls[1].id ?? '', /^call_/);
		assert.deepEqual(JSON.parse(out.calls[0].args), { path: 'src/a.ts' });
		assert.deepEqual(JSON.parse(out.calls[1].args), { query: 'TODO fix' });
		const fragments = out.chunks.flatMap(c => c.choices[0]?.delta.tool_calls ?? []).filter(t => !t.id);
		assert.equal(fragments.length, 8, '4 fragments per call');
		for (const f of fragments) {
			assert.equal(f.function?.name, undefined, 'later fragments carry no name');
			assert.equal(typeof f.index, 'number');
		}
	});

	it('keeps malformed arguments verbatim and sends text before tools in one response', async () => {
		const raw = '{"path": "a.ts",}';
		double.script(textThenTools('Let me look.', [{ name: 'read_file', arguments: raw }], { split: 2 }));
		const out = await collect(await ask());
		assert.equal(out.content, 'Let me look.');
		assert.equal(out.calls[0].args, raw);
		assert.throws(() => JSON.parse(out.calls[0].args));
	});

	it('ends with data: [DONE] on the raw wire and puts usage in a final chunk when asked', async () => {
		double.script(text('ok', { usage: { promptTokens: 2048, completionTokens: 3 } }), text('again'));
		const res = await fetch(`${double.openaiBaseUrl}/chat/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ model: 'm', messages: [], stream: true, stream_options: { include_usage: true } }),
		});
		assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
		const lines = (await res.text()).split('\n\n').filter(Boolean);
		assert.equal(lines[lines.length - 1], 'data: [DONE]');
		const last = JSON.parse(lines[lines.length - 2].slice('data: '.length));
		assert.deepEqual(last.choices, []);
		assert.deepEqual(last.usage, { prompt_tokens: 2048, completion_tokens: 3, total_tokens: 2051 });
		assert.equal(JSON.parse(lines[0].slice(6)).usage, null, 'earlier chunks carry usage: null');

		// Through the SDK, the same option yields the usage chunk.
		const out = await collect(await ask({ stream_options: { include_usage: true } }));
		assert.ok(out.chunks[out.chunks.length - 1].usage?.prompt_tokens);
	});

	it('answers stream:false with a complete chat.completion', async () => {
		double.script(toolCalls([{ name: 'search', arguments: { query: 'x' } }]));
		const done = await client.chat.completions.create({
			model: 'qwen3:8b',
			messages: [{ role: 'user', content: 'q' }],
			tools,
		});
		assert.equal(done.object, 'chat.completion');
		assert.equal(done.choices[0].finish_reason, 'tool_calls');
		const call = done.choices[0].message.tool_calls?.[0];
		assert.ok(call && call.type === 'function');
		assert.equal(call.function.arguments, '{"query":"x"}');
		assert.equal(done.choices[0].message.content, null);
	});

	it('surfaces a 429 with its Retry-After header as openai RateLimitError', async () => {
		double.script(presets.openaiRateLimit(7));
		const err = await ask().then(
			() => assert.fail('expected an error'),
			(e: unknown) => e,
		);
		assert.ok(err instanceof OpenAI.RateLimitError, String(err));
		assert.equal(err.status, 429);
		assert.equal(err.headers?.get('retry-after'), '7');
		assert.equal(err.code, 'rate_limit_exceeded');
	});

	it('surfaces real server bodies: context overflow, llama.cpp parse error, Ollama /v1 404', async () => {
		double.script(
			presets.openaiContextLengthExceeded(),
			presets.llamacppParseError(12),
			presets.ollamaV1ModelNotFound('nope:1b'),
		);
		const e1 = await ask().catch(e => e);
		assert.ok(e1 instanceof OpenAI.BadRequestError);
		assert.equal(e1.code, 'context_length_exceeded');
		const e2 = await ask().catch(e => e);
		assert.ok(e2 instanceof OpenAI.InternalServerError);
		assert.match(e2.message, /Failed to parse input at pos 12/);
		const e3 = await ask().catch(e => e);
		assert.ok(e3 instanceof OpenAI.NotFoundError);
		assert.match(e3.message, /model "nope:1b" not found/);
	});

	it('dropAfter cuts the socket mid tool-call arguments and the SDK iteration throws', async () => {
		double.script(
			withFaults(toolCalls([{ name: 'read_file', arguments: { path: 'a/b/c.ts' } }], { split: 4 }), {
				dropAfter: 3,
			}),
		);
		const seen: ChatCompletionChunk[] = [];
		await assert.rejects(async () => {
			for await (const c of await ask()) seen.push(c);
		});
		assert.equal(seen.length, 3, 'head + 2 fragments arrived before the cut');
		assert.equal(double.requests[0].response?.fault, 'dropped');
	});

	it('stallAfter sends n chunks then goes silent until the client gives up', async () => {
		double.script(text('one two three', { chunks: 3, stallAfter: 2 }));
		const stream = await ask();
		const it = stream[Symbol.asyncIterator]();
		const got: ChatCompletionChunk[] = [];
		for (;;) {
			const r = await Promise.race([it.next(), new Promise<'idle'>(res => setTimeout(() => res('idle'), 300))]);
			if (r === 'idle') break;
			if (r.done) assert.fail('stream ended instead of stalling');
			got.push(r.value);
		}
		stream.controller.abort();
		assert.equal(got.length, 2);
		assert.equal(double.requests[0].response?.fault, 'stalled');
	});

	it('errorAfter sends an error inside the 200 stream, which the SDK throws as APIError', async () => {
		double.script(
			text('partial answer', {
				chunks: 2,
				errorAfter: 2,
				streamError: { type: 'server_error', message: 'upstream overloaded' },
			}),
		);
		const err = await collect(await ask()).catch(e => e);
		assert.ok(err instanceof OpenAI.APIError, String(err));
		assert.match(err.message, /upstream overloaded/);
	});

	it('closeBeforeHeaders is a connection error', async () => {
		double.script(withFaults(text('x'), { closeBeforeHeaders: true }), text('a b c', { chunks: 3 }));
		await assert.rejects(ask(), (e: unknown) => e instanceof OpenAI.APIConnectionError);
		assert.equal((await collect(await ask())).content, 'a b c');
	});

	// Pacing is shown by what the double holds back, not by a stopwatch: a client that leaves
	// after the first chunk must not have been sent the rest.
	it('delayMs holds back every chunk: a client that leaves after the first is sent no more', async () => {
		double.script(text('a b c', { chunks: 3 }), text('a b c', { chunks: 3, delayMs: 1_500 }));
		await collect(await ask());
		const whole = double.modelRequests[0].response!.frames;
		const stream = await ask();
		for await (const chunk of stream) {
			if (chunk.choices[0]?.delta.content) break; // ends the request, as a user's Stop does
		}
		const paced = double.modelRequests[1];
		while (paced.response?.fault !== 'clientAborted') await new Promise(r => setTimeout(r, 20));
		assert.ok(paced.response!.frames < whole, `sent ${paced.response!.frames} of ${whole} frames`);
	});

	it('answers a clear 500 when the script is empty', async () => {
		const err = await ask().catch(e => e);
		assert.ok(err instanceof OpenAI.InternalServerError);
		assert.equal(err.status, 500);
		assert.ok(err.message.includes('model double: no scripted response left'), err.message);
	});

	it('runs function steps and fills {{lastToolResult}} / {{lastUser}} templates', async () => {
		double.script(
			req => text(`you sent ${req.body.messages.length} messages`),
			text('file says: {{lastToolResult}}; you asked: {{lastUser}}'),
		);
		assert.equal((await collect(await ask())).content, 'you sent 1 messages');
		const out = await collect(
			await ask({
				messages: [
					{ role: 'user', content: 'read a.ts' },
					{
						role: 'assistant',
						content: null,
						tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
					},
					{ role: 'tool', tool_call_id: 'c1', content: 'export const a = 1;' },
				],
			}),
		);
		assert.equal(out.content, 'file says: export const a = 1;; you asked: read a.ts');
	});

	it('lists models on GET /v1/models', async () => {
		const list = await client.models.list();
		assert.deepEqual(
			list.data.map(m => m.id),
			['qwen3:8b'],
		);
	});
});
