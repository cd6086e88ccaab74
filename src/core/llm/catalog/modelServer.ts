import { networkFetch } from '../../gate/network/network';
import { AgentError } from '../../errors';
import type { ModelServer, ServerFacts } from '../chatModel';
import { describeModelFailure } from '../stream/httpErrors';
import { ollamaRoot } from '../wires/ollama/ollamaChatModel';
import { readServerFacts, serverRoot, type ServerAddress } from './serverFacts';

export interface ModelServerOptions {
	fetch?: typeof fetch;
	apiKey?: string;
	/** How long one question about the server may take (a busy local server still answers these at once). */
	askTimeoutMs?: number;
}

/**
 * The server behind a chat model, asked over HTTP through the same fetch as the model's
 * requests (the gate's: this endpoint only). Its facts are read once per instance, and a
 * chat model is made per turn, so a server restarted with another window is seen at the next message.
 */
export class HttpModelServer implements ModelServer {
	private _facts: Promise<ServerFacts> | undefined;

	constructor(
		private readonly _at: ServerAddress,
		private readonly _options: ModelServerOptions = {},
	) {}

	describe(signal?: AbortSignal): Promise<ServerFacts> {
		this._facts ??= readServerFacts(this._at, (url, body) => this._json(url, body, signal)).catch(() => ({}));
		return this._facts;
	}

	/**
	 * Any HTTP answer means a process is there and serving (llama.cpp's /health answers while a
	 * slot prefills; 503 "Loading model" is alive too); a refused or silent connection, or a
	 * proxy's 502/504 for a backend it cannot reach, means nobody is working on the request.
	 */
	async alive(signal?: AbortSignal): Promise<boolean> {
		try {
			const response = await this._fetch(this._livenessUrl(), { headers: this._headers() }, signal);
			await response.body?.cancel().catch(() => undefined);
			return response.status !== 502 && response.status !== 504;
		} catch {
			return false;
		}
	}

	unreachable(silentSeconds: number): AgentError {
		const { baseUrl, model, provider, remote } = this._at;
		const advice = describeModelFailure({ connection: true }, { baseUrl, model, provider, remote });
		return new AgentError(
			'modelUnreachable',
			`${advice.message} The request had waited ${silentSeconds} s for its first token, then ${this._livenessUrl()} stopped answering.`,
		);
	}

	private _livenessUrl(): string {
		const { provider, wire, baseUrl } = this._at;
		if (wire === 'ollama') {
			return `${ollamaRoot(baseUrl)}/api/version`;
		}
		if (wire === 'anthropic') {
			return `${baseUrl}/v1/models`;
		}
		// https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md#get-health-returns-health-check-result
		return provider === 'llamacpp' ? `${serverRoot(baseUrl)}/health` : `${baseUrl}/models`;
	}

	private async _json(url: string, body: unknown, signal: AbortSignal | undefined): Promise<unknown> {
		try {
			const init: RequestInit =
				body === undefined
					? { headers: this._headers() }
					: {
							method: 'POST',
							headers: { ...this._headers(), 'content-type': 'application/json' },
							body: JSON.stringify(body),
						};
			const response = await this._fetch(url, init, signal);
			if (!response.ok) {
				await response.body?.cancel().catch(() => undefined);
				return undefined;
			}
			return (await response.json()) as unknown;
		} catch {
			return undefined;
		}
	}

	private _fetch(url: string, init: RequestInit, signal: AbortSignal | undefined): Promise<Response> {
		const timeout = AbortSignal.timeout(this._options.askTimeoutMs ?? 10_000);
		return (this._options.fetch ?? networkFetch)(url, {
			...init,
			signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
		});
	}

	private _headers(): Record<string, string> {
		const key = this._options.apiKey;
		if (!key) {
			return {};
		}
		return this._at.wire === 'anthropic'
			? { 'x-api-key': key, 'anthropic-version': '2023-06-01' }
			: { authorization: `Bearer ${key}` };
	}
}
