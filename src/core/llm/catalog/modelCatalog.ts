import { networkFetch } from '../../gate/network/network';
import { describeModelFailure } from '../stream/httpErrors';
import { ollamaRoot } from '../wires/ollama/ollamaChatModel';
import type { ResolvedProvider } from './providers';
import { lmStudioFacts, numberOf, serverRoot } from './serverFacts';

export interface ModelInfo {
	id: string;
	/** Tokens the model was trained for, when the server says; undefined when it does not. */
	contextWindow?: number;
	/** Tokens the server runs for it now (llama.cpp per slot, LM Studio's loaded instance, vLLM, Ollama's loaded model). */
	runningWindow?: number;
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
	// Asked beside the list: a server without the endpoint simply has no running figures.
	const optional = (url: string, init?: RequestInit): Promise<any> => get(url, init).catch(() => undefined);
	switch (resolved.preset.wire) {
		case 'ollama':
			return ollamaModels(ollamaRoot(resolved.baseUrl), get, optional);
		case 'anthropic': {
			const list = await get(`${resolved.baseUrl}/v1/models`, {
				headers: { 'x-api-key': apiKey ?? '', 'anthropic-version': '2023-06-01' },
			});
			return (list.data ?? []).map((m: { id: string }) => ({ id: m.id, tools: true }));
		}
		case 'openai': {
			const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
			const list = await get(`${resolved.baseUrl}/models`, { headers });
			const entries = (Array.isArray(list.data) ? list.data : []) as Array<Record<string, any>>;
			const native = await nativeWindows(resolved, entries, url => optional(url, { headers }));
			return entries.map(m => {
				const own = native(String(m.id));
				// vLLM's max_model_len and newer llama.cpp's meta.n_ctx are what the server runs.
				const runningWindow = numberOf(m.max_model_len ?? m.meta?.n_ctx) ?? own.running;
				return {
					id: String(m.id),
					// llama.cpp reports meta.n_ctx_train, LM Studio max_context_length, some proxies context_length.
					contextWindow:
						numberOf(m.meta?.n_ctx_train ?? m.max_context_length ?? m.context_length) ?? own.trained,
					...(runningWindow !== undefined ? { runningWindow } : {}),
				};
			});
		}
	}
}

type Get = (url: string, init?: RequestInit) => Promise<any>;

/** Ollama's /api/tags, with /api/show per model (context, tools) and /api/ps (what each loaded model runs). */
async function ollamaModels(root: string, get: Get, optional: Get): Promise<ModelInfo[]> {
	const [tags, ps] = await Promise.all([get(`${root}/api/tags`), optional(`${root}/api/ps`)]);
	// What each loaded model runs: GET /api/ps → models[].context_length (the num_ctx it was loaded with).
	const loaded = new Map<string, number | undefined>(
		(Array.isArray(ps?.models) ? ps.models : []).map((m: Record<string, unknown>) => [
			String(m.name ?? m.model),
			numberOf(m.context_length),
		]),
	);
	const names: string[] = (tags.models ?? [])
		.map((m: { name?: string; model?: string }) => m.name ?? m.model)
		.filter(Boolean);
	// /api/show per model is cheap locally; cap it so a huge library does not stall the picker.
	return Promise.all(
		names.map(async (id, index) => {
			const runningWindow = loaded.get(id);
			const running = runningWindow !== undefined ? { runningWindow } : {};
			if (index >= 40) {
				return { id, ...running };
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
					...running,
					tools: Array.isArray(show.capabilities) ? show.capabilities.includes('tools') : undefined,
				};
			} catch {
				return { id, ...running };
			}
		}),
	);
}

/**
 * The windows a local server states on its own endpoints: llama.cpp's GET /props
 * (`default_generation_settings.n_ctx`, per slot, for the one model it serves), LM Studio's
 * GET /api/v1/models (each loaded instance's `config.context_length`, the model's `max_context_length`).
 */
async function nativeWindows(
	resolved: ResolvedProvider,
	entries: Array<Record<string, any>>,
	optional: (url: string) => Promise<any>,
): Promise<(id: string) => { running?: number; trained?: number }> {
	const root = serverRoot(resolved.baseUrl);
	const llamaCpp = resolved.preset.kind === 'llamacpp' || entries.some(m => m.owned_by === 'llamacpp' || m.meta);
	if (llamaCpp) {
		const props = await optional(`${root}/props`);
		const running = numberOf(props?.default_generation_settings?.n_ctx);
		return () => ({ running });
	}
	if (resolved.preset.kind === 'lmstudio') {
		const answer = await optional(`${root}/api/v1/models`);
		return id => lmStudioFacts(answer, id);
	}
	return () => ({});
}
