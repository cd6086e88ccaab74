import type { AgentError } from '../errors';
import type { CanonicalMessage } from './canonical';
import type { ForcingPrior } from './forcing';

/** A tool as offered to the model: name, description and JSON Schema generated from zod. */
export interface ToolSpec {
	name: string;
	description: string;
	parameters: Record<string, unknown>;
}

/** A forced call: some call of the offered tools, or a call of the one named. */
export type ToolChoice = { kind: 'required' } | { kind: 'named'; name: string };

export interface ChatRequest {
	messages: readonly CanonicalMessage[];
	tools: readonly ToolSpec[];
	/** Asks the server to hold the model to a call (OpenAI `tool_choice`, Anthropic `tool_choice`); only where `forcing` allows. */
	toolChoice?: ToolChoice;
	/** With a forced call: the tools' schemas marked strict (OpenAI `strict: true`), so the arguments are held to them too. */
	strictTools?: boolean;
	signal?: AbortSignal;
	/** Asks for sampling that breaks a repetition loop, where the provider accepts it (a re-ask after degenerate output). */
	avoidRepetition?: boolean;
	/** The most output tokens to ask for: what is left of the context window, or what the server said it allows. */
	maxTokens?: number;
	/** The window the loop plans this request for (Ollama gets it as num_ctx); absent: the adapter's configured one. */
	contextWindow?: number;
	/**
	 * Reasoning for this request: `budget` tokens at most where the server takes a budget
	 * (llama.cpp), or `off` to ask for the answer without more thinking where the server has a
	 * switch for it (a re-ask after reasoning ran away).
	 */
	reasoning?: { budget: number } | 'off';
	/**
	 * Send the model's earlier reasoning back in its field, whatever the model: the server's
	 * template renders it in every earlier message, so leaving it out would rewrite the history
	 * the server has cached (llama.cpp `supports_preserve_reasoning`).
	 */
	keepReasoning?: boolean;
}

/** Where a provider's reasoning came from, so it is sent back only to a server that wants it back. */
export type ReasoningField = 'reasoning_content' | 'reasoning' | 'thinking' | 'anthropic';

export interface TokenUsage {
	/** The whole prompt, as the server counted it. */
	promptTokens?: number;
	completionTokens?: number;
	/** How long the server itself took, where it says (Ollama's durations, llama.cpp's `timings`). */
	timings?: ServerTimings;
	/** Prompt tokens taken from the server's cache (OpenAI `cached_tokens`, llama.cpp `timings.cache_n`, Anthropic `cache_read_input_tokens`). */
	cachedTokens?: number;
	/** Prompt tokens the server read anew, where that is all it says (Ollama's `prompt_eval_count`). */
	prefilledTokens?: number;
}

/** The server's own clock: its counts can differ from usage (a cached prompt prefix is not processed again). */
export interface ServerTimings {
	promptTokens?: number;
	promptMs?: number;
	generatedTokens?: number;
	generationMs?: number;
}

/**
 * What a model stream yields. Tool-call argument fragments are surfaced as they arrive so the
 * card can show them streaming; `toolCall` is the assembled call once the response is complete.
 */
export type ModelEvent =
	| { type: 'text'; text: string }
	/** Reasoning the provider sent apart from the answer (`reasoning_content`, `reasoning`, Ollama `thinking`, Anthropic thinking blocks). */
	| { type: 'reasoning'; text: string; field?: ReasoningField }
	| { type: 'toolCallDelta'; index: number; id?: string; name?: string; argumentsDelta: string }
	| { type: 'toolCall'; index: number; id: string; name: string; rawArguments: string }
	| { type: 'finish'; reason: string; usage?: TokenUsage }
	/**
	 * Before the first token: the server is working on the prompt. Its own progress where it
	 * streams some (llama.cpp `prompt_progress`), or just a sign of life (response headers, an
	 * SSE ping comment).
	 */
	| { type: 'waiting'; progress?: PrefillProgress };

/** How far the server is through the prompt, in its own counts (llama.cpp `prompt_progress`). */
export interface PrefillProgress {
	/** Prompt tokens in all. */
	total: number;
	/** Of those, taken from the server's cache. */
	cached: number;
	/** Processed so far, the cached ones included. */
	processed: number;
	/** Milliseconds since the server started on the prompt. */
	elapsedMs?: number;
}

/** The model port. One call = one request; retries and recovery live above it. */
export interface ChatModel {
	readonly id: string;
	/**
	 * What this server is known to do with a forced call before Keel has seen it (llm/forcing.ts);
	 * absent when the wire has no way to ask (Ollama's /api/chat, VS Code's models).
	 */
	readonly forcing?: ForcingPrior;
	stream(request: ChatRequest): AsyncIterable<ModelEvent>;
	/** The server behind the model, where Keel can ask it about itself; absent for VS Code's models. */
	readonly server?: ModelServer;
}

/** What a model server says about itself, asked of the server (its own endpoints), never guessed. */
export interface ModelServer {
	/** The window it runs, the one the model was trained for, and how it treats reasoning; read once per turn. */
	describe(signal?: AbortSignal): Promise<ServerFacts>;
	/** Whether the server answers HTTP at all right now (any status but a gateway's 502/504). */
	alive(signal?: AbortSignal): Promise<boolean>;
	/** The error for a server that stopped answering while a request waited `silentSeconds` for its first token. */
	unreachable(silentSeconds: number): AgentError;
}

export type ServerKind = 'llamacpp' | 'lmstudio' | 'vllm' | 'ollama';

export interface ServerFacts {
	/** Which server it is, by what it answered. */
	kind?: ServerKind;
	/** Tokens one request may use on the server as it runs now (llama.cpp per slot). */
	running?: number;
	/** Tokens the model was trained for. */
	trained?: number;
	/** Where `running` (else `trained`) was read, in words for the user. */
	source?: string;
	/** llama.cpp: slots sharing the server's memory (`total_slots`). */
	slots?: number;
	/** The chat template renders reasoning in every earlier message (llama.cpp `supports_preserve_reasoning`). */
	keepsReasoning?: boolean;
}
