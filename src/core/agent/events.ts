import type { CanonicalMessage } from '../llm/canonical';
import type { PrefillProgress } from '../llm/chatModel';
import type { ErrorCode } from '../errors';
import type { NoticeCode } from './noticeCodes';
import type { ToolEffect } from '../tools/defineTool';

export type ToolCallStatus =
	'streaming' | 'awaitingApproval' | 'running' | 'succeeded' | 'failed' | 'denied' | 'cancelled' | 'interrupted';

/** Everything the UI needs to draw one tool-call card. */
export interface ToolCallState {
	id: string;
	name: string;
	title: string;
	/** The arguments as text: partial while streaming, then pretty-printed once parsed. */
	argumentsText: string;
	status: ToolCallStatus;
	effect?: ToolEffect;
	output?: string;
	/** Live output of a running tool (commands); replaced by `output` when it ends. */
	progress?: string;
	/** What a write will change, computed before approval; approval applies exactly this. */
	diffs?: Array<{
		path: string;
		unified: string;
		before?: string;
		after?: string;
		tooLarge?: { bytes: number; changedLines: number; added: number; removed: number };
	}>;
	/** Why the policy asks or refused (protected path, a rule, untrusted workspace). */
	policyReason?: string;
	/** Said before it runs, from `prepare` (where a command runs when Docker is absent), with the setting that changes it. */
	caution?: { text: string; setting?: string };
	/** The rule "Always allow" would add, shown on the card; absent when it must not be offered. */
	suggestedRule?: { tool: string; match?: string; action: 'allow' };
	/** Output filtering: lines before → after ("342 → 28 lines"). */
	filtered?: { from: number; to: number };
	/** Credential-shaped strings cut from the output. */
	redactions?: number;
	/** How sure the output filter is it kept what matters: "342 → 28 lines (92% filtered, partial)". */
	filterConfidence?: 'full' | 'partial' | 'fallback';
	/** The filter rule that shaped the output (e.g. "cargo-test"). */
	filterRule?: string;
	/** Where the unfiltered output is kept (OutputStore ref of this session), for "show unfiltered". */
	rawOutputRef?: string;
	/** Answered from the session's result cache: the tool did not run again. */
	cached?: boolean;
	/** A failure's class from the error taxonomy (e.g. "rate_limited", "invalid_parameters"). */
	errorCategory?: string;
}

export type TurnEndReason = 'completed' | 'stepLimit' | 'cancelled' | 'failed';

export type NoticeLevel = 'info' | 'warning' | 'error';

/**
 * The one stream the loop emits. The store, the session view and the notifier all read it;
 * nobody reaches back into the loop except through its inputs.
 */
export type AgentEvent =
	| { type: 'turnStarted'; turnId: string; prompt: string; images?: Array<{ name: string; bytes: number }> }
	/** A canonical message became part of the history (persist it). */
	| { type: 'messageAppended'; turnId: string; message: CanonicalMessage }
	| { type: 'textDelta'; turnId: string; text: string }
	/** The model's reasoning ("thinking"), shown folded and never part of the answer. */
	| { type: 'reasoningDelta'; turnId: string; text: string }
	/**
	 * After each model request: tokens the request used (the provider's counts where it sent
	 * them, otherwise Keel's estimate) and the turn's running totals, for the context meter.
	 */
	| {
			type: 'usage';
			turnId: string;
			promptTokens: number;
			completionTokens: number;
			estimated: boolean;
			contextWindow: number;
			turnRequests: number;
			turnTokens: number;
			/** Prompt tokens the server took from its cache, where it says (llama.cpp, OpenAI-style, Anthropic). */
			cachedTokens?: number;
			/** Prompt tokens the server read anew (Ollama's prompt_eval_count, or prompt less cached). */
			prefilledTokens?: number;
			/** Time from sending the request to the first streamed token. */
			ttftMs?: number;
			/** Why the window differs from keel.model.contextWindow: what the server runs, and where that was read. */
			windowNote?: string;
	  }
	/**
	 * A request waits for its first token: the server is reading the prompt. Sent when the
	 * request goes out and whenever the server shows progress or a sign of life; the first
	 * token (text, reasoning or a call) ends the wait.
	 */
	| { type: 'prefill'; turnId: string; elapsedMs: number; progress?: PrefillProgress }
	| { type: 'toolCallUpdated'; turnId: string; call: ToolCallState }
	/** Retries, repairs, guards: a compact inline line, and a notification when it matters. */
	| { type: 'notice'; turnId: string; level: NoticeLevel; code: NoticeCode; text: string; notify?: boolean }
	/** The text streamed since the last tool call belongs to a failed attempt (retried) or became a call: mark it, never show it twice. */
	| { type: 'textRetracted'; turnId: string; reason: 'retry' | 'recovered' }
	/** The step cap was reached: the user decides whether the turn goes on (Continue) or ends (Stop). */
	| { type: 'continueRequested'; turnId: string; id: string; text: string }
	| { type: 'continueDecided'; turnId: string; id: string; proceed: boolean }
	| { type: 'turnFinished'; turnId: string; reason: TurnEndReason; error?: { code: ErrorCode; message: string } };
