import { randomUUID } from 'crypto';
import OpenAI from 'openai';
import { type AgentError } from '../errors';
import type { ChatModel, ChatRequest, ModelEvent, ServerTimings, TokenUsage } from './chatModel';
import { withOpenAIErrorEnvelope } from './errorEnvelope';
import { mapModelError, type EndpointInfo } from './httpErrors';
import { ToolCallAssembler } from './toolCallAssembler';
import { toOpenAIMessages, toOpenAITools } from './openaiWire';
import { replaysReasoning } from './reasoningReplay';

export interface OpenAIChatModelOptions extends EndpointInfo {
	apiKey?: string;
	/** SDK-level retries of pre-header failures; the agent's own recovery sits above this. */
	maxRetries?: number;
	timeoutMs?: number;
	/** Sent as max_tokens; undefined leaves it to the server. */
	maxOutputTokens?: number;
	fetch?: typeof fetch;
}

/** Chat completions over any OpenAI-compatible endpoint (Ollama /v1, llama.cpp, LM Studio, Z.AI, OpenAI). */
export class OpenAIChatModel implements ChatModel {
	readonly id: string;
	private readonly _client: OpenAI;

	constructor(private readonly _options: OpenAIChatModelOptions) {
		this.id = `openai:${_options.baseUrl}#${_options.model}`;
		this._client = new OpenAI({
			baseURL: _options.baseUrl,
			// Local servers ignore the key but the SDK insists on one; never a real secret by default.
			apiKey: _options.apiKey || 'no-key',
			maxRetries: _options.maxRetries ?? 0,
			timeout: _options.timeoutMs ?? 10 * 60_000,
			fetch: withOpenAIErrorEnvelope(_options.fetch),
			dangerouslyAllowBrowser: false,
		});
	}

	async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
		const tools = toOpenAITools(request.tools);
		let stream;
		try {
			stream = await this._client.chat.completions.create(
				{
					model: this._options.model,
					messages: toOpenAIMessages(
						request.messages,
						replaysReasoning(this._options.model),
					) as OpenAI.Chat.ChatCompletionMessageParam[],
					tools: tools.length > 0 ? tools : undefined,
					stream: true,
					stream_options: { include_usage: true },
					...(this._options.maxOutputTokens ? { max_tokens: this._options.maxOutputTokens } : {}),
					// Standard penalties only: api.openai.com rejects unknown parameters with a 400.
					...(request.avoidRepetition ? { frequency_penalty: 0.6, presence_penalty: 0.4 } : {}),
				},
				{ signal: request.signal },
			);
		} catch (error) {
			throw this._mapError(error);
		}

		const assembler = new ToolCallAssembler();
		let finishReason = 'stop';
		let usage: TokenUsage | undefined;
		let timings: ServerTimings | undefined;
		try {
			for await (const chunk of stream) {
				if (chunk.usage) {
					usage = usageOf(chunk as WireUsageChunk);
				}
				timings = llamaCppTimings((chunk as { timings?: LlamaCppTimings }).timings) ?? timings;
				const choice = chunk.choices?.[0];
				if (!choice) {
					continue;
				}
				const delta = (choice.delta ?? {}) as WireDelta;
				// DeepSeek, vLLM, llama.cpp and Qwen servers send `reasoning_content`; Ollama /v1, OpenRouter and LM Studio `reasoning`.
				if (typeof delta.reasoning_content === 'string' && delta.reasoning_content) {
					yield { type: 'reasoning', text: delta.reasoning_content, field: 'reasoning_content' };
				} else if (typeof delta.reasoning === 'string' && delta.reasoning) {
					yield { type: 'reasoning', text: delta.reasoning, field: 'reasoning' };
				}
				if (delta.content) {
					yield { type: 'text', text: delta.content };
				}
				// The legacy `function_call` field (older servers and fine-tunes): one call, index 0.
				const toolDeltas =
					delta.tool_calls ??
					(delta.function_call
						? [{ index: 0, id: delta.function_call.id, function: delta.function_call }]
						: []);
				for (const [position, toolDelta] of toolDeltas.entries()) {
					const call = assembler.add(toolDelta, position);
					yield {
						type: 'toolCallDelta',
						index: call.index,
						id: call.id || undefined,
						name: call.name || undefined,
						argumentsDelta:
							typeof toolDelta.function?.arguments === 'string'
								? toolDelta.function.arguments
								: toolDelta.function?.arguments
									? JSON.stringify(toolDelta.function.arguments)
									: '',
					};
				}
				if (choice.finish_reason) {
					finishReason = choice.finish_reason === 'function_call' ? 'tool_calls' : choice.finish_reason;
				}
			}
		} catch (error) {
			throw this._mapError(error, true);
		}
		for (const call of assembler.finish(() => `call_${randomUUID()}`)) {
			yield {
				type: 'toolCall',
				index: call.index,
				id: call.id,
				name: call.name,
				rawArguments: call.rawArguments,
			};
		}
		yield { type: 'finish', reason: finishReason, usage: timings ? { ...usage, timings } : usage };
	}

	private _mapError(error: unknown, midStream = false): AgentError {
		// A connection error is an APIError too, but carries no response to describe.
		const http =
			error instanceof OpenAI.APIError &&
			!(error instanceof OpenAI.APIConnectionError) &&
			!(error instanceof OpenAI.APIUserAbortError)
				? {
						status: error.status,
						body: error.error ? JSON.stringify(error.error) : error.message,
						headers: headerRecord(error.headers),
					}
				: undefined;
		return mapModelError(
			error,
			{ aborted: error instanceof OpenAI.APIUserAbortError, http },
			midStream,
			this._options,
		);
	}
}

type WireToolDelta = {
	index?: number;
	id?: string | null;
	function?: { name?: string | null; arguments?: unknown } | null;
};

/** A streamed delta as the servers really send it, beyond the SDK's type. */
interface WireDelta {
	content?: string | null;
	reasoning_content?: string | null;
	reasoning?: string | null;
	tool_calls?: WireToolDelta[];
	function_call?: { id?: string; name?: string; arguments?: unknown } | null;
}

/** The last chunk's counts as servers send them: OpenAI's `prompt_tokens_details`, llama.cpp's `timings`. */
interface WireUsageChunk {
	usage: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
	timings?: { cache_n?: number; prompt_n?: number };
}

function usageOf(chunk: WireUsageChunk): TokenUsage {
	const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? chunk.timings?.cache_n;
	return {
		promptTokens: chunk.usage.prompt_tokens,
		completionTokens: chunk.usage.completion_tokens,
		...(cached !== undefined ? { cachedTokens: cached } : {}),
		...(chunk.timings?.prompt_n !== undefined ? { prefilledTokens: chunk.timings.prompt_n } : {}),
	};
}

/** llama.cpp's server times each request and sends it with the last chunk. */
interface LlamaCppTimings {
	prompt_n?: number;
	prompt_ms?: number;
	predicted_n?: number;
	predicted_ms?: number;
}

function llamaCppTimings(timings: LlamaCppTimings | undefined): ServerTimings | undefined {
	if (!timings || typeof timings !== 'object') {
		return undefined;
	}
	return {
		promptTokens: timings.prompt_n,
		promptMs: timings.prompt_ms,
		generatedTokens: timings.predicted_n,
		generationMs: timings.predicted_ms,
	};
}

function headerRecord(headers: unknown): Record<string, string> | undefined {
	if (!headers || typeof (headers as Headers).forEach !== 'function') {
		return undefined;
	}
	const out: Record<string, string> = {};
	(headers as Headers).forEach((value, key) => (out[key.toLowerCase()] = value));
	return out;
}
