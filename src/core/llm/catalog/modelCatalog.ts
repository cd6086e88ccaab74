import { networkFetch } from '../../gate/network/network';
import { describeModelFailure } from '../stream/httpErrors';
import { ollamaRoot } from '../wires/ollama/ollamaChatModel';
import type { ResolvedProvider } from './providers';

export interface ModelInfo {
	id: string;
	/** Tokens, when the server says; undefined when it does not. */
	contextWindow?: number;
	/** From Ollama's capabilities; undefined when the server does not say (then probe it). */
	tools?: boolean;
}

/**
 * The models an endpoint reports: Ollama's /api/tags (+ /api/show for context and tool
 * support), OpenAI-compatible /models, Anthropic /v1/models. Errors become AgentErrors with a
 * sentence the user can act on.
 */
export async function listModels(
	resolved: ResolvedProvider,
	apiKey: string | undefined,
	fetchImpl: typeof fetch = networkFetch,
): Promise<ModelInfo[]> {
	const endpoint = { baseUrl: resolved.baseUrl, model: resolved.model, provider: resolved.preset.kind };
	const get = async (url: string, init: RequestInit = {}): Promise<any> => {
		let response: Response;
		try {
			response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(15_000) });
		} catch {
			throw describeModelFailure({ connection: true }, endpoint);
		}
		const body = await response.text();
		if (!response.ok) {
			throw describeModelFailure({ status: response.status, body }, endpoint);
		}
		return JSON.parse(body);
	};
	switch (resolved.preset.wire) {
		case 'ollama': {
			const root = ollamaRoot(resolved.baseUrl);
			const tags = await get(`${root}/api/tags`);
			const names: string[] = (tags.models ?? [])
				.map((m: { name?: string; model?: string }) => m.name ?? m.model)
				.filter(Boolean);
			// /api/show per model is cheap locally; cap it so a huge library does not stall the picker.
			return Promise.all(
				names.map(async (id, index) => {
					if (index >= 40) {
						return { id };
					}
					try {
						const show = await get(`${root}/api/show`, {
							method: 'POST',
							headers: { 'content-type': 'application/json' },
							body: JSON.stringify({ model: id }),
						});
						const key = Object.keys(show.model_info ?? {}).find(k => k.endsWith('.context_length'));
						return {
							id,
							contextWindow: key ? Number(show.model_info[key]) : undefined,
							tools: Array.isArray(show.capabilities) ? show.capabilities.includes('tools') : undefined,
						};
					} catch {
						return { id };
					}
				}),
			);
		}
		case 'anthropic': {
			const list = await get(`${resolved.baseUrl}/v1/models`, {
				headers: { 'x-api-key': apiKey ?? '', 'anthropic-version': '2023-06-01' },
			});
			return (list.data ?? []).map((m: { id: string }) => ({ id: m.id, tools: true }));
		}
		case 'openai': {
			const list = await get(`${resolved.baseUrl}/models`, {
				headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
			});
			return (list.data ?? []).map((m: Record<string, any>) => ({
				id: String(m.id),
				// llama.cpp reports meta.n_ctx_train, LM Studio max_context_length, some proxies context_length.
				contextWindow: numberOrUndefined(m.context_length ?? m.max_context_length ?? m.meta?.n_ctx_train),
			}));
		}
	}
}

function numberOrUndefined(value: unknown): number | undefined {
	const n = Number(value);
	return Number.isFinite(n) && n > 0 ? n : undefined;
}
