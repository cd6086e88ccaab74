/**
 * The vocabulary of Check Model: what one trial of one task measured, and the report the
 * suite produces for a model on an endpoint. Plain data (JSON), so the host keeps reports on
 * disk, the report view draws them and the command line prints them from the same values.
 */

/** How the model is asked to call tools: the server's native format, or calls written as text. */
export type ToolCallMode = 'native' | 'text';

/** Where the tokens-per-second figures came from. */
export type FigureSource = 'server' | 'measured';

/** Ways Keel had to step in during a trial, by what went wrong. */
export type RecoveryClass =
	| 'textCall'
	| 'jsonRepair'
	| 'nameMatch'
	| 'gluedCalls'
	| 'hiddenCall'
	| 'serverParse'
	| 'invalidCall'
	| 'cutCall'
	| 'emptyAnswer'
	| 'loop'
	| 'degenerate'
	| 'transport'
	| 'stream'
	| 'textModeSwitch'
	| 'context';

export interface TrialResult {
	taskId: string;
	mode: ToolCallMode;
	/** 1-based. */
	trial: number;
	passed: boolean;
	/** Why it failed, in a sentence; empty when it passed. */
	why: string;
	/** How the turn ended: completed, stepLimit, cancelled, failed, or timeout. */
	end: string;
	durationMs: number;
	/** Model requests the turn made. */
	requests: number;
	toolCalls: number;
	promptTokens: number;
	completionTokens: number;
	/** True when any of the token counts is Keel's estimate (the server sent none). */
	tokensEstimated: boolean;
	recoveries: Partial<Record<RecoveryClass, number>>;
	/** Calls the model got wrong in a way Keel repaired or reflected back. */
	brokenCalls: number;
}

/** One model request as the meter saw it. */
export interface RequestSample {
	mode: ToolCallMode;
	/** From sending the request to the first streamed token (text, reasoning or call). */
	ttftMs?: number;
	durationMs: number;
	promptTokens?: number;
	completionTokens?: number;
	/** Keel's own estimate of what it sent, to tell a prompt the server cut. */
	estimatedPromptTokens: number;
	/** Of that, what the previous request of the trial did not already hold (all of it for the first). */
	newPromptTokens?: number;
	/** The server's prompt count is only what it evaluated, not the cached prefix (Ollama). */
	countsNewOnly?: boolean;
	/** Prompt processing and generation as the server timed them (Ollama, llama.cpp). */
	server?: { promptTokens?: number; promptMs?: number; generatedTokens?: number; generationMs?: number };
	finishReason?: string;
	failed: boolean;
}

export interface TaskSummary {
	taskId: string;
	/** One entry per trial, in order; undefined when the task did not run (see `skipped`). */
	passes: boolean[];
	/** Every trial passed. */
	passAll: boolean;
	meanDurationMs: number;
	meanTokens: number;
	/** The first failure's reason, for the table. */
	why?: string;
}

export interface ModeSummary {
	mode: ToolCallMode;
	/** Share of trials that passed (0–1). */
	passAt1: number;
	/** Share of tasks whose k trials all passed (0–1). */
	passHatK: number;
	passedTrials: number;
	trials: number;
	tasks: TaskSummary[];
	recoveries: Partial<Record<RecoveryClass, number>>;
	brokenCalls: number;
	toolCalls: number;
	meanDurationMs: number;
	meanTokensPerTask: number;
}

export interface SpeedFigures {
	/** Median time to first token, ms. */
	ttftMs?: number;
	promptTokensPerSecond?: number;
	promptSource?: FigureSource;
	generationTokensPerSecond?: number;
	generationSource?: FigureSource;
	/** Prompt + generated tokens per task trial, on average. */
	tokensPerTask: number;
	/** Largest completion of one request. */
	longestAnswerTokens: number;
	/** Responses the server ended at its output limit. */
	cutAtLimit: number;
}

export interface ContextFigures {
	/** keel.model.contextWindow when the check ran. */
	configured: number;
	/** What the server says the model was trained for, where it says (Ollama /api/show, llama.cpp, LM Studio). */
	advertised?: number;
	/** The window the server runs now (llama.cpp /props per slot, LM Studio's loaded instance, vLLM, Ollama /api/ps). */
	running?: number;
	/** Where `running` was read. */
	runningSource?: string;
	/** Largest prompt the server reported reading. */
	largestPromptRead?: number;
	/** Largest prompt Keel sent, by its own estimate. */
	largestPromptSent: number;
	/** Smallest request of the suite: the system prompt, the tools and a short task. */
	smallestPromptSent: number;
	/** Requests whose prompt the server read only part of. */
	truncatedRequests: number;
	requests: number;
	/** What the server really gave, when it cut prompts: the most it read. */
	servedWindow?: number;
}

export type SettingKey = 'keel.recovery.toolMode' | 'keel.model.contextWindow' | 'keel.model.maxOutputTokens';

export interface Recommendation {
	setting: SettingKey;
	current: string | number;
	recommended: string | number;
	/** Whether applying would change anything. */
	change: boolean;
	why: string;
}

export type Verdict = 'good' | 'usable' | 'notUsable';

export interface CheckReport {
	version: 1;
	/** Unique per report: the model, the endpoint and when. */
	id: string;
	model: string;
	provider: string;
	endpoint: string;
	/** ISO date and time the check started. */
	startedAt: string;
	durationMs: number;
	trials: number;
	tasks: Array<{ id: string; title: string; skill: string }>;
	/** Tasks that could not run here, with why (e.g. the shell task without Docker). */
	skipped: Array<{ taskId: string; why: string }>;
	/** Whether commands ran in the Docker sandbox. */
	sandbox: boolean;
	/** What the one-call probe found before the suite. */
	probe: string;
	/** What the server does with a forced call ("required", named), measured before the suite. */
	forcing?: { required: string; named: string; detail: string };
	nativeOffered: boolean;
	modes: ModeSummary[];
	/** What Keel stepped in for, by class, with how often in each mode: the classes that happened. */
	recoveries: Array<{ key: RecoveryClass; label: string; byMode: Partial<Record<ToolCallMode, number>> }>;
	/** The mode that did better, and in one sentence why. */
	better: ToolCallMode;
	betterWhy: string;
	results: TrialResult[];
	speed: SpeedFigures;
	context: ContextFigures;
	recommendations: Recommendation[];
	verdict: Verdict;
	/** The verdict in words: "works well", "usable with care", "not usable for agent work". */
	verdictLabel: string;
	/** A sentence a user can act on; with the numbers. */
	summary: string;
	warnings: string[];
}

/** The settings the recommendations are measured against. */
export interface CurrentSettings {
	toolMode: 'auto' | 'native' | 'text';
	contextWindow: number;
	/** 0: the server decides. */
	maxOutputTokens: number;
}
