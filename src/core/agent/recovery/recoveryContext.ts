/**
 * What one model request with recovery is given and returns (recovery.ts), and what each
 * failure's action (failures/) works on.
 */
import type { AgentError } from '../../errors';
import type { CanonicalMessage } from '../../llm/canonical';
import type { ChatRequest, ToolChoice, ToolSpec } from '../../llm/chatModel';
import type { Clock } from '../../ports';
import type { ToolRegistry } from '../../tools/registry';
import type { StepContext, StepOutput } from '../loop/modelStep';
import type { RetryBudget } from './failures/retryBudget';
import type { RecoverySettings } from './recoverySettings';

export interface RequestPlan {
	messages: CanonicalMessage[];
	tools: readonly ToolSpec[];
}

export interface RecoveryContext extends Omit<StepContext, 'messages' | 'tools' | 'onPartialText'> {
	settings: RecoverySettings;
	clock: Clock;
	random(): number;
	budget: RetryBudget;
	registry: ToolRegistry;
	/** Tools offered this step (also in text mode, where none are sent natively). */
	offered: readonly ToolSpec[];
	/** Builds the request; `squeeze` asks for a smaller one after a context overflow, under `fitTo` tokens when the server named a size. */
	plan(squeeze: boolean, fitTo?: number): RequestPlan;
	/** A native tool-calling failure the server reported (feeds the auto → text switch). */
	onNativeFailure(): void;
	/** The server takes no native tools for this model: switch to text mode; false when already there. */
	onToolsUnsupported(why: string): boolean;
	/** Sampling that breaks repetition (the re-ask after degenerate output). */
	avoidRepetition?: boolean;
	/** The server is asked to hold the model to a call (the last rung after the re-asks). */
	toolChoice?: ToolChoice;
	/** What every request of this step carries besides its messages: the window, the reasoning budget or switch. */
	request?: Pick<ChatRequest, 'contextWindow' | 'reasoning' | 'keepReasoning'>;
	/** The server refused reasoning sent back: stop sending it; false when it was already off. */
	onReasoningRefused?(): boolean;
	/** Keeps a correction in the history where it was sent, so later requests extend this one. */
	onCorrection?(text: string): void;
	/**
	 * The server could not compile the tool schemas: later requests of the session carry fewer
	 * tools in their simplest form. The counts before and after; undefined when they already did.
	 */
	onToolSchemaRefused?(): { before: number; after: number } | undefined;
}

export type RequestResult =
	{ ok: true; output: StepOutput } | { ok: false; error: AgentError; partial: string; forceRefused?: boolean };
