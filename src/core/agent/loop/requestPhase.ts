import { tokensForChars } from '../../util/tokens';
import type { CanonicalMessage } from '../../llm/canonical';
import type { TokenUsage } from '../../llm/chatModel';
import { expectedPrefill } from '../memory/sessionMemory';
import { requestWithRecovery, type RequestPlan, type RequestResult } from '../recovery/recovery';
import type { StepContext, StepOutput } from './modelStep';
import type { EarlyCalls } from './earlyCalls';
import { simplerTools } from '../toolPolicy/toolSelection';
import type { ToolChoice } from '../../llm/chatModel';
import { afterForcedRequest, forcingRefused } from './forcedPhase';
import { joinContinuation } from '../recovery/review/continuation';
import {
	appendMessage,
	endTurn,
	failTurn,
	modelName,
	uniqueId,
	type TurnContext,
	type TurnEnd,
	type TurnState,
} from './turnState';

/** Builds a step's request; `squeeze` asks for a smaller one after the server said it was too long. */
export type Planner = (squeeze: boolean, fitTo?: number) => RequestPlan;

/**
 * Phase: a new step begins. What is offered is decided again (the tool policy may have blocked
 * or unlocked a tool), and the request is planned inside the context window; a conversation
 * that cannot fit even compacted ends the turn.
 */
export function planRequest(state: TurnState, ctx: TurnContext): Planner | TurnEnd {
	state.step++;
	if (ctx.toolState && state.step > 1) {
		state.offered = ctx.toolState.offer(state.offerable);
	}
	if (state.nudge?.text) {
		// Kept where it was sent: the next request still starts with this one.
		appendMessage(state, ctx, { kind: 'system', content: state.nudge.text });
	}
	// Read when called, not now: recovery may re-plan after the reasoning was refused or to squeeze.
	const plan: Planner = (squeeze, fitTo) => planMessages(state, ctx, squeeze, undefined, fitTo);
	if (state.guards.overBudget(plan(false))) {
		return failTurn(
			ctx,
			'contextBudget',
			'contextOverflow',
			`This conversation no longer fits the model's context window (${ctx.settings.contextWindow} tokens, keel.model.contextWindow) even after compacting old tool outputs. Start a new chat.`,
		);
	}
	return plan;
}

/** The step's request from the turn's state: the session's system prompt, the history, the offered tools. */
export function planMessages(
	state: TurnState,
	ctx: TurnContext,
	squeeze: boolean,
	// The second re-ask asks for the call as text: that one request goes without native tools.
	textMode = state.mode.mode === 'text' || state.nudge?.textMode === true,
	fitTo?: number,
): RequestPlan {
	const messages = [...state.history, ...state.added];
	const offered = ctx.memory.simplerTools
		? simplerTools(state.offered, ctx.options.registry, messages, ctx.memory.selection)
		: state.offered;
	// A cut call to be continued goes last, as the model's own open message, in this request only.
	const continuation: CanonicalMessage[] = state.nudge?.continuation
		? [{ kind: 'assistant', content: state.nudge.continuation }]
		: [];
	return state.guards.plan(
		ctx.memory.systemPrompt ?? ctx.options.systemPrompt,
		[...(state.sendReasoning ? messages : withoutReasoning(messages)), ...continuation],
		offered,
		textMode,
		squeeze,
		fitTo,
	);
}

/**
 * Phase: the step's request, with transport, stream and format recovery around it. The nudge
 * goes with this request only. A request that fails for good ends the turn, keeping what the
 * user already saw.
 */
export async function requestModel(
	state: TurnState,
	ctx: TurnContext,
	plan: Planner,
	early?: EarlyCalls,
): Promise<StepOutput | TurnEnd> {
	const force = state.nudge?.force;
	const result = await sendRequest(
		state,
		ctx,
		state.step,
		plan,
		state.nudge?.avoidRepetition,
		state.nudge?.noThinking,
		force,
		early && ((call, index) => early.start(call, index)),
	);
	const continuation = state.nudge?.continuation;
	state.nudge = undefined;
	if (result.ok && continuation) {
		return continued(ctx, state, continuation, result.output);
	}
	if (result.ok) {
		return force ? afterForcedRequest(state, ctx, force, result.output) : result.output;
	}
	if (result.partial) {
		appendMessage(state, ctx, { kind: 'assistant', content: result.partial });
	}
	if (force && result.forceRefused) {
		return forcingRefused(state, ctx, force, result.error);
	}
	return ctx.signal.aborted || result.error.code === 'cancelled'
		? endTurn('cancelled')
		: endTurn('failed', result.error);
}

/** One model request through the recovery layer, wired to this turn's state (ids, budget, tool mode, reasoning). */
export function sendRequest(
	state: TurnState,
	ctx: TurnContext,
	step: number,
	plan: Planner,
	avoidRepetition?: boolean,
	noThinking?: boolean,
	toolChoice?: ToolChoice,
	onCallComplete?: StepContext['onCallComplete'],
): Promise<RequestResult> {
	const budget = ctx.settings.reasoningBudget;
	// A server that takes the budget ends the reasoning itself; Keel's own stop is then only a net far above it.
	const takesBudget = ctx.server.kind === 'llamacpp';
	return requestWithRecovery({
		turnId: ctx.turnId,
		step,
		model: ctx.model,
		signal: ctx.signal,
		emit: ctx.options.emit,
		uniqueId: (preferred, fallback) => uniqueId(state, preferred, fallback),
		settings: ctx.settings,
		budget: state.budget,
		plan,
		offered: state.offered,
		registry: ctx.options.registry,
		clock: ctx.clock,
		random: ctx.random,
		onNativeFailure: () => state.mode.nativeFailure(),
		onToolsUnsupported: why => switchToTextMode(state, ctx, why),
		avoidRepetition,
		request: {
			contextWindow: ctx.settings.contextWindow,
			keepReasoning: state.sendReasoning && ctx.memory.keepReasoning === true,
			reasoning: noThinking ? 'off' : budget > 0 ? { budget } : undefined,
		},
		reasoningBound: ctx.settings.enabled && budget > 0 ? (takesBudget ? budget * 2 : budget) : undefined,
		toolChoice,
		onCallComplete,
		onReasoningRefused: () => {
			const was = state.sendReasoning;
			state.sendReasoning = false;
			ctx.memory.sendReasoning = false;
			return was;
		},
		onCorrection: text => appendMessage(state, ctx, { kind: 'system', content: text }),
		onToolSchemaRefused: () => {
			if (ctx.memory.simplerTools) {
				return undefined;
			}
			ctx.memory.simplerTools = true;
			const messages = [...state.history, ...state.added];
			const after = simplerTools(state.offered, ctx.options.registry, messages, ctx.memory.selection).length;
			return { before: state.offered.length, after };
		},
	});
}

/** The rest of a cut call joined to it where the server continued it; the chat shows the call, not its halves. */
function continued(ctx: TurnContext, state: TurnState, prefix: string, output: StepOutput): StepOutput {
	const joined = joinContinuation(prefix, output, ctx.options.registry, state.offered);
	ctx.notice(
		'info',
		'truncatedCall',
		joined.continued
			? 'The server continued the cut call from where it stopped; the call is complete.'
			: 'The server started a new reply instead of continuing the cut call; it is read as it came.',
	);
	return joined.output;
}

function switchToTextMode(state: TurnState, ctx: TurnContext, why: string): boolean {
	const switched = state.mode.forceText();
	if (switched) {
		const flag =
			why === 'vllm'
				? ' (vLLM serves native tool calls only when started with --enable-auto-tool-choice and --tool-call-parser)'
				: '';
		ctx.notice(
			'warning',
			'textMode',
			`The server does not take native tool calls for ${modelName(ctx.options.model)}${flag}; switched to text-mode tool calls and sent the request again.`,
		);
	}
	return switched;
}

/**
 * Phase: the `usage` event after each response, for the context meter: the provider's counts
 * where the server sent them, otherwise Keel's own estimate. Also the place a prompt the server
 * cut short shows (Ollama truncates without an error).
 */
export function accountUsage(state: TurnState, ctx: TurnContext, output: StepOutput): void {
	const usage = output.usage;
	const planned = state.guards.planned;
	const expected = planned && expectedPrefill(ctx.memory.lastRequest, planned.messages, planned.estimate);
	// Only a server that counts just what it evaluated (Ollama: its count is its prefill) is excused by its cache.
	const countsOnlyNew = usage?.prefilledTokens !== undefined && usage.prefilledTokens === usage.promptTokens;
	state.guards.checkTruncation(usage?.promptTokens, countsOnlyNew ? expected : undefined);
	ctx.memory.lastRequest = planned;
	const estimated = usage?.promptTokens === undefined || usage.prefilledTokens === usage.promptTokens;
	// Ollama counts only what it evaluated: with a warm cache that is far below the prompt, so the estimate is the size.
	const promptTokens = estimated
		? Math.max(usage?.promptTokens ?? 0, state.guards.estimate)
		: (usage?.promptTokens ?? state.guards.estimate);
	const completionTokens =
		usage?.completionTokens ??
		tokensForChars(output.text.length + output.calls.reduce((n, c) => n + c.rawArguments.length, 0));
	state.usage.requests += 1;
	state.usage.tokens += promptTokens + completionTokens;
	ctx.options.emit({
		type: 'usage',
		turnId: ctx.turnId,
		promptTokens,
		completionTokens,
		estimated,
		contextWindow: ctx.settings.contextWindow,
		turnRequests: state.usage.requests,
		turnTokens: state.usage.tokens,
		...cacheFigures(usage),
		...(output.ttftMs !== undefined ? { ttftMs: output.ttftMs } : {}),
		...(ctx.window.note ? { windowNote: ctx.window.note } : {}),
	});
}

/** What the server says it took from its cache and read anew, where it says so. */
function cacheFigures(usage: TokenUsage | undefined): { cachedTokens?: number; prefilledTokens?: number } {
	const cached = usage?.cachedTokens;
	const prefilled =
		usage?.prefilledTokens ??
		(cached !== undefined && usage?.promptTokens !== undefined ? usage.promptTokens - cached : undefined);
	return {
		...(cached !== undefined ? { cachedTokens: cached } : {}),
		...(prefilled !== undefined ? { prefilledTokens: Math.max(0, prefilled) } : {}),
	};
}

function withoutReasoning(messages: CanonicalMessage[]): CanonicalMessage[] {
	return messages.map(m =>
		m.kind === 'tool_call' && m.data.reasoning ? { ...m, data: { ...m.data, reasoning: undefined } } : m,
	);
}
