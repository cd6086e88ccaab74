import type { AgentError } from '../../errors';
import type { ChatModel } from '../../llm/chatModel';
import type { CanonicalMessage } from '../../llm/canonical';
import type { Clock, Workspace } from '../../ports';
import type { ToolRegistry } from '../../tools/registry';
import type { OutputStore } from '../../tools/outputStore';
import type { Approver } from '../approval/approvalGate';
import type { ApprovalSettings } from '../approval/approvalPolicy';
import type { AgentEvent, TurnEndReason } from '../events';
import type { RecoverySettings, ToolModeMemory } from '../recovery/recoverySettings';
import type { ContinueDecider } from '../guards/continueGate';
import type { ForcingMemory } from '../recovery/forcingMemory';
import type { ToolPolicy } from '../toolPolicy/toolPolicy';
import type { SessionMemory } from '../memory/sessionMemory';

/** What a caller gives one turn: the model, the tools and their permissions, the budgets, and where events go. */
export interface AgentOptions {
	model: ChatModel;
	registry: ToolRegistry;
	/** Per-session anomaly blocks, dependencies and TAFC (toolPolicy/); without it the loop behaves as before. */
	toolPolicy?: ToolPolicy;
	approvals: Approver | undefined;
	approvalSettings: ApprovalSettings;
	workspace: Workspace;
	systemPrompt: string;
	maxSteps: number;
	/** Most read-only calls of one step that run at once (keel.agent.parallelReads, default 8); 1 runs each in turn. */
	parallelReads?: number;
	/** Reads start as soon as their arguments are complete in the stream (default); false waits for the response's end, as the reference the bench measures against. */
	startCallsEarly?: boolean;
	emit(event: AgentEvent): void;
	/** The conversation this turn belongs to; scopes stored tool outputs (read_output). */
	sessionId?: string;
	/** read_output's store: a tool output sent in part after a context error is kept whole there. */
	outputs?: OutputStore;
	/** Recovery budgets (keel.recovery.*); defaults apply to what is left out. `enabled: false` is the naive loop. */
	recovery?: Partial<RecoverySettings>;
	/** Asked "Continue / Stop" at the step cap; none means Stop. */
	continueDecider?: ContinueDecider;
	toolModeMemory?: ToolModeMemory;
	/** What each server did with a forced call: never sent where it was ignored or refused. */
	forcingMemory?: ForcingMemory;
	/** The session's memory of what its requests already sent (tools, system prompt, compaction); one per session. */
	memory?: SessionMemory;
	clock?: Clock;
	random?: () => number;
	/** The caller already emitted `turnStarted` (it waited for something the turn needs, and said so under the prompt). */
	announced?: boolean;
	/** Warnings said once across chats (a server's smaller window), by key; absent: once per chat. */
	shownOnce?: Set<string>;
}

export interface TurnOutcome {
	turnId: string;
	reason: TurnEndReason;
	/** The messages this turn added to the history, in order. */
	messages: CanonicalMessage[];
	error?: AgentError;
	/**
	 * Settles once the tool calls a Stop left running have finished touching the files: whoever
	 * removes the workspace after a stopped turn waits for it, or a late write brings it back.
	 */
	settled?: Promise<void>;
}
