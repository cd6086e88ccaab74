import { ApprovalGate } from '../agent/approval/approvalGate';
import type { ImagePart } from '../llm/imageParts';
import { ContinueGate } from '../agent/guards/continueGate';
import type { RecoverySettings, ToolModeMemory } from '../agent/recovery/recoverySettings';
import type { ForcingMemory } from '../agent/recovery/forcingMemory';
import type { ApprovalSettings } from '../agent/approval/approvalPolicy';
import type { AgentEvent } from '../agent/events';
import { runTurn, type TurnOutcome } from '../agent/loop/runAgent';
import { turnStartedEvent } from '../agent/loop/turnState';
import { SessionMemory } from '../agent/memory/sessionMemory';
import type { ToolPolicy } from '../agent/toolPolicy/toolPolicy';
import { AgentError, toAgentError } from '../errors';
import type { CanonicalMessage } from '../llm/canonical';
import type { ChatModel } from '../llm/chatModel';
import type { Workspace } from '../ports';
import type { ToolRegistry } from '../tools/registry';
import type { OutputStore } from '../tools/outputStore';
import { Emitter } from '../util/emitter';
import { shortId } from '../util/ids';
import { Disposable } from '../util/lifecycle';

/** What the model factory may do while the prompt waits for it. */
export interface TurnWait {
	signal: AbortSignal;
	say(text: string): void;
}

export interface ChatSessionDeps {
	sessionId: string;
	/**
	 * Built per turn so a settings change applies to the next message. It may wait for what the
	 * turn needs (an answer the user owes, such as an MCP server's consent): `say` puts a line
	 * under the prompt, and Stop aborts `signal`.
	 */
	createModel(wait?: TurnWait): Promise<ChatModel>;
	/** The model's name for display; the host's view reads it, the loop does not. */
	modelLabel?(): string;
	registry: ToolRegistry;
	/** read_output's store: a tool output sent in part after a context error is kept whole there. */
	outputs?: OutputStore;
	/** Per-session anomaly blocks, dependencies and TAFC (agent/toolPolicy); the host's tool system keeps one. */
	toolPolicy?: ToolPolicy;
	workspace: Workspace;
	approvalSettings(): ApprovalSettings;
	maxSteps(): number;
	/** keel.agent.parallelReads: most read-only calls of a step that run at once; default 8. */
	parallelReads?(): number;
	systemPrompt(): string;
	history?: CanonicalMessage[];
	/** What the session's earlier requests decided (storedMemory.ts), when it was reopened from the store. */
	memory?: SessionMemory;
	/** keel.recovery.* budgets, read per turn. */
	recovery?(): Partial<RecoverySettings>;
	/** Per-model memory of the tool-call dialect that works (host: globalState). */
	toolModeMemory?: ToolModeMemory;
	/** Per server and model: what a forced call did (host: globalState). */
	forcingMemory?: ForcingMemory;
	/** Warnings said once across chats (a server's smaller window); the host keeps one for the window's life. */
	shownOnce?: Set<string>;
}

/**
 * One conversation: its history, the running turn, and the approvals it waits on. The host
 * feeds it prompts, decisions and cancels; it emits agent events, which the host projects
 * into its view (src/host/view) — the session knows nothing of views.
 */
export class ChatSession extends Disposable {
	private readonly _onDidEvent = this._register(new Emitter<AgentEvent>());
	readonly onDidEvent = this._onDidEvent.event;

	readonly history: CanonicalMessage[];
	private readonly _gate = this._register(new ApprovalGate());
	private readonly _continueGate = this._register(new ContinueGate());
	private _running: { abort: AbortController; done: Promise<TurnOutcome> } | undefined;
	/** What this conversation's requests already sent, so each one extends the one before. */
	private readonly _memory: SessionMemory;

	constructor(private readonly _deps: ChatSessionDeps) {
		super();
		this.history = [...(_deps.history ?? [])];
		this._memory = _deps.memory ?? new SessionMemory();
		this._register({ dispose: () => this._running?.abort.abort() });
	}

	/** What decides the next request; kept with the session so a reopen extends the last request. */
	get memory(): SessionMemory {
		return this._memory;
	}

	get busy(): boolean {
		return this._running !== undefined;
	}

	/** Runs one turn. A second prompt while one runs is refused rather than interleaved. */
	send(prompt: string, images?: ImagePart[]): Promise<TurnOutcome> {
		if (this._running) {
			return Promise.reject(
				new AgentError('protocol', 'A turn is already running. Stop it first or wait for it to finish.'),
			);
		}
		const abort = new AbortController();
		const turnId = shortId('t');
		const done = this._run(prompt, turnId, abort.signal, images).finally(() => {
			this._running = undefined;
		});
		this._running = { abort, done };
		return done;
	}

	decide(toolCallId: string, approved: boolean, reason?: string, always?: boolean): boolean {
		return this._gate.decide(toolCallId, { approved, reason, always });
	}

	/** The user's answer to "Continue / Stop" at the step cap. */
	decideContinue(id: string, proceed: boolean): boolean {
		return this._continueGate.decide(id, proceed);
	}

	pendingContinues(): string[] {
		return this._continueGate.pendingIds();
	}

	pendingApprovals(): string[] {
		return this._gate.pendingIds();
	}

	/** Stops the stream and any running tool promptly; pending approvals become denials. */
	cancel(): void {
		this._running?.abort.abort();
		this._gate.cancelAll();
		this._continueGate.cancelAll();
	}

	async whenIdle(): Promise<void> {
		await this._running?.done.catch(() => undefined);
	}

	private async _run(
		prompt: string,
		turnId: string,
		signal: AbortSignal,
		images?: ImagePart[],
	): Promise<TurnOutcome> {
		const emit = (event: AgentEvent) => {
			if (event.type === 'messageAppended') {
				this.history.push(event.message);
			}
			this._onDidEvent.fire(event);
		};
		// The prompt shows at once; anything the model factory waits for is said under it.
		emit(turnStartedEvent(turnId, prompt, images));
		let model: ChatModel;
		try {
			model = await this._deps.createModel({
				signal,
				say: text => emit({ type: 'notice', turnId, level: 'info', code: 'waiting', text }),
			});
			if (signal.aborted) {
				throw new AgentError('cancelled', 'Stopped.');
			}
		} catch (error) {
			const agentError = toAgentError(error);
			const reason = agentError.code === 'cancelled' ? 'cancelled' : 'failed';
			emit({
				type: 'messageAppended',
				turnId,
				message: images?.length ? { kind: 'user', content: prompt, images } : { kind: 'user', content: prompt },
			});
			emit({
				type: 'turnFinished',
				turnId,
				reason,
				...(reason === 'failed' ? { error: { code: agentError.code, message: agentError.message } } : {}),
			});
			return { turnId, reason, messages: [], error: agentError };
		}
		return runTurn(
			{
				model,
				registry: this._deps.registry,
				toolPolicy: this._deps.toolPolicy,
				approvals: this._gate,
				approvalSettings: this._deps.approvalSettings(),
				workspace: this._deps.workspace,
				sessionId: this._deps.sessionId,
				outputs: this._deps.outputs,
				systemPrompt: this._deps.systemPrompt(),
				maxSteps: this._deps.maxSteps(),
				parallelReads: this._deps.parallelReads?.(),
				emit,
				recovery: this._deps.recovery?.(),
				continueDecider: this._continueGate,
				toolModeMemory: this._deps.toolModeMemory,
				forcingMemory: this._deps.forcingMemory,
				shownOnce: this._deps.shownOnce,
				announced: true,
				memory: this._memory,
			},
			[...this.history],
			prompt,
			turnId,
			signal,
			images,
		);
	}
}
