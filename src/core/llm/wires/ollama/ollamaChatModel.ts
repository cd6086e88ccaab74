import { networkFetch } from '../../../gate/network/network';
import { AgentError } from '../../../errors';
import type { ChatModel, ChatRequest, ModelEvent, ModelServer } from '../../chatModel';
import { describeModelFailure, mapModelError, type EndpointInfo } from '../../stream/httpErrors';
import { OllamaStreamReader } from './ollamaStream';
import { toOllamaMessages, toOllamaTools } from './ollamaWire';
import { replaysReasoning } from '../reasoningReplay';
import { askedOutputTokens } from '../openai/openaiChatModel';
import { bodyText, jsonLines } from '../../stream/responseBody';
import { HistoryForm } from '../historyForm';

export interface OllamaChatModelOptions extends EndpointInfo {
	/** Sent as options.num_ctx: Ollama's /v1 cannot set it, and its default silently truncates prompts. */
	contextWindow?: number;
	/** How long Ollama keeps the model loaded after a request, e.g. "30m". */
	keepAlive?: string;
	timeoutMs?: number;
	/** The most output tokens to ask for (keel.model.maxOutputTokens), as num_predict; less when less is left of the window. */
	maxOutputTokens?: number;
	fetch?: typeof fetch;
	server?: ModelServer;
}

/** Strips what users paste after the host: `/v1` (the OpenAI path) or `/api`. */
export function ollamaRoot(baseUrl: string): string {
	return baseUrl.replace(/\/+$/, '').replace(/\/(v1|api)$/, '');
}

/**
 * Ollama's native /api/chat (NDJSON stream), read by ollamaStream.ts. Tool calls arrive whole,
 * arguments as an object; they are surfaced as one delta each and assembled at the end like
 * the OpenAI adapter's.
 */
export class OllamaChatModel implements ChatModel {
	readonly id: string;
	private readonly _root: string;
	/** The history rules this server named in its 400s: the strict form once it named one (historyForm.ts). */
	private readonly _history = new HistoryForm();

	constructor(private readonly _options: OllamaChatModelOptions) {
		this._root = ollamaRoot(_options.baseUrl);
		this.id = `ollama:${this._root}#${_options.model}`;
	}

	get server(): ModelServer | undefined {
		return this._options.server;
	}

	async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
		const endpoint = {
			baseUrl: this._root,
			model: this._options.model,
			provider: 'ollama',
			remote: this._options.remote,
		};
		const timeout = AbortSignal.timeout(this._options.timeoutMs ?? 10 * 60_000);
		const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
		const response = await this._open(request, endpoint, signal);
		yield { type: 'waiting' };
		const reader = new OllamaStreamReader();
		try {
			for await (const line of jsonLines(bodyText(response.body as ReadableStream<Uint8Array>, reader))) {
				yield* reader.line(line);
				if (reader.ended()) {
					break;
				}
			}
		} catch (error) {
			throw error instanceof AgentError
				? error
				: mapModelError(error, { aborted: request.signal?.aborted }, true, endpoint);
		}
		yield* reader.finish();
	}

	/** Sends the request; a 400 that names a rule of the history is answered by the strict form, once. */
	private async _open(
		request: ChatRequest,
		endpoint: EndpointInfo & { provider: string },
		signal: AbortSignal,
	): Promise<Response> {
		const tools = toOllamaTools(request.tools);
		for (let attempt = 0; ; attempt++) {
			let response: Response;
			try {
				response = await (this._options.fetch ?? networkFetch)(`${this._root}/api/chat`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({
						model: this._options.model,
						messages: toOllamaMessages(
							request.messages,
							replaysReasoning(this._options.model),
							this._history.ids('openai'),
						),
						tools: tools.length > 0 ? tools : undefined,
						stream: true,
						options: ollamaOptions(
							numCtx(request.contextWindow, this._options.contextWindow),
							request,
							this._options.maxOutputTokens,
						),
						keep_alive: this._options.keepAlive,
						// A re-ask after reasoning ran away: the answer without thinking (Ollama's `think`).
						...(request.reasoning === 'off' ? { think: false } : {}),
					}),
					signal,
				});
			} catch (error) {
				throw mapModelError(error, { aborted: request.signal?.aborted }, false, endpoint);
			}
			if (response.ok && response.body) {
				return response;
			}
			const body = await response.text().catch(() => '');
			if (attempt === 0 && response.status === 400 && this._history.learn(body)) {
				continue;
			}
			throw this._history.refusal(
				describeModelFailure(
					{ status: response.status, body, headers: Object.fromEntries(response.headers) },
					endpoint,
				),
			);
		}
	}
}

/** The window the loop plans for (the server's, when smaller), never more than the one this model was made with. */
function numCtx(planned: number | undefined, configured: number | undefined): number | undefined {
	return planned !== undefined && configured !== undefined ? Math.min(planned, configured) : (planned ?? configured);
}

/**
 * num_ctx against silent truncation; num_predict so the answer fits what is left of the window;
 * after degenerate output, a repeat penalty and a little more randomness.
 */
function ollamaOptions(
	contextWindow: number | undefined,
	request: ChatRequest,
	maxOutputTokens: number | undefined,
): Record<string, number> | undefined {
	const options: Record<string, number> = {};
	if (contextWindow) {
		options.num_ctx = contextWindow;
	}
	const budget = askedOutputTokens(request.maxTokens, maxOutputTokens);
	if (budget !== undefined) {
		options.num_predict = Math.min(budget, contextWindow ?? Infinity);
	}
	if (request.avoidRepetition) {
		options.repeat_penalty = 1.3;
		options.repeat_last_n = 256;
		options.temperature = 0.9;
	}
	return Object.keys(options).length > 0 ? options : undefined;
}
