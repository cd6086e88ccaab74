// A long prefill: the server reads the prompt before its first token. llama.cpp (streamed)
// sends its status line when a slot starts on the request, then, with `return_progress: true`,
// `prompt_progress` frames ({total, cache, processed, time_ms}, beside an empty delta) and
// otherwise `:` ping comments every --sse-ping-interval; other servers (and a llama.cpp request
// still queued for a slot) send nothing at all until the first token. A client that hangs up
// cancels the work: sent again, the request is read from the start — or, on llama.cpp, from
// what the slot had processed before the hang-up, which stays in its cache (captured: a
// 16,000-token prefill hung up on after about 1 s was sent again with timings.cache_n 4,121).
// https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md (return_progress, sse_ping_interval)

import type { ServerResponse } from 'node:http';
import type { ModelDoubleOptions, RecordedRequest, ReplyStep, Wire } from './types';
import { renderedTokens } from './servers';
import { randomId, sseEvent } from './wire/shared';

const SSE_HEADERS = {
	'content-type': 'text/event-stream; charset=utf-8',
	'cache-control': 'no-cache',
	connection: 'keep-alive',
};

/** How long the prefill of a step sent again takes: llama.cpp keeps what it processed, others start over. */
export function prefillLeft(step: ReplyStep, heldMs: number, opts: ModelDoubleOptions): number {
	const ms = step.prefillMs ?? 0;
	return opts.server?.kind === 'llamacpp' ? Math.max(0, ms - heldMs) : ms;
}

/** Holds the request for the step's `prefillMs`; false when the client hung up meanwhile. */
export async function holdPrefill(
	res: ServerResponse,
	rec: RecordedRequest,
	step: ReplyStep,
	wire: Wire,
	opts: ModelDoubleOptions,
): Promise<boolean> {
	const ms = step.prefillMs ?? 0;
	const body = (rec.body ?? {}) as Record<string, any>;
	const persona = opts.server?.kind === 'llamacpp' ? opts.server : undefined;
	const started = Date.now();
	if (!persona || wire !== 'openai' || body.stream !== true) {
		return wait(ms, res);
	}
	res.writeHead(200, SSE_HEADERS);
	res.flushHeaders();
	const total = step.usage?.promptTokens ?? renderedTokens(body);
	const cache = Math.min(total, step.usage?.cachedTokens ?? 0);
	const id = randomId('chatcmpl-');
	const progress = (processed: number) =>
		sseEvent(
			{
				choices: [{ finish_reason: null, index: 0, delta: { role: 'assistant', content: null } }],
				created: Math.floor(started / 1000),
				id,
				model: String(body.model ?? 'double'),
				system_fingerprint: 'b0-double',
				object: 'chat.completion.chunk',
				prompt_progress: { total, cache, processed, time_ms: Date.now() - started },
			},
			{},
		);
	const reports = body.return_progress === true;
	const tick = reports ? Math.max(20, Math.min(1000, Math.floor(ms / 10))) : persona.pingIntervalMs;
	if (reports && !write(res, progress(cache))) return false;
	while (Date.now() - started < ms) {
		const left = ms - (Date.now() - started);
		if (!(await wait(Math.min(left, tick ?? left), res))) return false;
		if (Date.now() - started >= ms) break;
		const done = (Date.now() - started) / ms;
		if (!write(res, reports ? progress(Math.floor(cache + (total - cache) * done)) : ':\n\n')) return false;
	}
	if (reports && !write(res, progress(total))) return false;
	return !res.destroyed;
}

function write(res: ServerResponse, frame: string): boolean {
	if (res.destroyed || res.writableEnded) return false;
	res.write(frame);
	return true;
}

/** Resolves true after ms, or false as soon as the connection closes. */
function wait(ms: number, res: ServerResponse): Promise<boolean> {
	if (res.destroyed) return Promise.resolve(false);
	if (ms <= 0) return Promise.resolve(true);
	return new Promise(resolve => {
		const onClose = () => {
			clearTimeout(timer);
			resolve(false);
		};
		const timer = setTimeout(() => {
			res.off('close', onClose);
			resolve(!res.destroyed);
		}, ms);
		res.once('close', onClose);
	});
}
