import { networkFetch } from '../gate/network';
import { randomUUID } from 'crypto';
import { AgentError } from '../errors';
import type { ChatModel, ChatRequest, ModelEvent, ServerTimings, TokenUsage } from './chatModel';
import { describeModelFailure, extractErrorMessage, mapModelError, type EndpointInfo } from './httpErrors';
import { ndjsonLines, toOllamaMessages, toOllamaTools, type OllamaChunk } from './ollamaWire';
import { replaysReasoning } from './reasoningReplay';

export interface OllamaChatModelOptions extends EndpointInfo {
	/** Sent as options.num_ctx: Ollama's /v1 cannot set it, and its default silently truncates prompts. */
	contextWindow?: number;
	/** How long Ollama keeps the model loaded after a request, e.g. "30m". */
	keepAlive?: string;
	timeoutMs?: number;
	/** Sent as options.num_predict; undefined leaves it to the server. */
	maxOutputTokens?: number;
	fetch?: typeof fetch;
}

/** Strips what users paste after the host: `/v1` (the OpenAI path) or `/api`. */
export function ollamaRoot(baseUrl: string): string {
	return baseUrl.replace(/\/+$/, '').replace(/\/(v1|api)$/, '');
}

/**
 * Ollama's native /api/chat (NDJSON stream). Tool calls arrive whole, arguments as an object;
 * they are surfaced as one delta each and assembled at the end like the OpenAI adapter's.
 */
export class OllamaChatModel implements ChatModel {
	readonly id: string;
	private readonly _root: string;

	constructor(private readonly _options: OllamaChatModelOptions) {
		this._root = ollamaRoot(_options.baseUrl);
		this.id = `ollama:${this._root}#${_options.model}`;
	}

	async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
		const endpoint = { baseUrl: this._root, model: this._options.model };
		const timeout = AbortSignal.timeout(this._options.timeoutMs ?? 10 * 60_000);
		const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
		const tools = toOllamaTools(request.tools);
		let response: Response;
		try {
			response = await (this._options.fetch ?? networkFetch)(`${this._root}/api/chat`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					model: this._options.model,
					messages: toOllamaMessages(request.messages, replaysReasoning(this._options.model)),
					tools: tools.length > 0 ? tools : undefined,
					stream: true,
					options: ollamaOptions(
						this._options.contextWindow,
						request.avoidRepetition,
						this._options.maxOutputTokens,
					),
					keep_alive: this._options.keepAlive,
				}),
				signal,
			});
		} catch (error) {
			throw mapModelError(error, { aborted: request.signal?.aborted }, false, endpoint);
		}
		if (!response.ok || !response.body) {
			const body = await response.text().catch(() => '');
			throw describeModelFailure(
				{ status: response.status, body, headers: Object.fromEntries(response.headers) },
				endpoint,
			);
		}

		const calls: Array<{ index: number; id: string; name: string; rawArguments: string }> = [];
		let finishReason = 'stop';
		const usage: TokenUsage = {};
		try {
			for await (const line of ndjsonLines(response.body as unknown as AsyncIterable<Uint8Array>)) {
				const chunk = JSON.parse(line) as OllamaChunk;
				if (chunk.error) {
					// Ollama reports failures after the 200 (e.g. "error parsing tool call") as a line.
					throw new AgentError(
						'modelStream',
						`The model server reported an error mid-answer: ${extractErrorMessage(JSON.stringify(chunk)) ?? chunk.error}`,
						{ body: line },
					);
				}
				if (chunk.message?.thinking) {
					yield { type: 'reasoning', text: chunk.message.thinking, field: 'thinking' };
				}
				if (chunk.message?.content) {
					yield { type: 'text', text: chunk.message.content };
				}
				for (const call of chunk.message?.tool_calls ?? []) {
					const index = calls.length;
					const args = call.function?.arguments;
					const rawArguments = typeof args === 'string' ? args : JSON.stringify(args ?? {});
					const id = call.id || `call_${randomUUID()}`;
					calls.push({ index, id, name: call.function?.name ?? '', rawArguments });
					yield { type: 'toolCallDelta', index, id, name: call.function?.name, argumentsDelta: rawArguments };
				}
				if (chunk.done) {
					finishReason = chunk.done_reason === 'length' ? 'length' : 'stop';
					// Ollama counts the prompt tokens it evaluated: a prefix it had cached is not in it.
					usage.promptTokens = chunk.prompt_eval_count;
					usage.prefilledTokens = chunk.prompt_eval_count;
					usage.completionTokens = chunk.eval_count;
					usage.timings = ollamaTimings(chunk);
				}
			}
		} catch (error) {
			throw error instanceof AgentError
				? error
				: mapModelError(error, { aborted: request.signal?.aborted }, true, endpoint);
		}
		for (const call of calls) {
			yield { type: 'toolCall', ...call };
		}
		// Ollama says "stop" even for a tool turn; the loop keys on calls, the reason is informative.
		yield { type: 'finish', reason: calls.length > 0 ? 'tool_calls' : finishReason, usage };
	}
}

const NS_PER_MS = 1_000_000;

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

/** num_ctx against silent truncation; after degenerate output, a repeat penalty and a little more randomness. */
function ollamaOptions(
	contextWindow: number | undefined,
	avoidRepetition: boolean | undefined,
	maxOutputTokens?: number,
): Record<string, number> | undefined {
	const options: Record<string, number> = {};
	if (contextWindow) {
		options.num_ctx = contextWindow;
	}
	if (maxOutputTokens) {
		options.num_predict = maxOutputTokens;
	}
	if (avoidRepetition) {
		options.repeat_penalty = 1.3;
		options.repeat_last_n = 256;
		options.temperature = 0.9;
	}
	return Object.keys(options).length > 0 ? options : undefined;
}
