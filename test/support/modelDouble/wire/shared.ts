// Helpers shared by the three wire renderers.

import { randomBytes } from 'node:crypto';
import type { ArgDeltaShape, RecordedRequest, ReplyStep, SseStyle } from '../types';

/** What a renderer hands to the writer: a status, headers and the frames of the body. */
export interface Rendering {
	status: number;
	headers: Record<string, string>;
	frames: string[];
	/** The body `errorAfter` sends in this wire's own in-stream error envelope. */
	errorBody?: (type: string, message: string) => unknown;
	/** How this wire frames an in-stream error by default (`errorAfter` without a `streamErrorShape`). */
	errorShape?: 'event' | 'data' | 'ndjson';
	/** SSE style of the response, for in-stream error frames. */
	sse?: SseStyle;
}

export interface ResolvedCall {
	id: string;
	name: string;
	arguments: string;
}

/** A reply step after templates and defaults are applied, ready to render on any wire. */
export interface Resolved {
	model: string;
	text: string;
	textChunks: number;
	calls: ResolvedCall[];
	argSplit: number;
	promptTokens: number;
	completionTokens: number;
	/** Of promptTokens, those served from the cache (0 unless scripted). */
	cachedTokens: number;
	finishReason?: string;
	stream: boolean;
	includeUsage: boolean;
	reasoning: string;
	reasoningField: 'reasoning_content' | 'reasoning';
	callShape: 'standard' | 'legacyFunctionCall' | 'indexZero' | 'objectArguments';
	argDeltas: ArgDeltaShape;
	sse: SseStyle;
	contentParts: boolean;
	resendCalls: boolean;
	omitFinish: boolean;
	textAfter: string;
	serverTimings?: { promptMs: number; generationMs: number };
}

export function randomId(prefix: string, len = 24): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	const bytes = randomBytes(len);
	let out = '';
	for (const b of bytes) out += alphabet[b % alphabet.length];
	return prefix + out;
}

/** Split into n nearly equal pieces by code point, so no surrogate pair or emoji is torn. */
export function splitInto(s: string, n: number): string[] {
	const cps = Array.from(s);
	const parts = Math.max(1, Math.min(Math.floor(n) || 1, cps.length || 1));
	const out: string[] = [];
	for (let i = 0; i < parts; i++) {
		const from = Math.floor((i * cps.length) / parts);
		const to = Math.floor(((i + 1) * cps.length) / parts);
		out.push(cps.slice(from, to).join(''));
	}
	return out;
}

/** Rough token count (4 chars a token), good enough for budget tests that override it anyway. */
export function estimateTokens(s: string): number {
	return Math.max(1, Math.ceil(s.length / 4));
}

export function resolve(
	step: ReplyStep,
	req: RecordedRequest,
	wire: 'openai' | 'ollama' | 'anthropic',
	filled: string,
): Resolved {
	const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, any>;
	const idPrefix = wire === 'anthropic' ? 'toolu_' : 'call_';
	const calls = (step.toolCalls ?? []).map(c => ({
		id: c.id ?? randomId(idPrefix),
		name: c.name,
		arguments: c.arguments,
	}));
	const out = filled + calls.map(c => c.name + c.arguments).join('');
	// Ollama streams unless told otherwise; OpenAI and Anthropic only when asked.
	const stream = wire === 'ollama' ? body.stream !== false : body.stream === true;
	return {
		model: step.model ?? (typeof body.model === 'string' ? body.model : 'double-model'),
		text: filled,
		textChunks: step.textChunks ?? 1,
		calls,
		argSplit: step.argSplit ?? 1,
		// A server counts everything its template renders: the system prompt, the messages and the tools.
		promptTokens:
			step.usage?.promptTokens ??
			estimateTokens(JSON.stringify([body.system ?? '', body.messages ?? body, body.tools ?? []])),
		completionTokens: step.usage?.completionTokens ?? estimateTokens(out),
		cachedTokens: step.usage?.cachedTokens ?? 0,
		finishReason: step.finishReason,
		stream,
		includeUsage: body.stream_options?.include_usage === true,
		reasoning: step.reasoning ?? '',
		reasoningField: step.reasoningField ?? 'reasoning_content',
		callShape: step.callShape ?? 'standard',
		argDeltas: step.argDeltas ?? 'pieces',
		sse: step.sse ?? {},
		contentParts: step.contentParts ?? false,
		resendCalls: step.resendCalls ?? false,
		omitFinish: step.omitFinish ?? false,
		textAfter: step.textAfter ?? '',
		serverTimings: step.serverTimings,
	};
}

export function jsonRendering(status: number, body: unknown, headers: Record<string, string> = {}): Rendering {
	return {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
		frames: [typeof body === 'string' ? body : JSON.stringify(body)],
	};
}

/** One SSE event in the given style: comments, `data:` without a space, CRLF, JSON over several data lines. */
export function sseEvent(payload: unknown, style: SseStyle, event?: string): string {
	const eol = style.crlf ? '\r\n' : '\n';
	const data = typeof payload === 'string' ? payload : JSON.stringify(payload, null, style.multiline ? 1 : undefined);
	const field = style.noSpace ? 'data:' : 'data: ';
	const lines = [
		...(style.comments ? [': keep-alive'] : []),
		...(event ? [`event: ${event}`] : []),
		...data.split('\n').map(line => field + line),
	];
	return lines.join(eol) + eol + eol;
}
