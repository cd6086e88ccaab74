// What real servers say about themselves beyond the chat endpoints, and what they do with a
// request because of it: the window they run, how a prompt that does not fit is refused, the
// reasoning budget. Every behaviour names the public reference it follows; the llama.cpp ones
// were checked against the real server (llama-server built from node-llama-cpp's source:
// `-c 4096` → /props n_ctx 4096 with 4 slots, `-c 4096 --parallel 2` → n_ctx 2048 per slot).

import type { ModelDoubleOptions, RecordedRequest, Wire } from './types';
import { jsonRendering, type Rendering, type Resolved } from './wire/shared';

const LLAMA_README = 'https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md';
export const REFERENCES = {
	llamaCppProps: `${LLAMA_README}#get-props-get-server-global-properties`,
	llamaCppProgress: `${LLAMA_README}#post-completion-given-a-prompt-it-returns-the-predicted-completion`,
	llamaCppBudget: `${LLAMA_README} (--reasoning-budget; tools/server/server-common.cpp reads reasoning_budget_tokens)`,
	lmStudioModels: 'https://lmstudio.ai/docs/developer/rest/list',
	vllmModels: 'https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html',
	ollamaPs: 'https://github.com/ollama/ollama/blob/main/docs/api.md#list-running-models',
};

/** llama-server: one model, `n_ctx` tokens per slot, `total_slots` slots. */
export interface LlamaCppPersona {
	kind: 'llamacpp';
	nCtx: number;
	nCtxTrain?: number;
	totalSlots?: number;
	/** chat_template_caps.supports_preserve_reasoning (false for Qwen3's template, as the real server reports it). */
	preserveReasoning?: boolean;
	/** `--sse-ping-interval` in ms: `:` comment lines while a streamed request waits (real default 30 s). */
	pingIntervalMs?: number;
	/** false: a build that ignores the per-request `reasoning_budget_tokens` (it came after `--reasoning-budget`). */
	takesBudget?: boolean;
}

/** LM Studio 0.4+: the model's most, and the Context Length it was loaded with (absent: not loaded). */
export interface LmStudioPersona {
	kind: 'lmstudio';
	maxContext: number;
	loadedContext?: number;
}

/** vLLM: `--max-model-len`, reported per model by /v1/models. */
export interface VllmPersona {
	kind: 'vllm';
	maxModelLen: number;
}

export type ServerPersona = LlamaCppPersona | LmStudioPersona | VllmPersona;

/** What the double remembers between requests: the window Ollama loaded each model with. */
export interface ServerState {
	ollamaLoaded: Map<string, number>;
}

/** Ollama's default num_ctx when a request sends none (it is tiered by VRAM on recent versions: 4K below 24 GiB). */
const OLLAMA_DEFAULT_CTX = 4096;

/** The endpoints a persona adds or changes; undefined leaves the route to the double's defaults. */
export function personaRoute(
	rec: RecordedRequest,
	opts: ModelDoubleOptions,
	models: string[],
	state: ServerState,
): Rendering | undefined {
	const route = `${rec.method} ${rec.path}`;
	const persona = opts.server;
	if (route === 'GET /api/ps') {
		// Ollama: the models loaded now, each with the context it was loaded with.
		return jsonRendering(200, {
			models: [...state.ollamaLoaded].map(([name, ctx]) => ({
				name,
				model: name,
				size: 5_618_579_456,
				expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
				size_vram: 5_618_579_456,
				context_length: ctx,
			})),
		});
	}
	if (persona?.kind === 'llamacpp') {
		if (route === 'GET /props') return jsonRendering(200, llamaCppProps(persona, models[0]));
		if (route === 'GET /v1/models' && !rec.headers['anthropic-version'])
			return jsonRendering(200, llamaCppModels(persona, models[0]));
	}
	if (persona?.kind === 'lmstudio' && route === 'GET /api/v1/models') {
		return jsonRendering(200, lmStudioModels(persona, models));
	}
	if (persona?.kind === 'vllm' && route === 'GET /v1/models' && !rec.headers['anthropic-version']) {
		const created = Math.floor(Date.now() / 1000);
		return jsonRendering(200, {
			object: 'list',
			data: models.map(id => ({
				id,
				object: 'model',
				created,
				owned_by: 'vllm',
				root: id,
				max_model_len: persona.maxModelLen,
			})),
		});
	}
	return undefined;
}

function llamaCppProps(p: LlamaCppPersona, model: string) {
	return {
		default_generation_settings: { n_ctx: p.nCtx, params: { n_predict: -1, temperature: 0.8 } },
		total_slots: p.totalSlots ?? 4,
		model_alias: model,
		model_path: `<${model}.gguf>`,
		modalities: { vision: false, video: false, audio: false },
		chat_template: '…',
		chat_template_caps: {
			supports_object_arguments: true,
			supports_parallel_tool_calls: true,
			supports_preserve_reasoning: p.preserveReasoning ?? false,
			supports_reasoning_effort: false,
			supports_string_content: true,
			supports_system_role: true,
			supports_tool_calls: true,
			supports_tools: true,
			supports_typed_content: false,
		},
		build_info: 'b0-double',
		is_sleeping: false,
	};
}

function llamaCppModels(p: LlamaCppPersona, model: string) {
	const meta = { vocab_type: 2, n_vocab: 151936, n_ctx: p.nCtx, n_ctx_train: p.nCtxTrain ?? 262_144, n_embd: 64 };
	return {
		models: [{ name: model, model, capabilities: ['completion'] }],
		object: 'list',
		data: [
			{
				id: model,
				aliases: [],
				tags: [],
				object: 'model',
				created: Math.floor(Date.now() / 1000),
				owned_by: 'llamacpp',
				meta,
			},
		],
	};
}

function lmStudioModels(p: LmStudioPersona, models: string[]) {
	return {
		models: models.map(key => ({
			type: 'llm',
			publisher: 'double',
			key,
			display_name: key,
			architecture: 'qwen3',
			quantization: { name: 'Q4_K_M', bits_per_weight: 4 },
			size_bytes: 5_000_000_000,
			params_string: '8B',
			loaded_instances:
				p.loadedContext === undefined
					? []
					: [
							{
								id: key,
								config: {
									context_length: p.loadedContext,
									eval_batch_size: 512,
									flash_attention: true,
									offload_kv_cache_to_gpu: true,
								},
							},
						],
			max_context_length: p.maxContext,
			format: 'gguf',
			capabilities: { vision: false, trained_for_tool_use: true },
		})),
	};
}

/**
 * Prompt tokens as a server counts them: what the template renders (every message's text and
 * the tools' schemas, a few tokens per message for the role markers), not the JSON syntax of
 * the request.
 */
export function renderedTokens(body: Record<string, any>): number {
	const messages = Array.isArray(body.messages) ? body.messages : [];
	let chars = typeof body.system === 'string' ? body.system.length : JSON.stringify(body.system ?? '').length;
	for (const m of messages) {
		const content = typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '');
		chars +=
			content.length +
			JSON.stringify(m?.tool_calls ?? '').length +
			String(m?.reasoning_content ?? m?.thinking ?? '').length;
	}
	chars += body.tools ? JSON.stringify(body.tools).length : 0;
	return Math.ceil(chars / 4) + 4 * messages.length;
}

/**
 * A request the server refuses before it starts: llama.cpp's answer to a prompt longer than a
 * slot's window (HTTP 400, type exceed_context_size_error, both counts in the body).
 */
export function personaRefusal(rec: RecordedRequest, wire: Wire, opts: ModelDoubleOptions): Rendering | undefined {
	const persona = opts.server;
	if (persona?.kind !== 'llamacpp' || wire !== 'openai') return undefined;
	const n = renderedTokens(rec.body ?? {});
	if (n < persona.nCtx) return undefined;
	return jsonRendering(400, {
		error: {
			code: 400,
			message: `request (${n} tokens) exceeds the available context size (${persona.nCtx} tokens), try increasing it`,
			type: 'exceed_context_size_error',
			n_prompt_tokens: n,
			n_ctx: persona.nCtx,
		},
	});
}

/** Ollama loads the model with the request's num_ctx (its default when none), cut down to what the model was trained for. */
export function noteOllamaLoad(rec: RecordedRequest, opts: ModelDoubleOptions, state: ServerState): void {
	const body = rec.body ?? {};
	const asked = Number(body.options?.num_ctx) || OLLAMA_DEFAULT_CTX;
	state.ollamaLoaded.set(String(body.model ?? 'double'), Math.min(asked, opts.contextLength ?? 40960));
}

/**
 * How the server treats the reply's reasoning, from the request: llama.cpp stops it after
 * `reasoning_budget_tokens` (0: at once) and writes `reasoning_budget_message` before the end
 * tag; Ollama's `think: false` and `chat_template_kwargs.enable_thinking: false` (vLLM,
 * llama.cpp) ask for none. Servers that take no budget ignore the field.
 */
export function applyReasoningControls(
	r: Resolved,
	body: Record<string, any>,
	wire: Wire,
	opts: ModelDoubleOptions,
): Resolved {
	if (!r.reasoning) return r;
	const off = (wire === 'ollama' && body.think === false) || body.chat_template_kwargs?.enable_thinking === false;
	if (off && (wire === 'ollama' || opts.server?.kind === 'llamacpp' || opts.server?.kind === 'vllm')) {
		return { ...r, reasoning: '' };
	}
	const budget = body.reasoning_budget_tokens ?? body.thinking_budget_tokens;
	if (
		opts.server?.kind === 'llamacpp' &&
		opts.server.takesBudget !== false &&
		typeof budget === 'number' &&
		budget >= 0 &&
		r.reasoning.length > budget * 4
	) {
		const message = typeof body.reasoning_budget_message === 'string' ? body.reasoning_budget_message : '';
		return { ...r, reasoning: r.reasoning.slice(0, budget * 4) + message };
	}
	return r;
}
