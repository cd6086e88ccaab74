// Builders keep test scripts short and readable. Every builder returns plain data, so the
// same call works in-process and serialised over the control API.

import type { DataStep, Faults, HttpErrorStep, ReplyStep, ToolCallSpec, Usage, WireErrorStep } from './types';

export interface ReplyOptions extends Faults {
	usage?: Usage;
	finishReason?: string;
	model?: string;
}

export interface TextOptions extends ReplyOptions {
	chunks?: number;
}

export interface CallInput {
	name: string;
	/** An object is serialised with JSON.stringify; a string is kept verbatim (malformed JSON on purpose). */
	arguments: object | string;
	id?: string;
}

export interface ToolOptions extends ReplyOptions {
	/** Fragments per call's arguments; default 3 so clients must reassemble by index. */
	split?: number;
	/** Chunks for the text of textThenTools. */
	chunks?: number;
}

/** Streamed assistant text, split into `chunks` pieces (default: one per word, at most 8). */
export function text(content: string, opts: TextOptions = {}): ReplyStep {
	const { chunks, ...rest } = opts;
	return { kind: 'reply', text: content, textChunks: chunks ?? defaultChunks(content), ...rest };
}

/** One response carrying one or more tool calls; arguments arrive in `split` fragments. */
export function toolCalls(calls: CallInput[], opts: ToolOptions = {}): ReplyStep {
	const { split, chunks, ...rest } = opts;
	return { kind: 'reply', toolCalls: calls.map(toSpec), argSplit: split ?? 3, ...rest };
}

export function toolCall(name: string, args: object | string, opts: ToolOptions = {}): ReplyStep {
	return toolCalls([{ name, arguments: args }], opts);
}

/** Text first, then the calls, in one response (llama.cpp #13224: content and tool_calls together). */
export function textThenTools(content: string, calls: CallInput[], opts: ToolOptions = {}): ReplyStep {
	const step = toolCalls(calls, opts);
	return { ...step, text: content, textChunks: opts.chunks ?? defaultChunks(content) };
}

/** Literal status + body (+ headers), identical on every wire. See presets.ts for real bodies. */
export function httpError(
	status: number,
	body: unknown,
	headers?: Record<string, string>,
	faults: Faults = {},
): HttpErrorStep {
	return { kind: 'httpError', status, body, ...(headers ? { headers } : {}), ...faults };
}

/** An error in the native envelope of whichever wire is hit: one step, three real shapes. */
export function wireError(
	status: number,
	message: string,
	opts: { type?: string; code?: string | null; headers?: Record<string, string> } & Faults = {},
): WireErrorStep {
	return { kind: 'wireError', status, message, ...opts };
}

/** A reset connection before any byte of response (F5/F7 style transport failure). */
export function disconnect(): ReplyStep {
	return { kind: 'reply', text: '', closeBeforeHeaders: true };
}

/** Add faults to any step without rebuilding it. */
export function withFaults<S extends DataStep>(step: S, faults: Faults): S {
	return { ...step, ...faults };
}

function toSpec(c: CallInput): ToolCallSpec {
	const args = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments);
	return { name: c.name, arguments: args, ...(c.id ? { id: c.id } : {}) };
}

function defaultChunks(s: string): number {
	return Math.max(1, Math.min(8, s.split(/\s+/).filter(Boolean).length));
}
