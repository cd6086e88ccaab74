// Proves the model double speaks Ollama's native API as Ollama does: NDJSON lines, whole tool
// calls with object arguments, a final done line with counters, streaming by default, its
// own "error parsing tool call" 500, and the discovery endpoints.

import * as assert from 'node:assert/strict';
import {
	presets,
	startModelDouble,
	text,
	textThenTools,
	toolCalls,
	wireError,
	type ModelDouble,
} from '../support/modelDouble';

describe('model double — Ollama native API over raw fetch', function () {
	this.timeout(10_000);
	let double: ModelDouble;

	before(async () => {
		double = await startModelDouble({ models: ['qwen3:8b', 'llama3.2:3b'], contextLength: 32768 });
	});
	afterEach(() => double.reset());
	after(() => double.close());

	const chat = (body: object) =>
		fetch(`${double.url}/api/chat`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'hi' }], ...body }),
		});

	/** Reads NDJSON line by line, as a client must (a line may straddle network chunks). */
	async function lines(res: Response): Promise<any[]> {
		const out: any[] = [];
		const decoder = new TextDecoder();
		let buf = '';
		for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
			buf += decoder.decode(chunk, { stream: true });
			let nl: number;
			while ((nl = buf.indexOf('\n')) >= 0) {
				const line = buf.slice(0, nl);
				buf = buf.slice(nl + 1);
				if (line.trim()) out.push(JSON.parse(line));
			}
		}
		assert.equal(buf, '', 'every line ends with a newline');
		return out;
	}

	it('streams by default: text lines, then a done line with counters', async () => {
		double.script(text('Hello there friend', { chunks: 3, usage: { promptTokens: 2048 } }));
		const res = await chat({});
		assert.equal(res.status, 200);
		assert.equal(res.headers.get('content-type'), 'application/x-ndjson');
		const ls = await lines(res);
		assert.equal(ls.length, 4);
		assert.deepEqual(
			ls.slice(0, 3).map(l => l.done),
			[false, false, false],
		);
		assert.equal(
			ls
				.slice(0, 3)
				.map(l => l.message.content)
				.join(''),
			'Hello there friend',
		);
		for (const l of ls) {
			assert.equal(l.model, 'qwen3:8b');
			assert.ok(!Number.isNaN(Date.parse(l.created_at)));
			assert.equal(l.message.role, 'assistant');
		}
		const last = ls[3];
		assert.equal(last.done, true);
		assert.equal(last.done_reason, 'stop');
		assert.equal(last.prompt_eval_count, 2048, 'the override simulates silent truncation to num_ctx');
		assert.ok(last.eval_count > 0);
	});

	it('sends all tool calls whole in one line with object arguments', async () => {
		double.script(
			textThenTools(
				'Checking.',
				[
					{ name: 'read_file', arguments: { path: 'a.ts' } },
					{ name: 'search', arguments: { query: 'x', max: 3 } },
				],
				{ split: 5 },
			),
		);
		const ls = await lines(await chat({ tools: [] }));
		const withCalls = ls.filter(l => l.message.tool_calls);
		assert.equal(withCalls.length, 1);
		const calls = withCalls[0].message.tool_calls;
		assert.equal(calls.length, 2);
		assert.deepEqual(
			calls.map((c: any) => c.function.name),
			['read_file', 'search'],
		);
		assert.deepEqual(calls[0].function.arguments, { path: 'a.ts' });
		assert.deepEqual(calls[1].function.arguments, { query: 'x', max: 3 });
		assert.deepEqual(
			calls.map((c: any) => c.function.index),
			[0, 1],
		);
		assert.equal(ls[ls.length - 1].done, true);
		assert.equal(ls[0].message.content, 'Checking.');
	});

	it('stream:false returns one JSON object with the whole message', async () => {
		double.script(toolCalls([{ name: 'search', arguments: { query: 'q' } }]));
		const res = await chat({ stream: false });
		const body = (await res.json()) as any;
		assert.equal(body.done, true);
		assert.deepEqual(body.message.tool_calls[0].function.arguments, { query: 'q' });
	});

	it('malformed arguments become Ollama\'s own HTTP 500 "error parsing tool call"', async () => {
		double.script(toolCalls([{ name: 'run', arguments: 'ls -R\n' }]));
		const res = await chat({});
		assert.equal(res.status, 500);
		assert.deepEqual(await res.json(), {
			error: "error parsing tool call: raw='ls -R\n', err=invalid character 'l' looking for beginning of value",
		});
	});

	it('after text was streamed, the parse error arrives as an error line in the 200 stream', async () => {
		double.script(textThenTools('I will call it', [{ name: 'run', arguments: '{"cmd": "ls"}]' }], {}));
		const res = await chat({});
		assert.equal(res.status, 200);
		const ls = await lines(res);
		assert.equal(
			ls[ls.length - 1].error,
			`error parsing tool call: raw='{"cmd": "ls"}]', err=invalid character ']' after top-level value`,
		);
		assert.ok(!ls.some(l => l.done === true));
	});

	it('serves the real preset bodies and wireError in Ollama\'s {"error": string} shape', async () => {
		double.script(
			presets.ollamaInvalidToolCallArguments(),
			presets.ollamaModelNotFound('ghost:7b'),
			wireError(503, 'server busy'),
		);
		const r1 = await chat({});
		assert.equal(r1.status, 400);
		assert.deepEqual(await r1.json(), { error: 'invalid tool call arguments' });
		const r2 = await chat({});
		assert.equal(r2.status, 404);
		assert.deepEqual(await r2.json(), { error: 'model "ghost:7b" not found, try pulling it first' });
		const r3 = await chat({});
		assert.equal(r3.status, 503);
		assert.deepEqual(await r3.json(), { error: 'server busy' });
	});

	it('dropAfter ends the NDJSON body without a done line', async () => {
		double.script(text('a b c d', { chunks: 4, dropAfter: 2 }));
		const res = await chat({});
		const got: string[] = [];
		await assert.rejects(async () => {
			for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) got.push(Buffer.from(c).toString());
		});
		const received = got.join('').split('\n').filter(Boolean);
		assert.equal(received.length, 2);
	});

	it('answers /api/tags, /api/show (context length, capabilities), /api/version and /', async () => {
		const tags = (await (await fetch(`${double.url}/api/tags`)).json()) as any;
		assert.deepEqual(
			tags.models.map((m: any) => m.name),
			['qwen3:8b', 'llama3.2:3b'],
		);
		const show = (await (
			await fetch(`${double.url}/api/show`, { method: 'POST', body: JSON.stringify({ model: 'qwen3:8b' }) })
		).json()) as any;
		assert.equal(show.model_info['qwen3.context_length'], 32768);
		assert.equal(show.model_info['general.architecture'], 'qwen3');
		assert.deepEqual(show.capabilities, ['completion', 'tools']);
		const missing = await fetch(`${double.url}/api/show`, {
			method: 'POST',
			body: JSON.stringify({ model: 'nope' }),
		});
		assert.equal(missing.status, 404);
		const version = (await (await fetch(`${double.url}/api/version`)).json()) as any;
		assert.match(version.version, /^\d+\.\d+\.\d+$/);
		assert.equal(await (await fetch(`${double.url}/`)).text(), 'Ollama is running');
		assert.equal(double.pending, 0);
		assert.equal(double.modelRequests.length, 0, 'discovery does not consume scripted steps');
	});

	it("empty script: HTTP 500 saying so, in Ollama's shape", async () => {
		const res = await chat({});
		assert.equal(res.status, 500);
		assert.deepEqual(await res.json(), { error: 'model double: no scripted response left' });
	});
});
