import { networkFetch } from '../../../gate/network/network';
import type Anthropic from '@anthropic-ai/sdk';
import { type AgentError } from '../../../errors';
import type { ChatModel, ChatRequest, ModelEvent, ModelServer } from '../../chatModel';
import { AnthropicStreamReader } from './anthropicStream';
import { readStream } from '../../stream/readStream';
import { mapModelError, type EndpointInfo } from '../../stream/httpErrors';
import { toAnthropicRequest, toAnthropicTools, withCacheBreakpoints } from './anthropicWire';
import { lazyRequire } from '../../../util/lazyRequire';
import { HistoryForm } from '../historyForm';
import { anthropicForcing, type ForcingPrior } from '../../forcing';
import { holdSecret } from '../../../gate/redact/heldSecrets';

// Built into dist/vendor/anthropic-sdk.js and loaded only when an Anthropic model is used.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadSdk = lazyRequire(() => (require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk')).default);

export interface AnthropicChatModelOptions extends EndpointInfo {
	apiKey?: string;
	maxTokens?: number;
	maxRetries?: number;
	timeoutMs?: number;
	fetch?: typeof fetch;
	server?: ModelServer;
}

/**
 * Anthropic Messages: @anthropic-ai/sdk sends the request (headers, retries before headers,
 * HTTP errors), anthropicStream.ts reads the events, and the same ModelEvents come out as from
 * the OpenAI adapter, so the loop cannot tell providers apart.
 */
export class AnthropicChatModel implements ChatModel {
	readonly id: string;
	readonly forcing: ForcingPrior;
	private readonly _client: Anthropic;
	/** The history rules this server named in its 400s: the strict form once it named one (historyForm.ts). */
	private readonly _history = new HistoryForm();

	constructor(private readonly _options: AnthropicChatModelOptions) {
		this.id = `anthropic:${_options.baseUrl}#${_options.model}`;
		this.forcing = anthropicForcing(_options.baseUrl);
		// The key this model sends is cut wherever a server echoes it (errors, reports, the log).
		holdSecret(_options.apiKey, 'API key', 4);
		this._client = new (loadSdk())({
			baseURL: _options.baseUrl,
			apiKey: _options.apiKey || 'no-key',
			maxRetries: _options.maxRetries ?? 0,
			timeout: _options.timeoutMs ?? 10 * 60_000,
			fetch: _options.fetch ?? networkFetch,
		});
	}

	get server(): ModelServer | undefined {
		return this._options.server;
	}

	async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
		const response = await this._open(request);
		yield { type: 'waiting' };
		yield* readStream(response, new AnthropicStreamReader(), error => this._mapError(error, true));
	}

	/** Sends the request; a 400 that names a rule of the history is answered by the strict form, once. */
	private async _open(request: ChatRequest): Promise<Response> {
		for (let attempt = 0; ; attempt++) {
			try {
				return await this._client.messages
					.create(this._params(request), { signal: request.signal })
					.asResponse();
			} catch (error) {
				const mapped = this._mapError(error);
				const words = `${mapped.message} ${mapped.details.body ?? ''}`;
				if (attempt === 0 && mapped.details.status === 400 && this._history.learn(words)) {
					continue;
				}
				throw this._history.refusal(mapped);
			}
		}
	}

	private _params(request: ChatRequest): Anthropic.MessageCreateParamsStreaming {
		const plain = toAnthropicRequest(request.messages, this._history.ids('anthropic'));
		const { system, tools, messages } = withCacheBreakpoints(
			plain.system,
			toAnthropicTools(request.tools),
			plain.messages,
		);
		// The API requires max_tokens: the configured most, or less when less is left of the window.
		const maxTokens = Math.min(this._options.maxTokens ?? 8192, request.maxTokens ?? Infinity);
		return {
			model: this._options.model,
			max_tokens: Math.max(1, Math.floor(maxTokens)),
			system,
			messages: messages as Anthropic.MessageParam[],
			tools: tools.length > 0 ? (tools as Anthropic.Tool[]) : undefined,
			...(tools.length > 0 && request.toolChoice
				? {
						tool_choice:
							request.toolChoice.kind === 'required'
								? { type: 'any' as const }
								: { type: 'tool' as const, name: request.toolChoice.name },
					}
				: {}),
			stream: true,
		};
	}

	private _mapError(error: unknown, midStream = false): AgentError {
		const Sdk = loadSdk();
		// A connection error is an APIError too, but carries no response to describe.
		const http =
			error instanceof Sdk.APIError &&
			!(error instanceof Sdk.APIConnectionError) &&
			!(error instanceof Sdk.APIUserAbortError)
				? { status: error.status, body: error.error ? JSON.stringify(error.error) : error.message }
				: undefined;
		return mapModelError(
			error,
			{ aborted: error instanceof Sdk.APIUserAbortError, http },
			midStream,
			this._options,
		);
	}
}
