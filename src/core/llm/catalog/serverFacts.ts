import type { ServerFacts, ServerKind } from '../chatModel';
import { ollamaRoot } from '../wires/ollama/ollamaChatModel';
import type { ProviderKind, WireKind } from './providerKinds';

/**
 * What a server says about the window it runs, read from its own endpoints. The window a model
 * was trained for is not the one it runs: llama.cpp runs `--ctx-size` (per slot), LM Studio the
 * Context Length the model was loaded with, vLLM `--max-model-len`, Ollama the `num_ctx` of the
 * request that loaded it. Each reader names the fields it reads and the page that documents them.
 */

/** One GET (a POST when a body is given) of JSON; undefined when the server has no such endpoint or does not answer in time. */
export type GetJson = (url: string, body?: unknown) => Promise<unknown>;

/** Where a server is, for the readers. */
export interface ServerAddress {
	provider: ProviderKind;
	wire: WireKind;
	baseUrl: string;
	model: string;
	/** The remote window Keel runs in, if any (EndpointInfo.remote). */
	remote?: string;
}

/** Cloud endpoints run the window they document; nothing to ask. */
const CLOUD: ReadonlySet<ProviderKind> = new Set(['openai', 'anthropic', 'zai']);

export async function readServerFacts(at: ServerAddress, get: GetJson): Promise<ServerFacts> {
	if (CLOUD.has(at.provider) || at.wire === 'anthropic') {
		return {};
	}
	if (at.wire === 'ollama') {
		return ollamaFacts(ollamaRoot(at.baseUrl), at.model, get);
	}
	const listed = openaiModelEntry(await get(`${at.baseUrl}/models`), at.model);
	const root = serverRoot(at.baseUrl);
	if (at.provider === 'llamacpp' || isLlamaCpp(listed)) {
		const facts = await llamaCppFacts(root, listed, get);
		if (facts.kind) {
			return facts;
		}
	}
	if (listed && numberOf(listed.max_model_len)) {
		// vLLM: https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html (ModelCard.max_model_len)
		return { kind: 'vllm', running: numberOf(listed.max_model_len), source: 'vLLM /v1/models max_model_len' };
	}
	if (at.provider === 'lmstudio') {
		const facts = lmStudioFacts(await get(`${root}/api/v1/models`), at.model);
		if (facts.kind) {
			return facts;
		}
	}
	const trained = numberOf(listed?.context_length ?? listed?.max_context_length);
	return trained ? { trained, source: 'the server’s /models' } : {};
}

/** A base URL without its OpenAI path (`/v1`): llama.cpp and LM Studio serve their own endpoints at the root. */
export function serverRoot(baseUrl: string): string {
	return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

type Entry = Record<string, any> | undefined;

/** The entry of `model` in an OpenAI-style list, or the only one (llama-server serves one model under any name). */
function openaiModelEntry(list: unknown, model: string): Entry {
	const data = (list as { data?: unknown })?.data;
	if (!Array.isArray(data)) {
		return undefined;
	}
	const entries = data.filter(e => e && typeof e === 'object') as Array<Record<string, any>>;
	return entries.find(e => e.id === model) ?? (entries.length === 1 ? entries[0] : undefined);
}

function isLlamaCpp(entry: Entry): boolean {
	return !!entry && (entry.owned_by === 'llamacpp' || (entry.meta && typeof entry.meta === 'object'));
}

/**
 * llama.cpp's server: GET /props → `default_generation_settings.n_ctx` is the window one slot
 * runs (each request gets one slot), `total_slots` how many share the server, and
 * `chat_template_caps.supports_preserve_reasoning` whether the template renders reasoning in
 * the whole history. /v1/models → `meta.n_ctx_train` is the trained window (newer servers put
 * the slot's `n_ctx` there too).
 * https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md#get-props-get-server-global-properties
 */
async function llamaCppFacts(root: string, listed: Entry, get: GetJson): Promise<ServerFacts> {
	const props = (await get(`${root}/props`)) as Record<string, any> | undefined;
	const settings = props?.default_generation_settings;
	const running = numberOf(settings?.n_ctx) ?? numberOf(listed?.meta?.n_ctx);
	if (!running && !isLlamaCpp(listed)) {
		return {};
	}
	const slots = numberOf(props?.total_slots);
	const caps = props?.chat_template_caps;
	return {
		kind: 'llamacpp',
		running,
		trained: numberOf(listed?.meta?.n_ctx_train),
		source: running ? 'llama.cpp /props n_ctx (per slot)' : undefined,
		...(slots ? { slots } : {}),
		...(caps && typeof caps === 'object' && typeof caps.supports_preserve_reasoning === 'boolean'
			? { keepsReasoning: caps.supports_preserve_reasoning }
			: {}),
	};
}

/**
 * LM Studio's own REST API (0.4+): GET /api/v1/models → `models[].loaded_instances[].config
 * .context_length` is the window a loaded instance runs, `max_context_length` the model's most.
 * Its OpenAI-compatible /v1/models says neither. The OpenAI model name is the `key`, or a
 * loaded instance's `id` ("key:2").
 * https://lmstudio.ai/docs/developer/rest/list
 */
export function lmStudioFacts(answer: unknown, model: string): ServerFacts {
	const models = (answer as { models?: unknown })?.models;
	if (!Array.isArray(models)) {
		return {};
	}
	const entries = models.filter(m => m && typeof m === 'object') as Array<Record<string, any>>;
	const instances = (m: Record<string, any>) =>
		(Array.isArray(m.loaded_instances) ? m.loaded_instances : []) as Array<Record<string, any>>;
	const entry = entries.find(m => m.key === model || instances(m).some(i => i.id === model));
	if (!entry) {
		return { kind: 'lmstudio' };
	}
	const loaded = instances(entry);
	const instance = loaded.find(i => i.id === model) ?? loaded[0];
	const running = numberOf(instance?.config?.context_length);
	return {
		kind: 'lmstudio',
		running,
		trained: numberOf(entry.max_context_length),
		source: running ? 'LM Studio /api/v1/models loaded context_length' : undefined,
	};
}

/**
 * Ollama runs the `num_ctx` Keel sends (up to what the model was trained for: it cuts a larger
 * one down). POST /api/show → `model_info.<family>.context_length` is the trained window; GET
 * /api/ps → `models[].context_length` what the loaded model runs (recent versions).
 * https://github.com/ollama/ollama/blob/main/docs/api.md#list-running-models
 */
async function ollamaFacts(root: string, model: string, get: GetJson): Promise<ServerFacts> {
	const [show, ps] = await Promise.all([get(`${root}/api/show`, { model }), get(`${root}/api/ps`)]);
	const info = (show as { model_info?: Record<string, unknown> })?.model_info ?? {};
	const key = Object.keys(info).find(k => k.endsWith('.context_length'));
	const trained = key ? numberOf(info[key]) : undefined;
	const loaded = ((ps as { models?: unknown })?.models ?? []) as Array<Record<string, any>>;
	const entry = Array.isArray(loaded) ? loaded.find(m => m?.name === model || m?.model === model) : undefined;
	const running = numberOf(entry?.context_length);
	return {
		kind: 'ollama' satisfies ServerKind,
		trained,
		running,
		source: running ? 'Ollama /api/ps context_length' : trained ? 'Ollama /api/show context_length' : undefined,
	};
}

export function numberOf(value: unknown): number | undefined {
	const n = Number(value);
	return value !== null && value !== undefined && Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
}
