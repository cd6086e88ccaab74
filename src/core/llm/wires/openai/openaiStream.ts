import { finishReason } from '../../stream/stopReasons';
import { newCallId } from '../../../util/ids';
import type { ModelEvent, PrefillProgress, ServerTimings, TokenUsage } from '../../chatModel';
import { contentPieces } from '../../stream/contentParts';
import { inStreamError, payloadError } from '../../stream/payloadError';
import { tryParseJson } from '../../../util/json';
import { RawJson, type Completion, type WireFrame } from '../../stream/responseBody';
import { ToolCallAssembler } from '../../stream/toolCallAssembler';

type WireToolDelta = {
	index?: number;
	id?: string | null;
	function?: { name?: string | null; arguments?: unknown } | null;
};

/** A streamed delta as the servers really send it, beyond the SDK's type. */
interface WireDelta {
	content?: unknown;
	reasoning_content?: unknown;
	reasoning?: unknown;
	tool_calls?: WireToolDelta[];
	function_call?: { id?: string; name?: string; arguments?: unknown } | null;
}

interface WireChunk {
	/** llama.cpp, with `return_progress: true`: how far it is through the prompt, before the first token. */
	prompt_progress?: { total?: number; cache?: number; processed?: number; time_ms?: number };
	choices?: Array<{ delta?: WireDelta; message?: WireDelta; finish_reason?: string | null }>;
	usage?: {
		prompt_tokens?: number;
		completion_tokens?: number;
		prompt_tokens_details?: { cached_tokens?: number };
	} | null;
	/** llama.cpp's own counts and clock beside `usage`. */
	timings?: { cache_n?: number; prompt_n?: number; prompt_ms?: number; predicted_n?: number; predicted_ms?: number };
}

/**
 * Chat-completion chunks → ModelEvents, tolerant of what servers send: content as a string or
 * a list of parts, reasoning in `reasoning_content` or `reasoning` or a thinking part,
 * arguments as text or an object, the legacy `function_call`, calls sent again, a non-streamed
 * completion where a stream was asked for (it arrives as raw lines), and errors inside the
 * 200 stream in any shape.
 */
export class OpenAIStreamReader implements Completion {
	private readonly _assembler = new ToolCallAssembler();
	private readonly _raw = new RawJson();
	private _finishReason: string | undefined;
	private _usage: TokenUsage | undefined;
	private _timings: ServerTimings | undefined;
	private _done = false;
	private _events = 0;

	ended(): boolean {
		return this._done;
	}

	/** After a finish reason the content is over; only a usage chunk and `[DONE]` may follow. */
	settled(): boolean {
		return this._finishReason !== undefined;
	}

	*frame(frame: WireFrame): Generator<ModelEvent> {
		if (frame.kind === 'raw') {
			const value = this._raw.push(frame.line);
			if (value !== undefined) {
				yield* this._payload(value, JSON.stringify(value));
			}
			return;
		}
		this._events++;
		const data = frame.data.trim();
		if (data === '[DONE]') {
			this._done = true;
			return;
		}
		const value = tryParseJson(data);
		if (value === undefined || frame.event === 'error') {
			// `event: error`, or a data line that is not JSON (a proxy's text): an error in the server's words.
			inStreamError(value === undefined ? data : (payloadError(value)?.message ?? data), data);
		}
		yield* this._payload(value, data);
	}

	/** What came after the last event: assembled calls, then the finish. */
	*finish(): Generator<ModelEvent> {
		const leftover = this._raw.leftover;
		if (leftover && this._events === 0) {
			inStreamError(payloadError(tryParseJson(leftover))?.message ?? leftover.slice(0, 500), leftover);
		}
		const reason = finishReason(this._finishReason ?? 'stop');
		const calls = this._assembler.finish(() => newCallId());
		for (const call of calls) {
			yield {
				type: 'toolCall',
				index: call.index,
				id: call.id,
				name: call.name,
				rawArguments: call.rawArguments,
			};
		}
		const usage = this._timings ? { ...this._usage, timings: this._timings } : this._usage;
		yield { type: 'finish', reason, usage };
	}

	private *_payload(value: unknown, text: string): Generator<ModelEvent> {
		const error = payloadError(value);
		if (error) {
			inStreamError(error.message, text);
		}
		const chunk = value as WireChunk;
		const progress = prefillProgress(chunk.prompt_progress);
		if (progress) {
			yield { type: 'waiting', progress };
		}
		if (chunk.usage) {
			this._usage = usageOf(chunk);
		}
		if (chunk.timings && typeof chunk.timings === 'object') {
			this._timings = llamaCppTimings(chunk.timings);
		}
		const choice = chunk.choices?.[0];
		if (!choice) {
			return;
		}
		yield* this._delta((choice.delta ?? choice.message ?? {}) as WireDelta);
		if (choice.finish_reason) {
			this._finishReason = choice.finish_reason === 'function_call' ? 'tool_calls' : choice.finish_reason;
		}
	}

	private *_delta(delta: WireDelta): Generator<ModelEvent> {
		// DeepSeek, vLLM, llama.cpp and Qwen servers send `reasoning_content`; Ollama /v1, OpenRouter and LM Studio `reasoning`.
		for (const field of ['reasoning_content', 'reasoning'] as const) {
			const text = contentPieces(delta[field]);
			if (text.text || text.reasoning) {
				yield { type: 'reasoning', text: text.text + text.reasoning, field };
				break;
			}
		}
		const content = contentPieces(delta.content);
		if (content.reasoning) {
			yield { type: 'reasoning', text: content.reasoning };
		}
		if (content.text) {
			yield { type: 'text', text: content.text };
		}
		// The legacy `function_call` field (older servers and fine-tunes): one call, index 0.
		const toolDeltas =
			delta.tool_calls ??
			(delta.function_call ? [{ index: 0, id: delta.function_call.id, function: delta.function_call }] : []);
		for (const [position, toolDelta] of toolDeltas.entries()) {
			const { call, appended } = this._assembler.add(toolDelta, position);
			yield {
				type: 'toolCallDelta',
				index: call.index,
				id: call.id || undefined,
				name: call.name || undefined,
				argumentsDelta: appended,
			};
		}
	}
}

/**
 * llama.cpp's `prompt_progress` frame: `total` prompt tokens, `cache` of them reused,
 * `processed` so far (the cached ones included), `time_ms` since it started on the prompt.
 * https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md (return_progress)
 */
function prefillProgress(raw: WireChunk['prompt_progress']): PrefillProgress | undefined {
	if (!raw || typeof raw !== 'object' || typeof raw.total !== 'number' || typeof raw.processed !== 'number') {
		return undefined;
	}
	return {
		total: raw.total,
		cached: typeof raw.cache === 'number' ? raw.cache : 0,
		processed: raw.processed,
		...(typeof raw.time_ms === 'number' ? { elapsedMs: raw.time_ms } : {}),
	};
}

/** The last chunk's counts as servers send them: OpenAI's `prompt_tokens_details`, llama.cpp's `timings`. */
function usageOf(chunk: WireChunk): TokenUsage {
	const cached = chunk.usage?.prompt_tokens_details?.cached_tokens ?? chunk.timings?.cache_n;
	return {
		promptTokens: chunk.usage?.prompt_tokens,
		completionTokens: chunk.usage?.completion_tokens,
		...(cached !== undefined ? { cachedTokens: cached } : {}),
		...(chunk.timings?.prompt_n !== undefined ? { prefilledTokens: chunk.timings.prompt_n } : {}),
	};
}

/** llama.cpp's server times each request and sends it with the last chunk. */
function llamaCppTimings(timings: NonNullable<WireChunk['timings']>): ServerTimings {
	return {
		promptTokens: timings.prompt_n,
		promptMs: timings.prompt_ms,
		generatedTokens: timings.predicted_n,
		generationMs: timings.predicted_ms,
	};
}
