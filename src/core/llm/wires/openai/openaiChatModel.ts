import type OpenAI from 'openai';
import { type AgentError } from '../../../errors';
import type { ChatModel, ChatRequest, ModelEvent } from '../../chatModel';
import { withOpenAIErrorEnvelope } from '../../stream/errorEnvelope';
import { mapModelError, type EndpointInfo } from '../../stream/httpErrors';
import { OpenAIStreamReader } from './openaiStream';
import { readStream } from '../../stream/readStream';
import { isIdRuleError, type IdRule } from '../wireIds';
import { toOpenAIMessages, toOpenAIToolChoice, toOpenAITools } from './openaiWire';
import { openaiForcing, type ForcingPrior } from '../../forcing';
import { replaysReasoning } from '../reasoningReplay';
import { lazyRequire } from '../../../util/lazyRequire';

// Built into dist/vendor/openai-sdk.js: a user of Ollama's native API or Anthropic never loads it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadSdk = lazyRequire(() => (require('openai') as typeof import('openai')).default);

export interface OpenAIChatModelOptions extends EndpointInfo {
	apiKey?: string;
	/** SDK-level retries of pre-header failures; the agent's own recovery sits above this. */
	maxRetries?: number;
	timeoutMs?: number;
	/** The most output tokens to ask for (keel.model.maxOutputTokens); less when less is left of the window. */
	maxOutputTokens?: number;
	fetch?: typeof fetch;
}

/** Chat completions over any OpenAI-compatible endpoint (Ollama /v1, llama.cpp, LM Studio, Z.AI, OpenAI). */
export class OpenAIChatModel implements ChatModel {
	readonly id: string;
	readonly forcing: ForcingPrior;
	private _sdkClient: OpenAI | undefined;
	/** Learned from the server's own 400s, once per model: the id form it takes, the name of the output budget. */
	private _idRule: IdRule = 'openai';
	private _budgetField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';

	constructor(private readonly _options: OpenAIChatModelOptions) {
		this.id = `openai:${_options.baseUrl}#${_options.model}`;
		this.forcing = openaiForcing(_options.provider);
	}

	/** The SDK's client, made on the first request. */
	private get _client(): OpenAI {
		const SDK = loadSdk();
		return (this._sdkClient ??= new SDK({
			baseURL: this._options.baseUrl,
			// Local servers ignore the key but the SDK insists on one; never a real secret by default.
			apiKey: this._options.apiKey || 'no-key',
			maxRetries: this._options.maxRetries ?? 0,
			timeout: this._options.timeoutMs ?? 10 * 60_000,
			fetch: withOpenAIErrorEnvelope(this._options.fetch),
			dangerouslyAllowBrowser: false,
		}));
	}

	async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
		const response = await this._open(request);
		const reader = new OpenAIStreamReader();
		yield* readStream(response, reader, error => this._mapError(error, true));
	}

	/**
	 * Sends the request. A 400 about the form of the ids sent back (Mistral wants nine
	 * alphanumerics) or about `max_tokens` (OpenAI's reasoning models want
	 * `max_completion_tokens`) is fixed and sent once more, and remembered for this model.
	 */
	private async _open(request: ChatRequest): Promise<Response> {
		for (let attempt = 0; ; attempt++) {
			try {
				return await this._client.chat.completions
					.create(this._params(request), { signal: request.signal })
					.asResponse();
			} catch (error) {
				const mapped = this._mapError(error);
				const words = `${mapped.message} ${mapped.details.body ?? ''}`;
				if (attempt === 0 && mapped.details.status === 400 && this._learn(words, request)) {
					continue;
				}
				throw mapped;
			}
		}
	}

	private _learn(words: string, request: ChatRequest): boolean {
		if (this._idRule !== 'nine' && isIdRuleError(words)) {
			this._idRule = 'nine';
			return true;
		}
		if (
			askedOutputTokens(request.maxTokens, this._options.maxOutputTokens) !== undefined &&
			this._budgetField === 'max_tokens' &&
			/max_tokens.*(?:not supported|unsupported).*max_completion_tokens/is.test(words)
		) {
			this._budgetField = 'max_completion_tokens';
			return true;
		}
		return false;
	}

	private _params(request: ChatRequest): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
		const tools = toOpenAITools(request.tools, request.strictTools === true && request.toolChoice !== undefined);
		const toolChoice = tools.length > 0 ? toOpenAIToolChoice(request.toolChoice) : undefined;
		const budget = askedOutputTokens(request.maxTokens, this._options.maxOutputTokens);
		return {
			model: this._options.model,
			messages: toOpenAIMessages(
				request.messages,
				replaysReasoning(this._options.model),
				this._idRule,
			) as OpenAI.Chat.ChatCompletionMessageParam[],
			tools: tools.length > 0 ? tools : undefined,
			...(toolChoice ? { tool_choice: toolChoice } : {}),
			stream: true,
			stream_options: { include_usage: true },
			...(budget !== undefined ? { [this._budgetField]: budget } : {}),
			// Standard penalties only: api.openai.com rejects unknown parameters with a 400.
			...(request.avoidRepetition ? { frequency_penalty: 0.6, presence_penalty: 0.4 } : {}),
		};
	}

	private _mapError(error: unknown, midStream = false): AgentError {
		// A connection error is an APIError too, but carries no response to describe.
		const SDK = loadSdk();
		const http =
			error instanceof SDK.APIError &&
			!(error instanceof SDK.APIConnectionError) &&
			!(error instanceof SDK.APIUserAbortError)
				? {
						status: error.status,
						body: error.error ? JSON.stringify(error.error) : error.message,
						headers: headerRecord(error.headers),
					}
				: undefined;
		return mapModelError(
			error,
			{ aborted: error instanceof SDK.APIUserAbortError, http },
			midStream,
			this._options,
		);
	}
}

/** What is left of the window, never more than the configured most; undefined when neither is known. */
export function askedOutputTokens(left: number | undefined, most: number | undefined): number | undefined {
	const known = [left, most].filter((n): n is number => n !== undefined && n > 0);
	return known.length > 0 ? Math.max(1, Math.floor(Math.min(...known))) : undefined;
}

function headerRecord(headers: unknown): Record<string, string> | undefined {
	if (!headers || typeof (headers as Headers).forEach !== 'function') {
		return undefined;
	}
	const out: Record<string, string> = {};
	(headers as Headers).forEach((value, key) => (out[key.toLowerCase()] = value));
	return out;
}
