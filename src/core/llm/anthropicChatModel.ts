import { networkFetch } from '../gate/network';
import type Anthropic from '@anthropic-ai/sdk';
import { type AgentError } from '../errors';
import type { ChatModel, ChatRequest, ModelEvent, TokenUsage } from './chatModel';
import { mapModelError, type EndpointInfo } from './httpErrors';
import { toAnthropicRequest, toAnthropicTools, withCacheBreakpoints } from './anthropicWire';
import { lazyRequire } from '../util/lazyRequire';

// Built into dist/vendor/anthropic-sdk.js and loaded only when an Anthropic model is used.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadSdk = lazyRequire(() => (require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk')).default);

export interface AnthropicChatModelOptions extends EndpointInfo {
	apiKey?: string;
	maxTokens?: number;
	maxRetries?: number;
	timeoutMs?: number;
	fetch?: typeof fetch;
}

/**
 * Anthropic Messages through @anthropic-ai/sdk. Streams text deltas and `input_json_delta`
 * fragments, accumulating each tool_use block's arguments by block index, and yields the same
 * ModelEvents as the OpenAI adapter so the loop cannot tell providers apart.
 */
export class AnthropicChatModel implements ChatModel {
	readonly id: string;
	private readonly _client: Anthropic;

	constructor(private readonly _options: AnthropicChatModelOptions) {
		this.id = `anthropic:${_options.baseUrl}#${_options.model}`;
		this._client = new (loadSdk())({
			baseURL: _options.baseUrl,
			apiKey: _options.apiKey || 'no-key',
			maxRetries: _options.maxRetries ?? 0,
			timeout: _options.timeoutMs ?? 10 * 60_000,
			fetch: _options.fetch ?? networkFetch,
		});
	}

	async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
		const plain = toAnthropicRequest(request.messages);
		const { system, tools, messages } = withCacheBreakpoints(
			plain.system,
			toAnthropicTools(request.tools),
			plain.messages,
		);
		let stream;
		try {
			stream = await this._client.messages.create(
				{
					model: this._options.model,
					max_tokens: this._options.maxTokens ?? 8192,
					system,
					messages: messages as Anthropic.MessageParam[],
					tools: tools.length > 0 ? (tools as Anthropic.Tool[]) : undefined,
					stream: true,
				},
				{ signal: request.signal },
			);
		} catch (error) {
			throw this._mapError(error);
		}

		// Block index → call being assembled; the model's order is the order we yield.
		const calls = new Map<number, { index: number; id: string; name: string; rawArguments: string }>();
		let finishReason = 'stop';
		const usage: TokenUsage = {};
		try {
			for await (const event of stream) {
				switch (event.type) {
					case 'message_start':
						Object.assign(usage, anthropicUsage(event.message.usage));
						break;
					case 'content_block_start':
						if (event.content_block.type === 'tool_use') {
							const call = {
								index: calls.size,
								id: event.content_block.id,
								name: event.content_block.name,
								rawArguments: '',
							};
							calls.set(event.index, call);
							yield {
								type: 'toolCallDelta',
								index: call.index,
								id: call.id,
								name: call.name,
								argumentsDelta: '',
							};
						}
						break;
					case 'content_block_delta':
						if (event.delta.type === 'text_delta') {
							yield { type: 'text', text: event.delta.text };
						} else if (event.delta.type === 'thinking_delta') {
							// Shown folded; not replayed, since Keel never asks for extended thinking with its signatures.
							yield { type: 'reasoning', text: event.delta.thinking, field: 'anthropic' };
						} else if (event.delta.type === 'input_json_delta') {
							const call = calls.get(event.index);
							if (call && event.delta.partial_json) {
								call.rawArguments += event.delta.partial_json;
								yield {
									type: 'toolCallDelta',
									index: call.index,
									argumentsDelta: event.delta.partial_json,
								};
							}
						}
						break;
					case 'message_delta':
						finishReason = mapStopReason(event.delta.stop_reason);
						usage.completionTokens = event.usage?.output_tokens ?? undefined;
						break;
					default:
						break;
				}
			}
		} catch (error) {
			throw this._mapError(error, true);
		}
		for (const call of calls.values()) {
			// A tool without parameters streams no fragments: its input is the empty object.
			yield {
				type: 'toolCall',
				index: call.index,
				id: call.id,
				name: call.name,
				rawArguments: call.rawArguments || '{}',
			};
		}
		yield { type: 'finish', reason: finishReason, usage };
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

/** `input_tokens` counts only what followed the last cache breakpoint: the prompt is all three together. */
function anthropicUsage(wire: Anthropic.Usage | undefined): TokenUsage {
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

function mapStopReason(reason: string | null | undefined): string {
	switch (reason) {
		case 'tool_use':
			return 'tool_calls';
		case 'max_tokens':
			return 'length';
		case 'end_turn':
		case 'stop_sequence':
		case null:
		case undefined:
			return 'stop';
		default:
			return reason;
	}
}
