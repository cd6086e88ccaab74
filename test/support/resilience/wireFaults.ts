// Wire quirks of real servers, one class each: SSE framed every way the spec allows, a socket
// held open after the last chunk, content as a list of parts, calls sent twice, finish reasons
// missing or wrong, errors inside a 200 stream in every shape (some carrying the model's failed
// call), and ids the next server refuses.

import { httpError, text, toolCall, withFaults, type DataStep, type ReplyStep, type Wire } from '../modelDouble';
import type { StepView } from './stepView';

export const WIRE_CLASSES = [
	'sseFraming',
	'heldOpen',
	'contentParts',
	'resentCalls',
	'finishReason',
	'errorIn200',
	'failedOutputIn200',
	'idRules',
] as const;
export type WireClass = (typeof WIRE_CLASSES)[number];

/** The wires a class concerns (SSE framing has no meaning on Ollama's NDJSON, content parts are OpenAI's). */
export const WIRE_CLASS_WIRES: Partial<Record<WireClass, readonly Wire[]>> = {
	sseFraming: ['openai', 'anthropic'],
	contentParts: ['openai'],
	idRules: ['openai', 'anthropic'],
};

/** Classes whose fault only makes sense on a call (phases 0–2). */
export const CALL_ONLY: readonly WireClass[] = ['resentCalls', 'failedOutputIn200', 'idRules'];

export function wireFault(fault: WireClass, v: StepView): DataStep {
	const good = v.good(v.phase);
	const variant = v.s.variant;
	switch (fault) {
		case 'sseFraming':
			return reply(good, {
				sse: [
					{ comments: true },
					{ noSpace: true, crlf: true },
					{ multiline: true },
					{ noDone: true, comments: true, crlf: true },
					{ comments: true, noSpace: true, crlf: true, multiline: true, noDone: true },
				][variant],
			});
		case 'heldOpen':
			return reply(good, { holdOpen: true, ...(variant % 2 ? { sse: { noDone: true } } : {}) });
		case 'contentParts':
			return reply(good, {
				contentParts: true,
				...(variant % 2 ? { reasoning: 'Thinking it through first.' } : {}),
			});
		case 'resentCalls':
			return reply(good, { resendCalls: true });
		case 'finishReason':
			return wrongFinish(good, v.s.wire, variant);
		case 'errorIn200':
			return v.fire() < v.s.burst ? errorInStream(good, variant) : good;
		case 'failedOutputIn200':
			return v.corrected || v.conv.textMode ? good : failedOutput(v, variant);
		case 'idRules':
			return idTrouble(v, good, variant);
	}
}

function reply(step: DataStep, extra: Partial<ReplyStep>): DataStep {
	return step.kind === 'reply' ? { ...step, ...extra } : step;
}

/** No finish reason, or one that contradicts the content: the content decides. */
function wrongFinish(good: DataStep, wire: Wire, variant: number): DataStep {
	if (good.kind !== 'reply') return good;
	const calls = (good.toolCalls?.length ?? 0) > 0;
	const says = (reason: { openai: string; ollama: string; anthropic: string }) => ({ finishReason: reason[wire] });
	switch (variant % 4) {
		case 0:
			return { ...good, omitFinish: true };
		case 1:
			return {
				...good,
				...says(
					calls
						? { openai: 'stop', ollama: 'stop', anthropic: 'end_turn' }
						: { openai: 'tool_calls', ollama: 'stop', anthropic: 'tool_use' },
				),
			};
		case 2:
			return { ...good, ...says({ openai: 'eos', ollama: 'unload', anthropic: 'pause_turn' }) };
		default:
			return calls
				? { ...good, ...says({ openai: 'length', ollama: 'length', anthropic: 'max_tokens' }) }
				: { ...good, omitFinish: true };
	}
}

/** A transient failure reported inside the 200 response, in five shapes servers use. */
function errorInStream(good: DataStep, variant: number): DataStep {
	const shapes: Array<[DataStep['streamErrorShape'], unknown]> = [
		['event', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
		[
			'data',
			{ object: 'error', message: 'The server is busy, please try again.', type: 'server_error', code: 503 },
		],
		['raw', { error: 'upstream connect error or disconnect/reset before headers' }],
		[
			'data',
			{
				id: 'chatcmpl-1',
				choices: [{ index: 0, delta: {}, finish_reason: 'error' }],
				error: { message: 'Provider returned error', code: 502 },
			},
		],
	];
	if (variant % 5 === 4) {
		// The whole body is a JSON error, with status 200.
		return httpError(200, {
			error: { message: 'Service temporarily unavailable', type: 'server_error', code: 503 },
		});
	}
	const [shape, body] = shapes[variant % 5];
	return withFaults(good, { errorAfter: 1, streamErrorShape: shape, streamErrorBody: body });
}

/** The server failed to parse the model's call and put what the model wrote in its error. */
function failedOutput(v: StepView, variant: number): DataStep {
	const call = JSON.stringify({ name: v.name, arguments: v.args });
	const inner = JSON.stringify(v.args);
	const bodies: unknown[] = [
		// Groq: tool_use_failed with the generation in its own field.
		{
			error: {
				message:
					"Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
				type: 'invalid_request_error',
				code: 'tool_use_failed',
				failed_generation: `<function=${v.name}>${inner}</function>`,
			},
		},
		{ error: `error parsing tool call: raw='${call}', err=invalid character '<' looking for beginning of value` },
		{
			error: {
				message: 'Failed to parse the tool call in the model output',
				raw_output: `<tool_call>\n${call}\n</tool_call>`,
			},
		},
		{
			object: 'error',
			message: `Could not parse tool call from model output: ${v.name}(${Object.entries(v.args)
				.map(([k, x]) => `${k}=${JSON.stringify(x)}`)
				.join(', ')})`,
			code: 500,
		},
	];
	if (variant % 5 === 4) {
		return httpError(variant % 2 ? 200 : 400, bodies[0]);
	}
	return withFaults(text(''), {
		errorAfter: 0,
		streamErrorShape: variant % 2 ? 'data' : 'event',
		streamErrorBody: bodies[variant % 4],
	});
}

/**
 * Ids the next request must carry back in the server's own form: calls whose server sent no id
 * (Keel makes one up), a Mistral-style server that takes only 9 alphanumerics, and on the
 * Anthropic wire an id carried over from another provider.
 */
function idTrouble(v: StepView, good: DataStep, variant: number): DataStep {
	if (good.kind !== 'reply' || !good.toolCalls?.length) return good;
	const calls = good.toolCalls;
	if (v.s.wire === 'anthropic') {
		return { ...good, toolCalls: calls.map(c => ({ ...c, id: `functions.${c.name}:${variant}` })) };
	}
	switch (variant % 3) {
		case 0:
			return { ...good, toolCalls: calls.map(c => ({ ...c, id: '' })) };
		case 1:
			return {
				...text(`<tool_call>${JSON.stringify({ name: v.name, arguments: v.args })}</tool_call>`),
				idRule: 'mistral',
			};
		default:
			return { ...toolCall(v.name, v.args), toolCalls: calls.map(c => ({ ...c, id: '' })), idRule: 'mistral' };
	}
}
