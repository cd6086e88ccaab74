import type { CanonicalMessage } from '../../llm/canonical';
import { requestWithRecovery, type RequestPlan, type RequestResult } from '../recovery/recovery';
import type { StepOutput } from './modelStep';
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
export type Planner = (squeeze: boolean) => RequestPlan;

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
	// Read when called, not now: recovery may re-plan after the reasoning was refused or to squeeze.
	const plan: Planner = squeeze => {
		const messages = [...state.history, ...state.added];
		const planned = state.guards.plan(
			ctx.options.systemPrompt,
			state.sendReasoning ? messages : withoutReasoning(messages),
			state.offered,
			state.mode.mode === 'text' || state.nudge?.textMode === true,
			squeeze,
		);
		return state.nudge
			? { ...planned, messages: [...planned.messages, { kind: 'user', content: state.nudge.text }] }
			: planned;
	};
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

/**
 * Phase: the step's request, with transport, stream and format recovery around it. The nudge
 * goes with this request only. A request that fails for good ends the turn, keeping what the
 * user already saw.
 */
export async function requestModel(state: TurnState, ctx: TurnContext, plan: Planner): Promise<StepOutput | TurnEnd> {
	const result = await sendRequest(state, ctx, state.step, plan, state.nudge?.avoidRepetition);
	state.nudge = undefined;
	if (result.ok) {
		return result.output;
	}
	if (result.partial) {
		appendMessage(state, ctx, { kind: 'assistant', content: result.partial });
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
): Promise<RequestResult> {
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
		onReasoningRefused: () => {
			const was = state.sendReasoning;
			state.sendReasoning = false;
			return was;
		},
	});
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
	state.guards.checkTruncation(output.usage?.promptTokens);
	const estimated = output.usage?.promptTokens === undefined;
	const promptTokens = output.usage?.promptTokens ?? state.guards.estimate;
	const completionTokens =
		output.usage?.completionTokens ??
		Math.ceil((output.text.length + output.calls.reduce((n, c) => n + c.rawArguments.length, 0)) / 4);
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
	});
}

function withoutReasoning(messages: CanonicalMessage[]): CanonicalMessage[] {
	return messages.map(m =>
		m.kind === 'tool_call' && m.data.reasoning ? { ...m, data: { ...m.data, reasoning: undefined } } : m,
	);
}
