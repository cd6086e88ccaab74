import { AgentError, type ErrorCode } from '../../errors';
import type { CanonicalMessage } from '../../llm/canonical';
import type { ChatModel, ServerFacts, ToolChoice, ToolSpec } from '../../llm/chatModel';
import type { ImagePart } from '../../llm/imageParts';
import { systemClock, type Clock } from '../../ports';
import { isToolOffered } from '../approval/approvalPolicy';
import type { AgentEvent, NoticeLevel, TurnEndReason } from '../events';
import type { NoticeCode } from '../noticeCodes';
import { defaultRecoverySettings, type RecoverySettings } from '../recovery/recoverySettings';
import { RetryBudget } from '../recovery/failures/retryBudget';
import { watchStream } from '../recovery/failures/streamWatch';
import { ToolModeState } from '../recovery/review/textMode';
import type { SessionToolState } from '../toolPolicy/toolPolicy';
import { selectTools } from '../toolPolicy/toolSelection';
import { SessionMemory } from '../memory/sessionMemory';
import { instructionsChangedNote } from './systemPrompt';
import type { AgentOptions, TurnOutcome } from './agentOptions';
import { TurnGuards } from '../guards/turnGuards';
import { keepWhole } from '../guards/resultCuts';
import { windowInForce, type WindowInForce } from '../guards/serverWindow';
import { nineCharId } from '../../llm/wires/wireIds';

/** How a turn ended, as a value: a phase returns it, the loop stops, and finishTurn reports it. */
export interface TurnEnd {
	end: TurnEndReason;
	error?: AgentError;
}

export function isTurnEnd(value: unknown): value is TurnEnd {
	return typeof value === 'object' && value !== null && 'end' in value;
}

export function endTurn(end: TurnEndReason, error?: AgentError): TurnEnd {
	return error ? { end, error } : { end };
}

/**
 * A correction for the next request: a response that gave nothing to do is re-asked once with
 * it, and "Continue" at the step cap leaves one too. It joins the history as a note (a
 * mid-history system message) where it was sent, so later requests still extend that one.
 */
export interface Nudge {
	text: string;
	avoidRepetition?: boolean;
	/** This one request goes without native tools, the calls asked for as text (the second re-ask). */
	textMode?: boolean;
	/** This one request asks the server to hold the model to a call (the last rung). */
	force?: ToolChoice;
	/** This one request asks for the answer without thinking, where the server has a switch (reasoning ran away). */
	noThinking?: boolean;
	/** This one request ends with this cut call as the model's open message, for the server to continue. */
	continuation?: string;
}

/**
 * Everything one turn knows, in one value. The phases read and update it; nothing about the
 * turn lives anywhere else, so a phase can be tested alone from a state built for it.
 */
export interface TurnState {
	readonly turnId: string;
	/** The conversation before this turn (not changed by it). */
	readonly history: readonly CanonicalMessage[];
	/** The messages this turn added, in order: what `TurnOutcome.messages` returns. */
	readonly added: CanonicalMessage[];
	/** Tool-call ids in use in the session, so a new card never takes one already there. */
	readonly usedIds: Set<string>;
	/** The tools this turn may offer (permissions, trust, tool budget), chosen once at its start. */
	readonly offerable: readonly ToolSpec[];
	/** What the current step offers: `offerable` after the session's tool policy (blocks, dependencies). */
	offered: readonly ToolSpec[];
	/** Model requests so far, the re-asks included (1 during the first). */
	step: number;
	/** Steps that ran tools since the turn began or the user said Continue: what the step cap counts. */
	stepsSinceContinue: number;
	nudge?: Nudge;
	/** Off once the server refused the model's own reasoning sent back with its calls. */
	sendReasoning: boolean;
	/** Responses in a row that gave the loop nothing to do. */
	shortfalls: number;
	/** The forced-call rung was used this turn (it is tried once). */
	forced?: boolean;
	/** Times the server paused this turn and it was sent back to continue. */
	pauses?: number;
	/** A cut call was sent back to be continued since the last step that gave the loop something to do. */
	continued?: boolean;
	/** Requests and tokens so far, for the context meter. */
	readonly usage: { requests: number; tokens: number };
	/** Native or text-mode tool calls, and the failures that switch between them. */
	readonly mode: ToolModeState;
	/** Context budget, per-tool retry budgets and the doom-loop watch. */
	readonly guards: TurnGuards;
	/** Transport, stream and reflection retries left this turn. */
	readonly budget: RetryBudget;
}

type Notice = (level: NoticeLevel, code: NoticeCode, text: string, notify?: boolean) => void;

/** What stays the same for the whole turn: the caller's options and what follows from them. */
export interface TurnContext {
	readonly options: AgentOptions;
	readonly turnId: string;
	readonly signal: AbortSignal;
	readonly settings: RecoverySettings;
	/** The model, its stream watched when recovery is on (a long prefill waits, a stalled stream is cut). */
	readonly model: ChatModel;
	readonly clock: Clock;
	readonly random: () => number;
	/** The session's tool policy (anomaly blocks, dependencies, TAFC), when the caller gave one. */
	readonly toolState: SessionToolState | undefined;
	/** What the session decided once so its requests extend each other (tools, system prompt, compaction). */
	readonly memory: SessionMemory;
	readonly notice: Notice;
	/** Tool work a Stop let the turn leave behind (a tool that ignores its signal), still settling. */
	readonly abandoned: Set<Promise<unknown>>;
	/** What the server said about itself this turn (its window, its kind, how it treats reasoning). */
	readonly server: ServerFacts;
	/** The window this turn plans for (`settings.contextWindow`), and why when it is not the setting. */
	readonly window: WindowInForce;
}

export function turnContext(
	options: AgentOptions,
	turnId: string,
	signal: AbortSignal,
	server: ServerFacts = {},
): TurnContext {
	const configured: RecoverySettings = { ...defaultRecoverySettings, ...options.recovery };
	const memory = options.memory ?? new SessionMemory();
	// keel.model.contextWindow, unless the server runs less: every budget of the turn follows from it.
	const window = windowInForce(configured.contextWindow, server, memory.askedWindow);
	memory.askedWindow = window.window;
	memory.keepReasoning ??= server.keepsReasoning;
	const settings: RecoverySettings = { ...configured, contextWindow: window.window };
	return {
		options,
		turnId,
		signal,
		settings,
		server,
		window,
		model: settings.enabled
			? watchStream(options.model, {
					idleMs: settings.streamIdleTimeoutMs,
					firstTokenMs: settings.firstTokenTimeoutMs,
				})
			: options.model,
		clock: options.clock ?? systemClock,
		random: options.random ?? Math.random,
		toolState: options.toolPolicy?.session(options.sessionId ?? ''),
		memory,
		notice: (level, code, text, notify) => options.emit({ type: 'notice', turnId, level, code, text, notify }),
		abandoned: new Set(),
	};
}

/** The first phase: announce the turn, record the prompt, choose the tools, and build the state. */
export function turnStartedEvent(turnId: string, prompt: string, images?: ImagePart[]): AgentEvent {
	return {
		type: 'turnStarted',
		turnId,
		prompt,
		...(images?.length ? { images: images.map(i => ({ name: i.name, bytes: i.bytes })) } : {}),
	};
}

export function startTurn(
	ctx: TurnContext,
	history: readonly CanonicalMessage[],
	prompt: string,
	images?: ImagePart[],
): TurnState {
	const { options, settings, notice } = ctx;
	if (!options.announced) {
		options.emit(turnStartedEvent(ctx.turnId, prompt, images));
	}
	// Denied and (in an untrusted workspace) non-read tools are not even offered to the model.
	// Over the tool budget (count, or tokens against the context window) only the relevant ones go (toolSelection.ts).
	// The first turn of a session chooses; later turns keep that choice in its order (sessionMemory.ts).
	const memory = ctx.memory;
	memory.selection = selectTools(
		options.registry.specs(tool => isToolOffered(tool, options.approvalSettings)),
		options.registry,
		{
			messages: [...history, { kind: 'user', content: prompt }],
			contextWindow: settings.contextWindow,
			signal: ctx.signal,
			notice: text => notice('info', 'toolsOffered', text),
		},
		memory.selection,
	);
	const offerable = memory.selection.offered;
	const state: TurnState = {
		turnId: ctx.turnId,
		history,
		added: [],
		usedIds: new Set(history.flatMap(m => (m.kind === 'tool_call' ? [m.data.id] : []))),
		offerable,
		// The tool policy (anomaly blocks, dependencies, TAFC) may change what is offered after each step.
		offered: ctx.toolState ? ctx.toolState.offer(offerable) : offerable,
		step: 0,
		stepsSinceContinue: 0,
		sendReasoning: memory.sendReasoning,
		shortfalls: 0,
		usage: { requests: 0, tokens: 0 },
		mode: new ToolModeState(
			settings.enabled ? settings.toolMode : 'native',
			settings.textModeAfterFailures,
			options.model.id,
			options.toolModeMemory,
			failures =>
				notice(
					'warning',
					'textMode',
					`${modelName(options.model)} failed native tool calling ${failures} times; switched it to text-mode tool calls (remembered for this model).`,
				),
		),
		guards: new TurnGuards(
			settings,
			notice,
			memory,
			options.outputs && keepWhole(options.outputs, options.sessionId),
		),
		budget: new RetryBudget(settings.maxRetriesPerTurn),
	};
	noteInstructionChange(state, ctx);
	noteServerWindow(ctx);
	appendMessage(
		state,
		ctx,
		images?.length ? { kind: 'user', content: prompt, images } : { kind: 'user', content: prompt },
	);
	return state;
}

/**
 * The system prompt is sent as the session first sent it. A mode change or reloaded rules
 * arrive as a note before the prompt that follows them, so the request still extends the last.
 */
function noteInstructionChange(state: TurnState, ctx: TurnContext): void {
	const { memory } = ctx;
	const now = ctx.options.systemPrompt;
	const last = memory.instructions ?? memory.systemPrompt;
	memory.systemPrompt ??= now;
	memory.instructions = now;
	if (last !== undefined && last !== now) {
		appendMessage(state, ctx, { kind: 'system', content: instructionsChangedNote(last, now) });
	}
}

/** A server that runs a smaller window than the setting is said once, with what to change. */
function noteServerWindow(ctx: TurnContext): void {
	const warning = ctx.window.warning;
	const shown = ctx.options.shownOnce ?? ctx.memory.shown;
	if (warning && !shown.has(warning.key)) {
		shown.add(warning.key);
		ctx.notice('warning', 'serverWindow', warning.text, true);
	}
}

/** History is append-only: every message is emitted as `messageAppended` when it happens. */
export function appendMessage(state: TurnState, ctx: TurnContext, message: CanonicalMessage): void {
	state.added.push(message);
	ctx.options.emit({ type: 'messageAppended', turnId: ctx.turnId, message });
}

/** `preferred` when free in the session, else `fallback`, suffixed until it is. */
export function uniqueId(state: TurnState, preferred: string | undefined, fallback: string): string {
	// An id Keel makes up is nine letters or digits, the form every known server takes (wireIds.ts);
	// a server's own id is kept as it came, so the server recognises its call.
	const base = preferred || nineCharId(fallback);
	let id = base;
	for (let n = 2; state.usedIds.has(id); n++) {
		id = preferred ? `${base}-${n}` : nineCharId(`${fallback}#${n}`);
	}
	state.usedIds.add(id);
	return id;
}

/** The last phase: report the end as `turnFinished` and hand the caller what the turn added. */
export function finishTurn(state: TurnState, ctx: TurnContext, end: TurnEnd): TurnOutcome {
	const { error } = end;
	ctx.options.emit({
		type: 'turnFinished',
		turnId: ctx.turnId,
		reason: end.end,
		error: error && { code: error.code, message: error.message },
	});
	return { turnId: ctx.turnId, reason: end.end, messages: state.added, error };
}

/** "qwen3:8b" of "ollama#qwen3:8b": the name a user knows the model by. */
export function modelName(model: ChatModel): string {
	return model.id.split('#').pop() ?? model.id;
}

/** The turn failed with a sentence the user can act on: an error notice (and a notification), then the end. */
export function failTurn(ctx: TurnContext, notice: NoticeCode, code: ErrorCode, message: string): TurnEnd {
	ctx.notice('error', notice, message, true);
	return endTurn('failed', new AgentError(code, message));
}
