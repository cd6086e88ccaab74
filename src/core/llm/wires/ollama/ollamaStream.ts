import { finishReason } from '../../stream/stopReasons';
import { newCallId } from '../../../util/ids';
import type { ModelEvent, ServerTimings, TokenUsage } from '../../chatModel';
import { contentPieces } from '../../stream/contentParts';
import type { OllamaChunk } from './ollamaWire';
import { inStreamError, payloadError } from '../../stream/payloadError';
import { tryParseJson } from '../../../util/json';
import type { Completion } from '../../stream/responseBody';

interface Call {
	index: number;
	id: string;
	name: string;
	rawArguments: string;
}

/**
 * Ollama /api/chat lines → ModelEvents. Calls arrive whole, arguments as an object (or text);
 * a call sent again (its id, or the same name and arguments) is the same call; `done: true`
 * ends the response even if the connection stays open; an error line in any envelope is an
 * error. Lines a proxy framed as SSE (`data: …`) are read all the same.
 */
export class OllamaStreamReader implements Completion {
	private readonly _calls: Call[] = [];
	private readonly _usage: TokenUsage = {};
	private _finishReason: string | undefined;
	private _done = false;

	ended(): boolean {
		return this._done;
	}

	settled(): boolean {
		return this._done;
	}

	*line(line: string): Generator<ModelEvent> {
		const text = line.replace(/^data:\s?/, '').trim();
		if (!text || text === '[DONE]' || text.startsWith(':')) {
			return;
		}
		const value = tryParseJson(text);
		const error = value === undefined ? undefined : payloadError(value);
		if (error) {
			// Ollama reports failures after the 200 (e.g. "error parsing tool call") as a line.
			inStreamError(error.message, text);
		}
		const chunk = (value ?? {}) as OllamaChunk;
		if (chunk.message?.thinking) {
			yield { type: 'reasoning', text: chunk.message.thinking, field: 'thinking' };
		}
		const content = contentPieces(chunk.message?.content);
		if (content.reasoning) {
			yield { type: 'reasoning', text: content.reasoning, field: 'thinking' };
		}
		if (content.text) {
			yield { type: 'text', text: content.text };
		}
		yield* this._calls_(chunk);
		if (chunk.done) {
			this._done = true;
			this._finishReason = chunk.done_reason ?? 'stop';
			// Ollama counts the prompt tokens it evaluated: a prefix it had cached is not in it.
			this._usage.promptTokens = chunk.prompt_eval_count;
			this._usage.prefilledTokens = chunk.prompt_eval_count;
			this._usage.completionTokens = chunk.eval_count;
			this._usage.timings = ollamaTimings(chunk);
		}
	}

	*finish(): Generator<ModelEvent> {
		const reason = finishReason(this._finishReason);
		for (const call of this._calls) {
			yield { type: 'toolCall', ...call };
		}
		// Ollama says "stop" even for a tool turn; the loop keys on calls, the reason is informative.
		yield {
			type: 'finish',
			reason: this._calls.length > 0 ? 'tool_calls' : reason,
			usage: this._usage,
		};
	}

	private *_calls_(chunk: OllamaChunk): Generator<ModelEvent> {
		for (const wire of chunk.message?.tool_calls ?? []) {
			const args = wire.function?.arguments;
			const rawArguments = typeof args === 'string' ? args : JSON.stringify(args ?? {});
			const name = wire.function?.name ?? '';
			const again = this._calls.find(
				call =>
					(wire.id && call.id === wire.id) ||
					(call.name === name && sameJson(call.rawArguments, rawArguments)),
			);
			if (again) {
				continue;
			}
			const call = {
				index: this._calls.length,
				id: wire.id || newCallId(),
				name,
				rawArguments,
			};
			this._calls.push(call);
			yield { type: 'toolCallDelta', index: call.index, id: call.id, name, argumentsDelta: rawArguments };
		}
	}
}

const NS_PER_MS = 1_000_000;

/** Ollama's own clock, in nanoseconds, on its last line. */
function ollamaTimings(chunk: OllamaChunk): ServerTimings | undefined {
	if (chunk.prompt_eval_duration === undefined && chunk.eval_duration === undefined) {
		return undefined;
	}
	return {
		promptTokens: chunk.prompt_eval_count,
		promptMs: chunk.prompt_eval_duration === undefined ? undefined : chunk.prompt_eval_duration / NS_PER_MS,
		generatedTokens: chunk.eval_count,
		generationMs: chunk.eval_duration === undefined ? undefined : chunk.eval_duration / NS_PER_MS,
	};
}

function sameJson(a: string, b: string): boolean {
	if (a === b) {
		return true;
	}
	const x = tryParseJson(a);
	const y = tryParseJson(b);
	return x !== undefined && JSON.stringify(x) === JSON.stringify(y);
}
