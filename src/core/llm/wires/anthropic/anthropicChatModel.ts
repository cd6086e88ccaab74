import { networkFetch } from '../../../gate/network/network';
import type Anthropic from '@anthropic-ai/sdk';
import { type AgentError } from '../../../errors';
import type { ChatModel, ChatRequest, ModelEvent, ModelServer } from '../../chatModel';
import { AnthropicStreamReader } from './anthropicStream';
import { readStream } from '../../stream/readStream';
import { mapModelError, type EndpointInfo } from '../../stream/httpErrors';
import { toAnthropicRequest, toAnthropicTools, withCacheBreakpoints } from './anthropicWire';
import { lazyRequire } from '../../../util/lazyRequire';
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
		const plain = toAnthropicRequest(request.messages);
		const { system, tools, messages } = withCacheBreakpoints(
			plain.system,
			toAnthropicTools(request.tools),
			plain.messages,
		);
		// The API requires max_tokens: the configured most, or less when less is left of the window.
		const maxTokens = Math.min(this._options.maxTokens ?? 8192, request.maxTokens ?? Infinity);
		let response: Response;
		try {
			response = await this._client.messages
				.create(
					{
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
					},
					{ signal: request.signal },
				)
				.asResponse();
		} catch (error) {
			throw this._mapError(error);
		}
		yield { type: 'waiting' };
		yield* readStream(response, new AnthropicStreamReader(), error => this._mapError(error, true));
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
