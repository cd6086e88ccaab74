/**
 * The bytes a real llama.cpp server sent (test/support/servers/llamacpp/fixtures, captured from
 * llama-server by capture.ts) read by Keel's own stream reader and error reading: what the user
 * would see is the server's text, finish and cache counts, and an error that says what it is.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { readMeaning } from '../../../../../src/core/agent/recovery/failures/errorMeaning';
import type { ModelEvent } from '../../../../../src/core/llm/chatModel';
import { OpenAIStreamReader } from '../../../../../src/core/llm/wires/openai/openaiStream';
import { readStream } from '../../../../../src/core/llm/stream/readStream';
import { AgentError } from '../../../../../src/core/errors';
import { fixtureDir, readFixture, type Fixture } from '../../../../support/servers/llamacpp/fixtures';

const all: Fixture[] = fs
	.readdirSync(fixtureDir())
	.filter(file => file.endsWith('.json'))
	.map(file => readFixture(file.replace(/\.json$/, '')));

async function read(sse: string): Promise<ModelEvent[]> {
	const events: ModelEvent[] = [];
	const mapError = (error: unknown) => new AgentError('modelHttp', String(error));
	for await (const event of readStream(new Response(sse), new OpenAIStreamReader(), mapError)) events.push(event);
	return events;
}

type Frame = {
	choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
	usage?: unknown;
	timings?: { cache_n: number; prompt_n: number };
};

describe('llama.cpp server bytes, read by Keel', () => {
	const streams = all.filter(f => f.response?.sse?.includes('data: [DONE]'));

	it('has streams and errors to read (the fixtures are there)', () => {
		assert.ok(streams.length >= 8, `only ${streams.length} captured streams`);
		assert.ok(all.some(f => f.name.startsWith('context-exceeded')));
	});

	it("reads every captured stream to the server's text, finish and counters, whatever frames it carries", async () => {
		for (const fixture of streams) {
			const frames = (fixture.response!.frames ?? []).filter(
				(f): f is Frame => typeof f === 'object' && f !== null,
			);
			const text = frames.map(f => f.choices?.[0]?.delta?.content ?? '').join('');
			const finish = frames
				.map(f => f.choices?.[0]?.finish_reason)
				.filter(Boolean)
				.pop();
			const timings = frames
				.map(f => f.timings)
				.filter(Boolean)
				.pop();
			const events = await read(fixture.response!.sse!);
			const got = events.flatMap(e => (e.type === 'text' ? [e.text] : [])).join('');
			assert.strictEqual(got, text, `${fixture.name}: text`);
			const end = events.at(-1);
			assert.ok(end?.type === 'finish', `${fixture.name}: no finish`);
			assert.strictEqual(end.reason, finish, `${fixture.name}: finish reason`);
			assert.strictEqual(end.usage?.timings?.promptTokens, timings?.prompt_n, `${fixture.name}: prompt_n`);
			if (frames.some(f => f.usage)) {
				assert.strictEqual(end.usage?.cachedTokens, timings?.cache_n, `${fixture.name}: cache_n`);
			}
		}
	});

	it('reads prompt_progress frames and ":" pings as no text at all', async () => {
		for (const name of ['sse-prompt-progress', 'sse-prompt-progress-cached', 'prefill-silent-stream']) {
			const fixture = readFixture(name);
			const sse = fixture.response!.sse!;
			assert.ok(/"prompt_progress"|^:\n/m.test(sse), `${name} has no progress frame or ping`);
			const events = await read(sse);
			assert.ok(!events.some(e => e.type === 'text' && e.text === ''), `${name}: empty text event`);
			assert.ok(!events.some(e => e.type === 'reasoning'), `${name}: progress read as reasoning`);
		}
	});

	it("reads the context-exceeded answers as a context overflow with the slot's window, streamed or not, one slot or two", () => {
		const exceeded = all.filter(f => f.name.startsWith('context-exceeded'));
		assert.ok(exceeded.length >= 4);
		for (const fixture of exceeded) {
			const body = JSON.stringify(fixture.response!.body);
			// The window the server runs per slot: --ctx-size divided among --parallel slots.
			const [, ctx, slots] = /c(\d+)(?:-parallel(\d+))?/.exec(fixture.name) ?? [];
			const window = ctx ? Number(ctx) / Number(slots ?? 1) : undefined;
			const meaning = readMeaning(body, fixture.response!.status);
			assert.strictEqual(meaning?.kind, 'contextOverflow', fixture.name);
			assert.strictEqual(meaning.window, window, fixture.name);
		}
	});

	it('reads /health while the model loads as a server that is busy, not a broken one', () => {
		const loading = readFixture('health').observed?.whileLoading as { status: number; body: unknown } | undefined;
		assert.ok(loading, 'the capture saw no loading answer');
		assert.deepStrictEqual(readMeaning(JSON.stringify(loading.body), loading.status), { kind: 'overloaded' });
	});
});
