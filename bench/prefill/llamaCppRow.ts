/**
 * The prefill bench's llama.cpp row: the requests Keel sent on the OpenAI wire in a scenario
 * (the real loop against the model double, which plays the model's turns) are sent again, in
 * order, to a real llama-server with its default slots and prompt cache. The figures are the
 * server's own counters: timings.prompt_n (tokens it prefilled) and timings.cache_n (tokens it
 * reused), not a tokenizer's estimate. The model is noise (random weights), so each request
 * asks for one token: the prefill is the part being measured.
 */
import type { RecordedRequest } from '../../test/support/modelDouble';
import { describeDivergence, type SeriesFigures } from '../../test/support/prefill/measure';
import type { LlamaServer } from '../../test/support/servers/llamacpp/launch';

/** Tokens the server may re-evaluate at the end of a reused prefix without any change (it needs the last token's logits). */
const SLACK = 2;

interface Timings {
	cache_n: number;
	prompt_n: number;
	prompt_ms: number;
}

export interface LlamaCppSeries extends SeriesFigures {
	/** Milliseconds the server spent prefilling, summed. */
	promptMs: number;
	/** Tokens the server took from its cache instead of prefilling them: Σ timings.cache_n. */
	reused: number;
	/** An HTTP error the server answered, if one stopped the series. */
	error?: string;
}

async function postJson(url: string, body: unknown): Promise<{ status: number; json: any; text: string }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	let json: any;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, json, text };
}

/** The prompt text the server renders for a request (its own template engine), for describing a break. */
async function rendered(server: LlamaServer, body: Record<string, unknown>): Promise<string> {
	const answer = await postJson(`${server.url}/apply-template`, { messages: body.messages, tools: body.tools });
	return typeof answer.json?.prompt === 'string' ? answer.json.prompt : '';
}

export async function replayOnLlamaCpp(
	server: LlamaServer,
	requests: readonly RecordedRequest[],
): Promise<LlamaCppSeries> {
	const figures: LlamaCppSeries = { requests: 0, prefilled: 0, appended: 0, breaks: [], promptMs: 0, reused: 0 };
	let previousTotal = 0;
	let previousBody: Record<string, unknown> | undefined;
	for (const request of requests.filter(r => r.wire === 'openai')) {
		const original = request.body as Record<string, unknown>;
		// One token is enough to finish the prefill; no stream so the timings come in one body.
		const { stream_options: _options, ...rest } = original;
		const body = { ...rest, stream: false, max_tokens: 1 };
		const answer = await postJson(`${server.openaiBaseUrl}/chat/completions`, body);
		if (answer.status !== 200 || !answer.json?.timings) {
			figures.error = `request ${figures.requests + 1}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`;
			return figures;
		}
		const timings = answer.json.timings as Timings;
		const total = timings.cache_n + timings.prompt_n;
		figures.requests++;
		figures.prefilled += timings.prompt_n;
		figures.reused += timings.cache_n;
		figures.promptMs += timings.prompt_ms;
		figures.appended += figures.requests === 1 ? total : Math.max(0, total - previousTotal);
		if (previousBody && timings.cache_n < previousTotal - SLACK) {
			figures.breaks.push({
				request: figures.requests,
				kept: timings.cache_n / previousTotal,
				where: describeDivergence(await rendered(server, previousBody), await rendered(server, body)),
			});
		}
		previousTotal = total;
		previousBody = body;
	}
	return figures;
}
