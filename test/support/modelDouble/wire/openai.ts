// OpenAI chat completions, as api.openai.com, Ollama's /v1 and llama.cpp's server send it:
// SSE `data: {chat.completion.chunk}` lines ending with `data: [DONE]`, tool-call arguments
// streamed as fragments keyed by `index`, usage in a final choices-less chunk on request.

import { randomId, sseEvent, splitInto, type Rendering, type Resolved } from './shared';

const SSE_HEADERS = {
	'content-type': 'text/event-stream; charset=utf-8',
	'cache-control': 'no-cache',
	connection: 'keep-alive',
};

export function renderOpenAI(r: Resolved): Rendering {
	const requestId = randomId('req_');
	if (!r.stream) {
		return {
			status: 200,
			headers: { 'content-type': 'application/json', 'x-request-id': requestId },
			frames: [JSON.stringify(completion(r))],
		};
	}
	return {
		status: 200,
		headers: { ...SSE_HEADERS, 'x-request-id': requestId },
		frames: chunks(r)
			.map(c => sseEvent(c, r.sse))
			.concat(r.sse.noDone ? [] : [sseEvent('[DONE]', r.sse)]),
		// A data line carrying `error` inside the 200 stream (F13).
		errorBody: (type, message) => openaiErrorBody(message, type, null),
		errorShape: 'data',
		sse: r.sse,
	};
}

export function openaiErrorBody(message: string, type = 'server_error', code: string | null = null) {
	return { error: { message, type, param: null, code } };
}

export function openaiModels(models: string[]) {
	const created = Math.floor(Date.now() / 1000);
	return { object: 'list', data: models.map(id => ({ id, object: 'model', created, owned_by: 'library' })) };
}

function finishReason(r: Resolved): string | null {
	return r.omitFinish ? null : (r.finishReason ?? (r.calls.length ? 'tool_calls' : 'stop'));
}

function usage(r: Resolved) {
	return {
		prompt_tokens: r.promptTokens,
		completion_tokens: r.completionTokens,
		total_tokens: r.promptTokens + r.completionTokens,
		...(r.cachedTokens ? { prompt_tokens_details: { cached_tokens: r.cachedTokens } } : {}),
	};
}

/** llama.cpp's server adds its own counters to the last chunk: cache_n reused, prompt_n evaluated. */
/** llama-server's `timings`: the cached and processed prompt tokens, and how long it took when scripted. */
function timings(r: Resolved) {
	const t = r.serverTimings;
	if (!r.cachedTokens && !t) {
		return {};
	}
	const promptN = r.promptTokens - r.cachedTokens;
	const clock = t
		? {
				prompt_ms: t.promptMs,
				prompt_per_second: (promptN * 1000) / t.promptMs,
				predicted_n: r.completionTokens,
				predicted_ms: t.generationMs,
				predicted_per_second: (r.completionTokens * 1000) / t.generationMs,
			}
		: {};
	return { timings: { ...(r.cachedTokens ? { cache_n: r.cachedTokens } : {}), prompt_n: promptN, ...clock } };
}

function chunks(r: Resolved): object[] {
	const id = randomId('chatcmpl-');
	const created = Math.floor(Date.now() / 1000);
	// With include_usage every chunk carries `usage: null` and only the extra last one a value.
	const envelope = (choices: object[], extra: object = r.includeUsage ? { usage: null } : {}) => ({
		id,
		object: 'chat.completion.chunk',
		created,
		model: r.model,
		system_fingerprint: 'fp_double',
		choices,
		...extra,
	});
	const choice = (delta: object, finish: string | null = null) => ({
		index: 0,
		delta,
		logprobs: null,
		finish_reason: finish,
	});

	const out: object[] = [];
	// Reasoning servers (DeepSeek, vLLM, llama.cpp, Ollama /v1) stream it first, in its own field;
	// with content parts (Mistral's reasoning models) it is a `thinking` part of the content.
	for (const piece of r.reasoning ? splitInto(r.reasoning, r.textChunks) : []) {
		const delta = r.contentParts
			? { content: [{ type: 'thinking', thinking: [{ type: 'text', text: piece }] }] }
			: { [r.reasoningField]: piece };
		out.push(envelope([choice(out.length === 0 ? { role: 'assistant', content: null, ...delta } : delta)]));
	}
	const textPieces = r.text ? splitInto(r.text, r.textChunks) : [];
	// The opening chunk names the role; OpenAI sends content:null when the turn is only tool calls.
	if (r.text || !r.calls.length) out.push(envelope([choice({ role: 'assistant', content: '', refusal: null })]));
	for (const piece of textPieces)
		out.push(envelope([choice({ content: r.contentParts ? [{ type: 'text', text: piece }] : piece })]));

	if (r.callShape === 'legacyFunctionCall') {
		// One call only, the pre-tools API: a function_call delta and finish_reason "function_call".
		const call = r.calls[0];
		if (call) {
			out.push(
				envelope([
					choice({ role: 'assistant', content: null, function_call: { name: call.name, arguments: '' } }),
				]),
			);
			for (const part of splitInto(call.arguments, r.argSplit))
				out.push(envelope([choice({ function_call: { arguments: part } })]));
		}
		out.push(envelope([choice({}, r.finishReason ?? 'function_call')]));
		if (r.includeUsage) out.push(envelope([], { usage: usage(r), ...timings(r) }));
		return out;
	}
	out.push(...callDeltas(r, out.length === 0).map(delta => envelope([choice(delta)])));
	if (r.resendCalls) {
		// Servers that repeat the finished calls whole, same index and id, before the finish chunk.
		const again = r.calls.map((call, index) => ({
			index,
			id: call.id,
			type: 'function',
			function: { name: call.name, arguments: call.arguments },
		}));
		out.push(envelope([choice({ tool_calls: again })]));
	}
	for (const piece of r.textAfter ? splitInto(r.textAfter, r.textChunks) : []) {
		out.push(envelope([choice({ content: piece })]));
	}

	out.push(envelope([choice({}, finishReason(r))]));
	if (r.includeUsage) out.push(envelope([], { usage: usage(r), ...timings(r) }));
	return out;
}

/** The deltas of the tool calls: a head (id, name) and argument fragments by index, or whole calls as Ollama /v1 sends them. */
function callDeltas(r: Resolved, opening: boolean): object[] {
	const out: object[] = [];
	r.calls.forEach((call, position) => {
		const index = r.callShape === 'indexZero' ? 0 : position;
		if (r.callShape === 'indexZero' || r.callShape === 'objectArguments') {
			// Whole calls in one delta each, as Ollama's /v1 sends them.
			const args = r.callShape === 'objectArguments' ? parseOr(call.arguments) : call.arguments;
			out.push({
				tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: args } }],
			});
			return;
		}
		const head = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
		const first =
			opening && out.length === 0
				? { role: 'assistant', content: null, tool_calls: [head], refusal: null }
				: { tool_calls: [head] };
		out.push(first);
		for (const part of argumentDeltas(call.arguments, r.argSplit, r.argDeltas)) {
			out.push({ tool_calls: [{ index, function: { arguments: part } }] });
		}
	});
	return out;
}

/** One call's argument deltas in the shape a server streams them (ReplyStep.argDeltas). */
function argumentDeltas(args: string, split: number, shape: Resolved['argDeltas']): unknown[] {
	const pieces = splitInto(args, split);
	switch (shape) {
		case 'pieces':
			return pieces;
		case 'accumulated':
			// Every delta the whole text so far.
			return pieces.map((_, i) => pieces.slice(0, i + 1).join(''));
		case 'repeatComplete':
			return [...pieces, args];
		case 'objectPieces':
			return objectPieces(args, split);
	}
}

/**
 * MiniMax's object-valued argument deltas: the keys over consecutive deltas, each delta an
 * object, a long string value cut so its rest arrives under the same key in the next delta.
 */
function objectPieces(args: string, split: number): unknown[] {
	const value = parseOr(args);
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		return [args];
	}
	const out: Array<Record<string, unknown>> = [];
	for (const [key, v] of Object.entries(value)) {
		if (typeof v === 'string' && v.length > 1) {
			for (const part of splitInto(v, Math.max(2, split))) out.push({ [key]: part });
		} else {
			out.push({ [key]: v });
		}
	}
	return out.length > 0 ? out : [{}];
}

function completion(r: Resolved) {
	const message: Record<string, unknown> = {
		role: 'assistant',
		content: r.text || (r.calls.length ? null : ''),
		refusal: null,
	};
	if (r.calls.length) {
		message.tool_calls = r.calls.map(c => ({
			id: c.id,
			type: 'function',
			function: { name: c.name, arguments: c.arguments },
		}));
	}
	return {
		id: randomId('chatcmpl-'),
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: r.model,
		system_fingerprint: 'fp_double',
		choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(r) }],
		usage: usage(r),
	};
}

function parseOr(s: string): unknown {
	try {
		return JSON.parse(s);
	} catch {
		return s;
	}
}
