// Proves a test in another process can drive the double: the control API over HTTP, the CLI
// entry that prints its URL, and that one scripted step renders natively on every wire.

import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import * as path from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { DoubleControl, startModelDouble, text, toolCalls, type ModelDouble } from '../support/modelDouble';

const CLI = path.join(__dirname, '../support/modelDouble/cli.js');

describe('model double — control API, CLI and cross-wire rendering', function () {
	this.timeout(15_000);
	let double: ModelDouble;
	let control: DoubleControl;

	before(async () => {
		double = await startModelDouble();
		control = new DoubleControl(double.url);
	});
	afterEach(() => double.reset());
	after(() => double.close());

	it('scripts steps over HTTP, lists requests and resets', async () => {
		assert.equal(await control.script(text('first'), text('second')), 2);
		const client = new OpenAI({ baseURL: double.openaiBaseUrl, apiKey: 'k', maxRetries: 0 });
		const r = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'go' }] });
		assert.equal(r.choices[0].message.content, 'first');

		const seen = await control.requests();
		assert.equal(seen.length, 1, 'control calls are not recorded');
		assert.equal(seen[0].path, '/v1/chat/completions');
		assert.equal(seen[0].body.messages[0].content, 'go');
		assert.equal(seen[0].response?.status, 200);
		assert.equal(double.pending, 1);

		await control.reset();
		assert.equal(double.pending, 0);
		assert.deepEqual(await control.requests(), []);
	});

	it('rejects a malformed step with 400 and says which one', async () => {
		const res = await fetch(`${double.url}/__double/script`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify([text('ok'), { kind: 'reply', toolCalls: [{ name: 'x', arguments: { a: 1 } }] }]),
		});
		assert.equal(res.status, 400);
		const body = (await res.json()) as { error: string };
		assert.match(body.error, /step 1: toolCalls\[0\]/);
		assert.equal(double.pending, 0, 'nothing from a rejected batch is queued');
		assert.throws(() => double.script({ kind: 'nope' } as never), /unknown kind/);
	});

	it('reset() cuts a stalled stream so the next test starts clean', async () => {
		double.script(text('a b', { chunks: 2, stallAfter: 1 }));
		const res = await fetch(`${double.openaiBaseUrl}/chat/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ model: 'm', messages: [], stream: true }),
		});
		const reading = res.text();
		await new Promise(r => setTimeout(r, 100));
		double.reset();
		await assert.rejects(reading, 'the stalled body ends with an error once reset destroys it');
	});

	it('renders one scripted step natively on OpenAI, Ollama and Anthropic', async () => {
		const step = toolCalls([{ name: 'read_file', arguments: { path: 'same.ts' } }], { split: 2 });
		double.script(step, step, step);

		const oa = new OpenAI({ baseURL: double.openaiBaseUrl, apiKey: 'k', maxRetries: 0 });
		const c = await oa.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
		const call = c.choices[0].message.tool_calls?.[0];
		assert.ok(call?.type === 'function');
		assert.deepEqual(JSON.parse(call.function.arguments), { path: 'same.ts' });

		const ol = (await (
			await fetch(`${double.url}/api/chat`, {
				method: 'POST',
				body: JSON.stringify({ model: 'm', messages: [], stream: false }),
			})
		).json()) as any;
		assert.deepEqual(ol.message.tool_calls[0].function.arguments, { path: 'same.ts' });

		const an = new Anthropic({ baseURL: double.url, apiKey: 'k', maxRetries: 0 });
		const m = await an.messages
			.stream({ model: 'claude-double-1', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
			.finalMessage();
		const use = m.content[0];
		assert.ok(use.type === 'tool_use');
		assert.deepEqual(use.input, { path: 'same.ts' });

		assert.deepEqual(
			double.modelRequests.map(r => r.wire),
			['openai', 'ollama', 'anthropic'],
		);
	});

	describe('CLI', () => {
		let child: ChildProcess | undefined;
		afterEach(() => {
			if (child && child.exitCode === null) child.kill('SIGKILL');
			child = undefined;
		});

		it('prints MODEL_DOUBLE_URL, serves a templated script from another process, exits on SIGTERM', async () => {
			const port = await freePort();
			child = spawn(process.execPath, [CLI, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
			const url = await readUrl(child);
			assert.equal(url, `http://127.0.0.1:${port}`);

			const remote = new DoubleControl(url);
			await remote.script(text('The tool said: {{lastToolResult}}'));
			const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'k', maxRetries: 0 });
			const r = await client.chat.completions.create({
				model: 'm',
				messages: [
					{ role: 'user', content: 'read it' },
					{
						role: 'assistant',
						content: null,
						tool_calls: [{ id: 'c', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
					},
					{ role: 'tool', tool_call_id: 'c', content: '42 lines' },
				],
			});
			assert.equal(r.choices[0].message.content, 'The tool said: 42 lines');
			assert.equal((await remote.requests()).length, 1);

			const exited = new Promise<number | null>(res => child!.once('exit', code => res(code)));
			child.kill('SIGTERM');
			assert.equal(await exited, 0);
		});
	});
});

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const srv = createServer();
		srv.once('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address() as { port: number };
			srv.close(() => resolve(port));
		});
	});
}

function readUrl(child: ChildProcess): Promise<string> {
	return new Promise((resolve, reject) => {
		let out = '';
		let err = '';
		const timer = setTimeout(() => reject(new Error(`CLI printed no URL; stderr: ${err}`)), 5000);
		child.stderr!.on('data', d => (err += d));
		child.stdout!.on('data', d => {
			out += d;
			const m = /^MODEL_DOUBLE_URL=(\S+)$/m.exec(out);
			if (m) {
				clearTimeout(timer);
				resolve(m[1]);
			}
		});
		child.once('exit', code => reject(new Error(`CLI exited with ${code}; stderr: ${err}`)));
	});
}
