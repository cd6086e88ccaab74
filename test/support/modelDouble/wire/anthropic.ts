// Anthropic Messages streaming: named SSE events message_start → content_block_start /
// content_block_delta (text_delta, input_json_delta) / content_block_stop per block →
// message_delta (stop_reason, usage) → message_stop, with a ping after message_start.

import { randomId, splitInto, type Rendering, type Resolved } from './shared';

export function renderAnthropic(r: Resolved): Rendering {
	const requestId = randomId('req_');
	const id = randomId('msg_');
	const stopReason = r.finishReason ?? (r.calls.length ? 'tool_use' : 'end_turn');
	if (!r.stream) {
		return {
			status: 200,
			headers: { 'content-type': 'application/json', 'request-id': requestId },
			frames: [JSON.stringify(message(r, id, stopReason))],
		};
	}

	const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
	const frames: string[] = [];
	frames.push(
		ev('message_start', {
			message: {
				id,
				type: 'message',
				role: 'assistant',
				model: r.model,
				content: [],
				stop_reason: null,
				stop_sequence: null,
				usage: {
					input_tokens: r.promptTokens - r.cachedTokens,
					cache_creation_input_tokens: 0,
					cache_read_input_tokens: r.cachedTokens,
					output_tokens: 1,
				},
			},
		}),
	);
	frames.push(ev('ping', {}));

	let index = 0;
	if (r.reasoning) {
		// Extended thinking: a thinking block with thinking_delta fragments and a closing signature_delta.
		frames.push(
			ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
		);
		for (const t of splitInto(r.reasoning, r.textChunks))
			frames.push(ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: t } }));
		frames.push(
			ev('content_block_delta', {
				index,
				delta: { type: 'signature_delta', signature: 'EqQBCkYIAxgCIkD' + randomId('', 40) },
			}),
		);
		frames.push(ev('content_block_stop', { index }));
		index++;
	}
	if (r.text) {
		frames.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
		for (const t of splitInto(r.text, r.textChunks)) {
			frames.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: t } }));
		}
		frames.push(ev('content_block_stop', { index }));
		index++;
	}
	for (const call of r.calls) {
		frames.push(
			ev('content_block_start', {
				index,
				content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
			}),
		);
		// The API opens every tool_use block with an empty partial_json before the real fragments.
		const parts = ['', ...splitInto(call.arguments, r.argSplit)];
		for (const p of parts)
			frames.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } }));
		frames.push(ev('content_block_stop', { index }));
		index++;
	}
	frames.push(
		ev('message_delta', {
			delta: { stop_reason: stopReason, stop_sequence: null },
			usage: { output_tokens: r.completionTokens },
		}),
	);
	frames.push(ev('message_stop', {}));

	return {
		status: 200,
		headers: {
			'content-type': 'text/event-stream; charset=utf-8',
			'cache-control': 'no-cache',
			'request-id': requestId,
		},
		frames,
		// The SDK turns `event: error` into an APIError even though the HTTP status was 200 (F13).
		errorFrame: (type, msg) => `event: error\ndata: ${JSON.stringify(anthropicErrorBody(type, msg))}\n\n`,
	};
}

export function anthropicErrorBody(type: string, message: string) {
	return { type: 'error', error: { type, message }, request_id: randomId('req_') };
}

/** Anthropic's error `type` for a status, as documented for the Messages API. */
export function anthropicErrorType(status: number): string {
	const byStatus: Record<number, string> = {
		400: 'invalid_request_error',
		401: 'authentication_error',
		403: 'permission_error',
		404: 'not_found_error',
		413: 'request_too_large',
		429: 'rate_limit_error',
		500: 'api_error',
		529: 'overloaded_error',
	};
	return byStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function anthropicModels(models: string[]) {
	const data = models.map(id => ({ type: 'model', id, display_name: id, created_at: new Date(0).toISOString() }));
	return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
}

function message(r: Resolved, id: string, stopReason: string) {
	const content: object[] = [];
	if (r.text) content.push({ type: 'text', text: r.text });
	for (const c of r.calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: parseOr(c.arguments) });
	return {
		id,
		type: 'message',
		role: 'assistant',
		model: r.model,
		content,
		stop_reason: stopReason,
		stop_sequence: null,
		usage: {
			input_tokens: r.promptTokens - r.cachedTokens,
			cache_creation_input_tokens: 0,
			cache_read_input_tokens: r.cachedTokens,
			output_tokens: r.completionTokens,
		},
	};
}

/** Malformed arguments stay visible as the raw string rather than being silently fixed. */
function parseOr(s: string): unknown {
	try {
		return JSON.parse(s);
	} catch {
		return s;
	}
}
