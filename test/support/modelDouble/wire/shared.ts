// Helpers shared by the three wire renderers.

import { randomBytes } from 'node:crypto';
import type { RecordedRequest, ReplyStep } from '../types';

/** What a renderer hands to the writer: a status, headers and the frames of the body. */
export interface Rendering {
	status: number;
	headers: Record<string, string>;
	frames: string[];
	/** Frame emitted by `errorAfter` in this wire's in-stream error format. */
	errorFrame?: (type: string, message: string) => string;
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
		promptTokens: step.usage?.promptTokens ?? estimateTokens(JSON.stringify(body.messages ?? body)),
		completionTokens: step.usage?.completionTokens ?? estimateTokens(out),
		cachedTokens: step.usage?.cachedTokens ?? 0,
		finishReason: step.finishReason,
		stream,
		includeUsage: body.stream_options?.include_usage === true,
		reasoning: step.reasoning ?? '',
		reasoningField: step.reasoningField ?? 'reasoning_content',
		callShape: step.callShape ?? 'standard',
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
