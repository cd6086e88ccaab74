// What servers send before the first token, read as `waiting` events: llama.cpp's
// `prompt_progress` frames (return_progress) beside an empty delta, and `:` ping comments
// (--sse-ping-interval). The frame below is the shape llama-server streams.
import * as assert from 'assert';
import type { ModelEvent } from '../../../../../src/core/llm/chatModel';
import { readStream } from '../../../../../src/core/llm/stream/readStream';
import { OpenAIStreamReader } from '../../../../../src/core/llm/wires/openai/openaiStream';
import { AgentError } from '../../../../../src/core/errors';

function response(body: string): Response {
	return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

async function events(body: string): Promise<ModelEvent[]> {
	const out: ModelEvent[] = [];
	for await (const e of readStream(
		response(body),
		new OpenAIStreamReader(),
		e => new AgentError('modelStream', String(e)),
	)) {
		out.push(e);
	}
	return out;
}

const progress = (processed: number) =>
	`data: ${JSON.stringify({
		choices: [{ finish_reason: null, index: 0, delta: { role: 'assistant', content: null } }],
		created: 1,
		id: 'chatcmpl-x',
		model: 'keel-noise',
		object: 'chat.completion.chunk',
		prompt_progress: { total: 3012, cache: 1024, processed, time_ms: 812.5 },
	})}\n\n`;
const token = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] })}\n\n`;
const finish = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;

describe('signs of life before the first token', () => {
	it('llama.cpp prompt_progress frames become progress, and the empty delta beside them is no text', async () => {
		const out = await events(progress(1024) + progress(2048) + progress(3012) + token + finish);
		assert.deepStrictEqual(out.slice(0, 3), [
			{ type: 'waiting', progress: { total: 3012, cached: 1024, processed: 1024, elapsedMs: 812.5 } },
			{ type: 'waiting', progress: { total: 3012, cached: 1024, processed: 2048, elapsedMs: 812.5 } },
			{ type: 'waiting', progress: { total: 3012, cached: 1024, processed: 3012, elapsedMs: 812.5 } },
		]);
		assert.deepStrictEqual(out[3], { type: 'text', text: 'Hi' });
	});

	it('a ping comment is a sign of life, nothing more', async () => {
		const out = await events(':\n\n:\n\n' + token + finish);
		assert.deepStrictEqual(
			out.map(e => e.type),
			['waiting', 'waiting', 'text', 'finish'],
		);
	});
});
