import type OpenAI from 'openai';
import type { AgentError } from '../../../errors';
import type { ChatModel, ChatRequest, ModelEvent, ModelServer, ServerKind } from '../../chatModel';
import { withOpenAIErrorEnvelope } from '../../stream/errorEnvelope';
import { mapModelError, type EndpointInfo } from '../../stream/httpErrors';
import { OpenAIStreamReader } from './openaiStream';
import { readStream } from '../../stream/readStream';
import { HistoryForm } from '../historyForm';
import { toOpenAIMessages, toOpenAIToolChoice, toOpenAITools } from './openaiWire';
import { openaiForcing, type ForcingPrior } from '../../forcing';
import { replaysReasoning } from '../reasoningReplay';
import { lazyRequire } from '../../../util/lazyRequire';
import { holdSecret } from '../../../gate/redact/heldSecrets';

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
	/** The server behind the endpoint, asked what it is before the first request (its own parameters go only to it). */
	server?: ModelServer;
}

/** Chat completions over any OpenAI-compatible endpoint (Ollama /v1, llama.cpp, LM Studio, Z.AI, OpenAI). */
export class OpenAIChatModel implements ChatModel {
	readonly id: string;
	readonly forcing: ForcingPrior;
	private _sdkClient: OpenAI | undefined;
	/**
	 * Learned from the server's own 400s, once per model: the history rules it named (which
	 * turn on the strict form: nine-character ids, every result answering a call in the request),
	 * the name of the output budget.
	 */
	private readonly _history = new HistoryForm();
	private _budgetField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';

	constructor(private readonly _options: OpenAIChatModelOptions) {
		this.id = `openai:${_options.baseUrl}#${_options.model}`;
		this.forcing = openaiForcing(_options.provider);
		// The key this model sends is cut wherever a server echoes it (errors, reports, the log).
		holdSecret(_options.apiKey, 'API key', 4);
	}

	get server(): ModelServer | undefined {
		return this._options.server;
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
		const kind = await this._serverKind(request.signal);
		const response = await this._open(request, kind);
		// The status line: the server has the request (llama.cpp sends it when a slot starts on it).
		yield { type: 'waiting' };
		const reader = new OpenAIStreamReader();
		yield* readStream(response, reader, error => this._mapError(error, true));
	}

	/** Which server this is, where it says: its own parameters are sent to it alone (api.openai.com refuses unknown ones). */
	private async _serverKind(signal: AbortSignal | undefined): Promise<ServerKind | undefined> {
		const said = (await this._options.server?.describe(signal).catch(() => undefined))?.kind;
		// What the server says it is wins (a vLLM on llama.cpp's port 8080); the preset speaks when it says nothing.
		return said ?? (this._options.provider === 'llamacpp' ? 'llamacpp' : undefined);
	}

	/**
	 * Sends the request. A 400 that names a rule of the history sent back (an id's form, an id
	 * that answers no call, the order of roles, a missing field; historyRules.ts) or about `max_tokens` (OpenAI's reasoning models want
	 * `max_completion_tokens`) is fixed and sent once more, and remembered for this model.
	 */
	private async _open(request: ChatRequest, kind: ServerKind | undefined): Promise<Response> {
		for (let attempt = 0; ; attempt++) {
			try {
				return await this._client.chat.completions
					.create(this._params(request, kind), { signal: request.signal })
					.asResponse();
			} catch (error) {
				const mapped = this._mapError(error);
				const words = `${mapped.message} ${mapped.details.body ?? ''}`;
				if (attempt === 0 && mapped.details.status === 400 && this._learn(words, request)) {
					continue;
				}
				// Refused again in the strict form: the same request cannot pass, the chat shows the server's words.
				throw this._history.refusal(mapped);
			}
		}
	}

	private _learn(words: string, request: ChatRequest): boolean {
		if (this._history.learn(words)) {
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

	private _params(
		request: ChatRequest,
		kind: ServerKind | undefined,
	): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
		const tools = toOpenAITools(request.tools, request.strictTools === true && request.toolChoice !== undefined);
		const toolChoice = tools.length > 0 ? toOpenAIToolChoice(request.toolChoice) : undefined;
		const budget = askedOutputTokens(request.maxTokens, this._options.maxOutputTokens);
		const replay = replaysReasoning(this._options.model) || request.keepReasoning === true;
		return {
			model: this._options.model,
			messages: toOpenAIMessages(
				request.messages,
				replay,
				this._history.ids('openai'),
			) as OpenAI.Chat.ChatCompletionMessageParam[],
			tools: tools.length > 0 ? tools : undefined,
			...(toolChoice ? { tool_choice: toolChoice } : {}),
			stream: true,
			stream_options: { include_usage: true },
			...(budget !== undefined ? { [this._budgetField]: budget } : {}),
			// Standard penalties only: api.openai.com rejects unknown parameters with a 400.
			...(request.avoidRepetition ? { frequency_penalty: 0.6, presence_penalty: 0.4 } : {}),
			...serverParams(kind, request),
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

/**
 * What only some servers take. llama.cpp: `return_progress` streams `prompt_progress` frames
 * while it reads the prompt, and `reasoning_budget_tokens` ends the thinking after that many
 * tokens (0: at once) where the template has thinking tags. vLLM: `chat_template_kwargs`
 * `enable_thinking: false` for an answer without thinking.
 * https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md (return_progress, --reasoning-budget)
 */
export function serverParams(kind: ServerKind | undefined, request: ChatRequest): Record<string, unknown> {
	const reasoning = request.reasoning;
	if (kind === 'llamacpp') {
		return {
			return_progress: true,
			...(reasoning === 'off'
				? { reasoning_budget_tokens: 0 }
				: reasoning
					? { reasoning_budget_tokens: reasoning.budget, reasoning_budget_message: BUDGET_MESSAGE }
					: {}),
		};
	}
	if (kind === 'vllm' && reasoning === 'off') {
		return { chat_template_kwargs: { enable_thinking: false } };
	}
	return {};
}

/** Written into the reasoning where a server's budget ends it, so the model goes on to act rather than trail off. */
const BUDGET_MESSAGE = '\n\nEnough thinking: now answer, or make the tool call.\n';

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
