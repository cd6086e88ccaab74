// Long prefills on one slot: the SSE bytes (plain, and with prompt_progress frames), what a
// client sees before the first token, whether /health and /props answer meanwhile, a request
// queued behind a busy slot, and what is left of a prefill when the client hangs up mid-way.
import { abbreviate, logSince, responsePart, serverLine, type Fixture } from './fixtures';
import type { LlamaServer } from './launch';
import { chatBody, countTokens, textOfTokens } from './prompts';
import { rawRequest, type RawResponse } from './rawHttp';

const README = 'https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md';
const PROGRESS_REF = `${README}#post-completion-given-a-prompt-it-returns-the-predicted-completion`;

async function post(
	server: LlamaServer,
	body: unknown,
	options: Parameters<typeof rawRequest>[4] = {},
): Promise<RawResponse> {
	return rawRequest(server.url, 'POST', '/v1/chat/completions', body, options);
}

function fixture(
	server: LlamaServer,
	name: string,
	shows: string,
	references: string[],
	body: unknown,
	raw: RawResponse,
	from: number,
): Fixture {
	return {
		name,
		shows,
		references,
		server: serverLine(server),
		request: { method: 'POST', path: '/v1/chat/completions', body: abbreviate(body) },
		response: responsePart(raw),
		log: logSince(server, from),
	};
}

/** Tokens per second this server prefills, measured on a 2,000-token prompt. */
async function prefillRate(server: LlamaServer): Promise<number> {
	const raw = await post(server, chatBody(await textOfTokens(server.url, 2000, 99), { max_tokens: 1 }));
	const timings = (JSON.parse(raw.body) as { timings: { prompt_per_second: number } }).timings;
	return timings.prompt_per_second;
}

/** Resolves once a progress frame shows real work under way (processed beyond the cached part). */
const progressUnderWay = (body: string) =>
	[...body.matchAll(/"prompt_progress":\{"total":(\d+),"cache":(\d+),"processed":(\d+)/g)].some(
		m => Number(m[3]) > Number(m[2]) && Number(m[3]) < Number(m[1]),
	);

async function timingsOf(server: LlamaServer, body: Record<string, unknown>): Promise<Record<string, unknown>> {
	const raw = await post(server, { ...body, stream: false, max_tokens: 1 });
	return (JSON.parse(raw.body) as { timings: Record<string, unknown> }).timings;
}

/** Polls /slots after a hang-up until the slot is idle: how long the server went on working for nobody. */
async function untilIdle(server: LlamaServer, limitMs = 120_000): Promise<number | undefined> {
	const start = Date.now();
	while (Date.now() - start < limitMs) {
		const state = (await slots(server)) as Array<{ is_processing?: boolean }>;
		if (Array.isArray(state) && state.every(slot => !slot.is_processing)) return Date.now() - start;
		await new Promise(resolve => setTimeout(resolve, 100));
	}
	return undefined;
}

/** What the server logged about a request it lost: cancellations, releases, closed connections. */
function cancelLog(server: LlamaServer, from: number): string[] {
	return logSince(server, from, 400).filter(line => /cancel|release|closed|stop|abort|disconnect|error/i.test(line));
}

async function slots(server: LlamaServer): Promise<unknown> {
	const raw = await rawRequest(server.url, 'GET', '/slots');
	try {
		return (JSON.parse(raw.body) as Array<Record<string, unknown>>).map(slot => ({
			id: slot.id,
			n_ctx: slot.n_ctx,
			is_processing: slot.is_processing,
			id_task: slot.id_task,
		}));
	} catch {
		return raw.body;
	}
}

export async function capturePrefill(server: LlamaServer): Promise<Fixture[]> {
	const out: Fixture[] = [];
	const rate = await prefillRate(server);
	// Long enough to take several seconds here, so there is a "mid-prefill" to observe; capped,
	// because attention makes each token dearer the further into the prompt it is.
	const longTokens = Math.min(16_000, Math.max(6000, Math.round(rate * 4)));

	let from = server.log().length;
	const plain = chatBody('Say hello.', { stream: true, stream_options: { include_usage: true } });
	out.push(
		fixture(
			server,
			'sse-plain',
			'A short streamed answer, byte for byte: the empty first frame that opens the stream, the deltas, the finish frame, the usage frame with timings (cache_n, prompt_n), then [DONE].',
			[README],
			plain,
			await post(server, plain),
			from,
		),
	);

	const medium = await textOfTokens(server.url, 3000, 2);
	const progress = chatBody(medium, { stream: true, return_progress: true, stream_options: { include_usage: true } });
	from = server.log().length;
	out.push(
		fixture(
			server,
			'sse-prompt-progress',
			'return_progress: true on a 3,000-token prompt: prompt_progress frames (total, cache, processed, time_ms) before the first token, from 0% on.',
			[PROGRESS_REF, 'https://github.com/ggml-org/llama.cpp/issues/22746'],
			progress,
			await post(server, progress),
			from,
		),
	);
	const followUp = {
		...progress,
		messages: [
			...(progress.messages as object[]),
			{ role: 'assistant', content: 'Noted.' },
			{ role: 'user', content: 'And the next file?' },
		],
	};
	from = server.log().length;
	out.push(
		fixture(
			server,
			'sse-prompt-progress-cached',
			'The next turn of the same conversation: prompt_progress starts at the cached prefix (cache > 0), and timings.cache_n / prompt_n split the prompt the same way.',
			[PROGRESS_REF],
			followUp,
			await post(server, followUp),
			from,
		),
	);

	// A silent prefill: no progress asked for, pings every second.
	const silent = chatBody(await textOfTokens(server.url, longTokens, 3), {
		stream: true,
		sse_ping_interval: 1,
		max_tokens: 4,
	});
	from = server.log().length;
	const silentRaw = await post(server, silent);
	const silentFixture = fixture(
		server,
		'prefill-silent-stream',
		`A ${longTokens.toLocaleString('en-US')}-token prefill streamed without return_progress, sse_ping_interval 1: when the status line arrives, and the ':' ping comments the server sends while it prefills (chunk times in observed).`,
		[`${README}#post-completion-given-a-prompt-it-returns-the-predicted-completion`],
		silent,
		silentRaw,
		from,
	);
	silentFixture.observed = { chunks: silentRaw.chunks.map(c => ({ atMs: c.at, text: abbreviate(c.text, 160) })) };
	out.push(silentFixture);

	// While a long prefill runs: do /health and /props answer, and what happens to a second request?
	const busy = chatBody(await textOfTokens(server.url, longTokens, 4), {
		stream: true,
		return_progress: true,
		max_tokens: 4,
	});
	from = server.log().length;
	const running = post(server, busy);
	await new Promise(resolve => setTimeout(resolve, 1500));
	const during: Record<string, unknown> = {};
	for (const path of ['/health', '/props', '/slots']) {
		const raw = await rawRequest(server.url, 'GET', path);
		during[path] = { status: raw.status, ms: raw.ms, body: path === '/health' ? raw.body : undefined };
	}
	during.slots = await slots(server);
	const queued = post(server, chatBody('A second conversation.', { stream: true, max_tokens: 4 }));
	const [first, second] = await Promise.all([running, queued]);
	out.push({
		name: 'busy-slot',
		shows: 'During a long prefill on the only slot: /health, /props and /slots answer (status, time); a second streamed request gets no status line until the slot is free (headersAtMs) — an open, silent connection.',
		references: [
			`${README}#get-health-returns-health-check-result`,
			`${README}#get-slots-returns-the-current-slots-processing-state`,
		],
		server: serverLine(server),
		request: { method: 'POST', path: '/v1/chat/completions', body: abbreviate(busy) },
		observed: {
			duringPrefill: during,
			firstRequest: { status: first.status, headersAtMs: first.headersAt, ms: first.ms },
			queuedRequest: {
				status: second.status,
				headersAtMs: second.headersAt,
				ms: second.ms,
				firstChunk: second.chunks[0]?.text,
			},
		},
		log: logSince(server, from),
	});

	out.push(await cancelStream(server, longTokens));
	out.push(await cancelJson(server, longTokens, rate));
	return out;
}

/** Hang up on a streamed request once prompt_progress shows work under way; then send it again. */
async function cancelStream(server: LlamaServer, tokens: number): Promise<Fixture> {
	const body = chatBody(await textOfTokens(server.url, tokens, 5), {
		stream: true,
		return_progress: true,
		max_tokens: 4,
	});
	const from = server.log().length;
	const raw = await post(server, body, { abortWhen: progressUnderWay });
	const after = await slots(server);
	const busyForMs = await untilIdle(server);
	const lost = cancelLog(server, from);
	const again = await timingsOf(server, body);
	return {
		...fixture(
			server,
			'cancel-mid-prefill-stream',
			'A streamed request (return_progress) the client hangs up on mid-prefill: what it had received, how long the slot went on working, and what the same request costs when sent again (timings.cache_n: the part of the cancelled prefill the server kept).',
			[PROGRESS_REF, 'https://github.com/ggml-org/llama.cpp/issues/22746'],
			body,
			raw,
			from,
		),
		log: lost,
		observed: {
			promptTokens: await countTokens(server.url, (body.messages as Array<{ content: string }>)[1].content),
			slotsRightAfterHangUp: after,
			slotBusyAfterHangUpMs: busyForMs,
			resentTimings: again,
		},
	};
}

/** Hang up on a non-streamed request a third of the way into its prefill; then send it again. */
async function cancelJson(server: LlamaServer, tokens: number, rate: number): Promise<Fixture> {
	const body = chatBody(await textOfTokens(server.url, tokens, 6), { max_tokens: 4 });
	const from = server.log().length;
	const raw = await post(server, body, { abortAfterMs: Math.round(((tokens / rate) * 1000) / 3) });
	const after = await slots(server);
	const busyForMs = await untilIdle(server);
	const lost = cancelLog(server, from);
	const again = await timingsOf(server, body);
	return {
		...fixture(
			server,
			'cancel-mid-prefill-json',
			'A non-streamed request the client hangs up on early in the prefill: whether the server notices and stops, and what the same request costs when sent again.',
			[README],
			body,
			raw,
			from,
		),
		log: lost,
		observed: {
			promptTokens: await countTokens(server.url, (body.messages as Array<{ content: string }>)[1].content),
			slotsRightAfterHangUp: after,
			slotBusyAfterHangUpMs: busyForMs,
			resentTimings: again,
		},
	};
}

/**
 * What a client that times out and sends the request again (as Keel's idle timeout did) costs
 * the server: a non-streamed request hung up on after 1 s, sent again at once, slots left to the
 * server. The log says whether the first was cancelled, which slot the second took, and
 * timings.cache_n what it reused.
 */
export async function captureResend(server: LlamaServer): Promise<Fixture> {
	const body = chatBody(await textOfTokens(server.url, 12_000, 7), { max_tokens: 4 });
	const from = server.log().length;
	const raw = await post(server, body, { abortAfterMs: 1000 });
	const started = Date.now();
	const again = await post(server, { ...body, max_tokens: 1 });
	const resendMs = Date.now() - started;
	return {
		...fixture(
			server,
			'hang-up-then-resend',
			'A non-streamed request hung up on after 1 s and sent again at once, with the slots left to the server (4): whether the first is cancelled, where the second goes, and what it reuses (timings.cache_n).',
			[`${README}#get-slots-returns-the-current-slots-processing-state`],
			body,
			raw,
			from,
		),
		log: logSince(server, from, 400).filter(line =>
			/cancel|release|selected slot|launch_slot|prompt eval time/i.test(line),
		),
		observed: {
			promptTokens: await countTokens(server.url, (body.messages as Array<{ content: string }>)[1].content),
			resend: {
				status: again.status,
				ms: resendMs,
				timings: (JSON.parse(again.body) as { timings: unknown }).timings,
			},
		},
	};
}
