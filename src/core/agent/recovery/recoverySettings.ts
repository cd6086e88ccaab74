/** How a model should be asked to call tools; `auto` starts native and may switch to text. */
export type ToolMode = 'auto' | 'native' | 'text';

/** Every budget and limit of the recovery layer; the host reads them from keel.recovery.* settings. */
export interface RecoverySettings {
	/** Off = the naive loop (no repair, no reflection, no text recovery, no loop retries): the bench baseline. */
	enabled: boolean;
	/** Transport, stream and reflection retries share this budget per user turn. */
	maxRetriesPerTurn: number;
	backoffBaseMs: number;
	backoffMaxMs: number;
	/** A server asking for a longer wait than this is told no: we wait this long at most. */
	retryAfterCapMs: number;
	/** Longest silence inside a streaming response, once it has begun, before it is treated as broken. */
	streamIdleTimeoutMs: number;
	/** Longest wait for the first token while the server is alive (keel.model.requestTimeoutSeconds): then the turn stops. */
	firstTokenTimeoutMs: number;
	/** Corrections sent back after a server-side parse failure, per model request. */
	reflectionsPerRequest: number;
	reflectionDelayMs: number;
	/** Failed calls a read-only tool may be retried with in one turn; side-effecting tools get fewer. */
	readToolRetries: number;
	sideEffectToolRetries: number;
	toolMode: ToolMode;
	/** Native-format failures in one turn after which `auto` switches a model to text mode. */
	textModeAfterFailures: number;
	/** Same call with the same output this many times in a row is a loop. */
	loopRepeats: number;
	contextWindow: number;
	/**
	 * Tokens of reasoning one response may spend before it answers or calls (keel.model.reasoningBudget;
	 * 0: no bound). Sent to servers that take a budget (llama.cpp); elsewhere Keel stops the
	 * reasoning there and asks for the answer without more thinking.
	 */
	reasoningBudget: number;
	/** How the model server's context is raised (its preset's contextHint); cloud servers have none. */
	serverContextHint?: string;
	/** Share of the window at which old tool outputs are compacted. */
	compactAt: number;
	/** How calls written as text are read; `dialects` (the parsers alone) exists for the bench's comparison. */
	textCallExtraction?: 'general' | 'dialects';
}

export const defaultRecoverySettings: RecoverySettings = {
	enabled: true,
	maxRetriesPerTurn: 6,
	backoffBaseMs: 1000,
	backoffMaxMs: 30_000,
	retryAfterCapMs: 60_000,
	streamIdleTimeoutMs: 120_000,
	firstTokenTimeoutMs: 600_000,
	reflectionsPerRequest: 2,
	reflectionDelayMs: 500,
	readToolRetries: 3,
	sideEffectToolRetries: 1,
	toolMode: 'auto',
	textModeAfterFailures: 2,
	loopRepeats: 3,
	contextWindow: 32_768,
	reasoningBudget: 0,
	compactAt: 0.8,
};

/** Remembers per model that native tool calling failed, so the next session starts in text mode. */
export interface ToolModeMemory {
	get(modelId: string): 'native' | 'text' | undefined;
	set(modelId: string, mode: 'native' | 'text'): void;
}

export class InMemoryToolModeMemory implements ToolModeMemory {
	private readonly _modes = new Map<string, 'native' | 'text'>();
	get(modelId: string) {
		return this._modes.get(modelId);
	}
	set(modelId: string, mode: 'native' | 'text') {
		this._modes.set(modelId, mode);
	}
}
