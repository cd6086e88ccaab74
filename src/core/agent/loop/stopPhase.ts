import { AgentError } from '../../errors';
import { askToContinue } from '../guards/continueGate';
import { planMessages, sendRequest } from './requestPhase';
import {
	loopDetected,
	noToolCalls,
	stepCountIs,
	wasCancelled,
	type StepInfo,
	type StopCondition,
} from '../guards/stopConditions';
import { appendMessage, endTurn, failTurn, type TurnContext, type TurnEnd, type TurnState } from './turnState';

/** A stop condition and what it means; `then` may still let the turn go on (Continue at the step cap). */
interface Stop {
	when: StopCondition;
	then(state: TurnState, ctx: TurnContext): TurnEnd | undefined | Promise<TurnEnd | undefined>;
}

/** Checked once the answer is in, before any call runs. */
const afterAnswer: readonly Stop[] = [
	{ when: noToolCalls(), then: (_state, ctx) => endTurn(ctx.signal.aborted ? 'cancelled' : 'completed') },
];

/** Checked in this order once the step's calls have run; the first that holds decides. */
function afterCalls(ctx: TurnContext): readonly Stop[] {
	return [
		{ when: wasCancelled(), then: () => endTurn('cancelled') },
		{ when: loopDetected(), then: atLoop },
		{ when: stepCountIs(ctx.options.maxSteps), then: atStepCap },
	];
}

export function stepInfo(state: TurnState, ctx: TurnContext, toolCalls: number): StepInfo {
	return {
		step: state.step,
		stepsSinceContinue: state.stepsSinceContinue,
		toolCalls,
		aborted: ctx.signal.aborted,
		loopStopped: state.guards.loopStopped,
	};
}

async function firstStop(
	stops: readonly Stop[],
	info: StepInfo,
	state: TurnState,
	ctx: TurnContext,
): Promise<TurnEnd | undefined> {
	const stop = stops.find(s => s.when(info));
	return stop?.then(state, ctx);
}

/** Phase: the answer has no calls, so the turn is done. */
export function stopWhenAnswered(state: TurnState, ctx: TurnContext, toolCalls: number): Promise<TurnEnd | undefined> {
	return firstStop(afterAnswer, stepInfo(state, ctx, toolCalls), state, ctx);
}

/** Phase: after the calls, the guards: Stop pressed, a doom loop, the step cap. */
export function stopAfterCalls(state: TurnState, ctx: TurnContext, toolCalls: number): Promise<TurnEnd | undefined> {
	state.stepsSinceContinue++;
	return firstStop(afterCalls(ctx), stepInfo(state, ctx, toolCalls), state, ctx);
}

/**
 * The step cap: the user is asked Continue or Stop. Continue starts a new batch of steps and
 * tells the model, in the next request, to finish soon. With nobody to ask, the model gets one
 * last request without tools to say where it got to; a user's Stop sends nothing more.
 */
async function atStepCap(state: TurnState, ctx: TurnContext): Promise<TurnEnd | undefined> {
	const { options, signal } = ctx;
	const step = state.step;
	const text = `Keel has made ${step} model requests in this turn (keel.agent.maxSteps = ${options.maxSteps}) without a final answer. Continue?`;
	const proceed = await ask(ctx, `${ctx.turnId}-continue-${step}`, text);
	if (!proceed || signal.aborted) {
		const message = `Stopped after ${step} model steps (keel.agent.maxSteps) without a final answer. Send a message to continue, or raise the limit.`;
		// The answered question already reads "Stopped"; the notice is for when nobody could answer it.
		if (!options.continueDecider) {
			ctx.notice('warning', 'stepLimit', message);
		}
		if (signal.aborted) {
			return endTurn('cancelled');
		}
		if (ctx.settings.enabled && !options.continueDecider) {
			await wrapUp(state, ctx);
		}
		return endTurn('stepLimit', new AgentError('stepLimit', message));
	}
	state.stepsSinceContinue = 0;
	if (ctx.settings.enabled) {
		state.nudge = {
			text: `[Keel: the step limit was reached (${step} model requests in this turn); the user let you continue for up to ${options.maxSteps} more. Finish the task or give your answer soon.]`,
		};
	}
	return undefined;
}

/**
 * A doom loop the model did not leave after a warning: like the step cap, the user decides.
 * Continue turns the loop guard off for the rest of this turn (the step cap still bounds it);
 * Stop ends the turn as the user's stop. With nobody to ask, the turn fails with the reason.
 */
async function atLoop(state: TurnState, ctx: TurnContext): Promise<TurnEnd | undefined> {
	const description = state.guards.loopDescription;
	if (!ctx.options.continueDecider) {
		return failTurn(
			ctx,
			'loopStopped',
			'loopDetected',
			`Stopped: ${description}. The model did not change approach after a warning.`,
		);
	}
	const text = `The model is repeating itself (${description}) and did not change approach after a warning. Continue anyway (the loop check stays off for the rest of this turn)?`;
	const proceed = await ask(ctx, `${ctx.turnId}-loop-${state.step}`, text);
	if (!proceed || ctx.signal.aborted) {
		return endTurn('cancelled');
	}
	state.guards.relaxLoopGuard();
	if (ctx.settings.enabled) {
		state.nudge = {
			text: `[Keel: you repeated a call with the same result (${description}); the user let you go on. Use what those results said, and try something different or give your answer.]`,
		};
	}
	return undefined;
}

/** Continue or Stop, in the chat (and a notification when the chat is hidden); no answer is Stop. */
async function ask(ctx: TurnContext, id: string, text: string): Promise<boolean> {
	const { options, turnId, signal } = ctx;
	options.emit({ type: 'continueRequested', turnId, id, text });
	const proceed = await askToContinue(options.continueDecider, { id, text }, signal);
	options.emit({ type: 'continueDecided', turnId, id, proceed });
	return proceed;
}

async function wrapUp(state: TurnState, ctx: TurnContext): Promise<void> {
	const step = state.step;
	// The same tools as every other request (a request without them would be read again from
	// the start); the note says none will run, and any call in the answer is ignored.
	appendMessage(state, ctx, { kind: 'system', content: stepLimitNote(step) });
	const wrapUp = await sendRequest(state, ctx, step + 1, (squeeze, fitTo) =>
		planMessages(state, ctx, squeeze, undefined, fitTo),
	);
	if (wrapUp.ok && wrapUp.output.text.trim()) {
		appendMessage(state, ctx, { kind: 'assistant', content: wrapUp.output.text });
	}
}

function stepLimitNote(steps: number): string {
	return `[Keel: the step limit was reached (${steps} model requests in this turn); no more tools will run now. In a few sentences, tell the user what you did, what is left, and what to ask you next.]`;
}
