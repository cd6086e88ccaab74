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
	| { type: 'finish'; reason: string; usage?: TokenUsage };

/** The model port. One call = one request; retries and recovery live above it. */
export interface ChatModel {
	readonly id: string;
	/**
	 * What this server is known to do with a forced call before Keel has seen it (llm/forcing.ts);
	 * absent when the wire has no way to ask (Ollama's /api/chat, VS Code's models).
	 */
	readonly forcing?: ForcingPrior;
	stream(request: ChatRequest): AsyncIterable<ModelEvent>;
}
