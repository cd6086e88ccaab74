// Proves the model double speaks Anthropic Messages well enough for @anthropic-ai/sdk:
// named SSE events, input_json_delta fragments accumulated into the tool input, and the
// `{"type":"error",…}` bodies with 429/529.

import * as assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import {
	presets,
	startModelDouble,
	text,
	textThenTools,
	toolCalls,
	wireError,
	type ModelDouble,
} from '../support/modelDouble';

const tools: Anthropic.Tool[] = [
	{ name: 'read_file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
	{ name: 'search', input_schema: { type: 'object', properties: { query: { type: 'string' } } } },
];

describe('model double — Anthropic Messages through @anthropic-ai/sdk', function () {
	this.timeout(10_000);
	let double: ModelDouble;
	let client: Anthropic;

	before(async () => {
		double = await startModelDouble();
		client = new Anthropic({ baseURL: double.url, apiKey: 'sk-ant-test', maxRetries: 0 });
	});
	afterEach(() => double.reset());
	after(() => double.close());

	const params = (messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'hi' }]) => ({
		model: 'claude-double-1',
		max_tokens: 1024,
		tools,
		messages,
	});

	it('messages.stream: text then two tool_use blocks, input rebuilt from input_json_delta', async () => {
		double.script(
			textThenTools(
				'Reading both.',
				[
					{ name: 'read_file', arguments: { path: 'src/a.ts' }, id: 'toolu_A' },
					{ name: 'search', arguments: { query: 'needle' } },
				],
				{ split: 3, chunks: 2 },
			),
		);
		const stream = client.messages.stream(params());
		const texts: string[] = [];
		const partials: string[] = [];
		stream.on('text', t => texts.push(t));
		stream.on('inputJson', p => partials.push(p));
		const msg = await stream.finalMessage();

		assert.equal(texts.length, 2, 'two text_delta events');
		assert.equal(texts.join(''), 'Reading both.');
		assert.equal(msg.stop_reason, 'tool_use');
		assert.equal(msg.content.length, 3);
		const [t, a, b] = msg.content;
		assert.ok(t.type === 'text' && a.type === 'tool_use' && b.type === 'tool_use');
		assert.equal(t.text, 'Reading both.');
		assert.equal(a.id, 'toolu_A');
		assert.match(b.id, /^toolu_/);
		assert.deepEqual(a.input, { path: 'src/a.ts' });
		assert.deepEqual(b.input, { query: 'needle' });
		assert.equal(partials.filter(Boolean).length, 6, 'three non-empty fragments per tool');
		// SDK 1.x sends the key as a Bearer token; older ones used x-api-key. Either must arrive.
		const h = double.requests[0].headers;
		assert.match(String(h['x-api-key'] ?? h.authorization), /sk-ant-test/);
		assert.ok(double.requests[0].headers['anthropic-version']);
	});

	it('messages.create({stream:true}): raw events in the real order', async () => {
		double.script(
			toolCalls([{ name: 'read_file', arguments: { path: 'x' } }], {
				split: 2,
				usage: { promptTokens: 99, completionTokens: 5 },
			}),
		);
		const events: Anthropic.RawMessageStreamEvent[] = [];
		for await (const ev of await client.messages.create({ ...params(), stream: true })) events.push(ev);
		assert.deepEqual(
			events.map(e => e.type),
			[
				'message_start',
				'content_block_start',
				'content_block_delta',
				'content_block_delta',
				'content_block_delta',
				'content_block_stop',
				'message_delta',
				'message_stop',
			],
		);
		let json = '';
		for (const e of events)
			if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta') json += e.delta.partial_json;
		assert.deepEqual(JSON.parse(json), { path: 'x' });
		const start = events[0];
		assert.ok(start.type === 'message_start');
		assert.equal(start.message.usage.input_tokens, 99);
		const delta = events[6];
		assert.ok(delta.type === 'message_delta');
		assert.equal(delta.delta.stop_reason, 'tool_use');
		assert.equal(delta.usage.output_tokens, 5);
	});

	it('non-streaming create returns a complete message with end_turn', async () => {
		double.script(text('All done.'));
		const msg = await client.messages.create(params());
		assert.equal(msg.stop_reason, 'end_turn');
		assert.deepEqual(msg.content, [{ type: 'text', text: 'All done.' }]);
	});

	it('529 overloaded and 429 with retry-after surface with status, type and header', async () => {
		double.script(presets.anthropicOverloaded(), presets.anthropicRateLimit(3));
		const e1 = await client.messages.create(params()).catch(e => e);
		assert.ok(e1 instanceof Anthropic.OverloadedError, String(e1));
		assert.equal(e1.status, 529);
		assert.equal((e1.error as { error?: { type?: string } }).error?.type, 'overloaded_error');
		const e2 = await client.messages.create({ ...params(), stream: true }).catch(e => e);
		assert.ok(e2 instanceof Anthropic.RateLimitError, String(e2));
		assert.equal(e2.headers?.get('retry-after'), '3');
	});

	it("a wireError step renders in Anthropic's envelope on /v1/messages", async () => {
		double.script(wireError(400, 'prompt is too long: 300000 tokens > 200000 maximum'));
		const err = await client.messages.create(params()).catch(e => e);
		assert.ok(err instanceof Anthropic.BadRequestError);
		const body = err.error as { type?: string; error?: { type?: string } };
		assert.equal(body.type, 'error');
		assert.equal(body.error?.type, 'invalid_request_error');
		assert.match(err.message, /prompt is too long/);
	});

	it('an error event inside the 200 stream is thrown by the SDK', async () => {
		double.script(text('half of it', { chunks: 2, errorAfter: 4 })); // message_start, ping, block_start, 1 delta
		const stream = client.messages.stream(params());
		const texts: string[] = [];
		stream.on('text', t => texts.push(t));
		const err = await stream.finalMessage().catch(e => e);
		assert.ok(err instanceof Anthropic.APIError, String(err));
		assert.match(err.message, /Overloaded/);
		assert.deepEqual(texts, ['half ']);
	});

	it('dropAfter kills the stream mid input_json_delta and iteration throws', async () => {
		double.script(toolCalls([{ name: 'read_file', arguments: { path: 'abc' } }], { split: 3, dropAfter: 5 }));
		const seen: string[] = [];
		await assert.rejects(async () => {
			for await (const ev of await client.messages.create({ ...params(), stream: true })) seen.push(ev.type);
		});
		assert.deepEqual(seen, ['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta']);
	});

	it('fills {{lastToolResult}} from the last tool_result block and {{lastUser}} from user text', async () => {
		double.script(text('got <{{lastToolResult}}> for <{{lastUser}}>'));
		const msg = await client.messages.create(
			params([
				{ role: 'user', content: 'open b.ts' },
				{
					role: 'assistant',
					content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'b.ts' } }],
				},
				{
					role: 'user',
					content: [
						{
							type: 'tool_result',
							tool_use_id: 'toolu_1',
							content: [{ type: 'text', text: 'const b = 2;' }],
						},
					],
				},
			]),
		);
		assert.deepEqual(msg.content, [{ type: 'text', text: 'got <const b = 2;> for <open b.ts>' }]);
	});

	it("answers the empty-script 500 in Anthropic's error shape", async () => {
		const err = await client.messages.create(params()).catch(e => e);
		assert.ok(err instanceof Anthropic.InternalServerError);
		assert.match(err.message, /model double: no scripted response left/);
	});
});
