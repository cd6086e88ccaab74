import { finishReason } from '../../stream/stopReasons';
import type { ModelEvent, TokenUsage } from '../../chatModel';
import { contentPieces } from '../../stream/contentParts';
import { inStreamError, payloadError } from '../../stream/payloadError';
import { tryParseJson } from '../../../util/json';
import { RawJson, type Completion, type WireFrame } from '../../stream/responseBody';

interface Block {
	type?: string;
	id?: string;
	name?: string;
	input?: unknown;
	text?: string;
	thinking?: string;
}

interface WireEvent {
	type?: string;
	index?: number;
	message?: { usage?: WireUsage; content?: Block[]; stop_reason?: string | null };
	content_block?: Block;
	delta?: { type?: string; text?: string; thinking?: string; partial_json?: string; stop_reason?: string | null };
	usage?: { output_tokens?: number };
}

interface WireUsage {
	input_tokens?: number;
	cache_read_input_tokens?: number | null;
	cache_creation_input_tokens?: number | null;
}

interface Call {
	index: number;
	id: string;
	name: string;
	rawArguments: string;
	/** `input` of the block's start: proxies that send the whole input there and no fragments. */
	startInput?: unknown;
}

/**
 * Anthropic Messages events → ModelEvents. Text, thinking and `input_json_delta` fragments are
 * accumulated per block; a tool_use block sent again with the same id is the same call; the
 * response is over at `message_stop` (a socket left open after it does not matter); an error
 * event, or an error payload in any envelope, is an error whatever the HTTP status said.
 */
export class AnthropicStreamReader implements Completion {
	private readonly _calls = new Map<number, Call>();
	private readonly _byId = new Map<string, Call>();
	private readonly _raw = new RawJson();
	private readonly _usage: TokenUsage = {};
	private _stopReason: string | null | undefined;
	private _done = false;
	private _events = 0;

	ended(): boolean {
		return this._done;
	}

	settled(): boolean {
		return this._stopReason !== undefined;
	}

	*frame(frame: WireFrame): Generator<ModelEvent> {
		if (frame.kind === 'raw') {
			const value = this._raw.push(frame.line);
			if (value !== undefined) {
				yield* this._event(value as WireEvent, JSON.stringify(value), undefined);
			}
			return;
		}
		this._events++;
		const value = tryParseJson(frame.data);
		if (value === undefined) {
			inStreamError(frame.data.trim().slice(0, 500), frame.data);
		}
		yield* this._event(value as WireEvent, frame.data, frame.event);
	}

	*finish(): Generator<ModelEvent> {
		const leftover = this._raw.leftover;
		if (leftover && this._events === 0) {
			inStreamError(payloadError(tryParseJson(leftover))?.message ?? leftover.slice(0, 500), leftover);
		}
		for (const call of new Set(this._calls.values())) {
			const input = call.rawArguments || (hasKeys(call.startInput) ? JSON.stringify(call.startInput) : '{}');
			yield { type: 'toolCall', index: call.index, id: call.id, name: call.name, rawArguments: input };
		}
		yield { type: 'finish', reason: stopReason(this._stopReason), usage: this._usage };
	}

	private *_event(event: WireEvent, text: string, name: string | undefined): Generator<ModelEvent> {
		const error = payloadError(event);
		if (name === 'error' || error) {
			inStreamError(error?.message ?? text.slice(0, 500), text);
		}
		switch (event.type) {
			case 'message_start':
				Object.assign(this._usage, anthropicUsage(event.message?.usage));
				break;
			case 'content_block_start':
				yield* this._start(event.index ?? this._calls.size, event.content_block ?? {});
				break;
			case 'content_block_delta':
				yield* this._delta(event);
				break;
			case 'message_delta':
				this._stopReason = event.delta?.stop_reason ?? this._stopReason ?? null;
				this._usage.completionTokens = event.usage?.output_tokens ?? undefined;
				break;
			case 'message_stop':
				this._done = true;
				this._stopReason ??= null;
				break;
			case 'ping':
				// Anthropic pings while it works: a sign of life before the first token, nothing more.
				yield { type: 'waiting' };
				break;
			case 'message':
				// A whole message where a stream was asked for.
				yield* this._message(event as WireEvent & { content?: Block[]; stop_reason?: string });
				break;
			case undefined:
				// A frame with no type (a proxy's keep-alive) says nothing about the reply; so do the
				// types not named here (`content_block_stop`, ones added later).
				break;
		}
	}

	private *_message(message: { content?: Block[]; stop_reason?: string }): Generator<ModelEvent> {
		for (const [index, block] of (message.content ?? []).entries()) {
			yield* this._start(index, block);
		}
		this._stopReason = message.stop_reason ?? 'end_turn';
		this._done = true;
	}

	private *_start(index: number, block: Block): Generator<ModelEvent> {
		if (block.type !== 'tool_use') {
			const pieces = contentPieces(
				block.type === 'thinking' ? { type: 'thinking', thinking: block.thinking } : block,
			);
			yield* pieceEvents(pieces.text, pieces.reasoning);
			return;
		}
		const again = block.id ? this._byId.get(block.id) : undefined;
		if (again) {
			// The same call sent again: merge it, and take its input only if the first carried none.
			this._calls.set(index, again);
			again.startInput ??= block.input;
			return;
		}
		const call: Call = {
			index: this._byId.size,
			id: block.id ?? '',
			name: block.name ?? '',
			rawArguments: '',
			startInput: block.input,
		};
		this._calls.set(index, call);
		this._byId.set(call.id || `#${index}`, call);
		yield { type: 'toolCallDelta', index: call.index, id: call.id, name: call.name, argumentsDelta: '' };
	}

	private *_delta(event: WireEvent): Generator<ModelEvent> {
		const delta = event.delta ?? {};
		if (delta.type === 'text_delta' && delta.text) {
			yield { type: 'text', text: delta.text };
		} else if (delta.type === 'thinking_delta' && delta.thinking) {
			// Shown folded; not replayed, since Keel never asks for extended thinking with its signatures.
			yield { type: 'reasoning', text: delta.thinking, field: 'anthropic' };
		} else if (delta.type === 'input_json_delta' && delta.partial_json) {
			const call = this._calls.get(event.index ?? -1);
			if (call && !isComplete(call.rawArguments)) {
				call.rawArguments += delta.partial_json;
				yield { type: 'toolCallDelta', index: call.index, argumentsDelta: delta.partial_json };
			}
		}
	}
}

/** `input_tokens` counts only what followed the last cache breakpoint: the prompt is all three together. */
function anthropicUsage(wire: WireUsage | undefined): TokenUsage {
	if (!wire) {
		return {};
	}
	const read = wire.cache_read_input_tokens ?? 0;
	const written = wire.cache_creation_input_tokens ?? 0;
	return {
		promptTokens: (wire.input_tokens ?? 0) + read + written,
		cachedTokens: read,
		prefilledTokens: (wire.input_tokens ?? 0) + written,
	};
}

function* pieceEvents(text: string, reasoning: string): Generator<ModelEvent> {
	if (reasoning) {
		yield { type: 'reasoning', text: reasoning, field: 'anthropic' };
	}
	if (text) {
		yield { type: 'text', text };
	}
}

/** Anthropic's stop reasons read for their meaning (`model_context_window_exceeded` is the overflow error). */
function stopReason(reason: string | null | undefined): string {
	return finishReason(reason ?? 'end_turn');
}

function hasKeys(value: unknown): boolean {
	return !!value && typeof value === 'object' && Object.keys(value).length > 0;
}

/** A call's fragments already make a whole object: more fragments under a re-sent block are repeats. */
function isComplete(raw: string): boolean {
	const value = tryParseJson(raw);
	return !!value && typeof value === 'object' && !Array.isArray(value);
}
