import type { CanonicalMessage } from '../../llm/canonical';
import type { ImagePart } from '../../llm/imageParts';
import type { AgentOptions, TurnOutcome } from './agentOptions';
import { earlyCalls, runCalls } from './callsPhase';
import type { EarlyCalls } from './earlyCalls';
import { accountUsage, planRequest, requestModel, type Planner } from './requestPhase';
import { appendAnswer, REASK, reviewStep } from './reviewPhase';
import { stopAfterCalls, stopWhenAnswered } from './stopPhase';
import { askServer } from '../guards/serverWindow';
import {
	finishTurn,
	isTurnEnd,
	startTurn,
	turnContext,
	type TurnContext,
	type TurnEnd,
	type TurnState,
} from './turnState';

export type { AgentOptions, TurnOutcome } from './agentOptions';

/**
 * One user turn: model → tool calls → approval → execution → results → model, until the
 * model answers without calling a tool, the step cap is hit, the user stops, or it fails.
 * What the turn knows is one `TurnState`; each step is a sequence of phases over it, and any
 * phase may end the turn with a `TurnEnd`.
 */
export async function runTurn(
	options: AgentOptions,
	history: readonly CanonicalMessage[],
	prompt: string,
	turnId: string,
	signal: AbortSignal,
	images?: ImagePart[],
): Promise<TurnOutcome> {
	// What the server runs (its window, how it treats reasoning), asked before anything is planned.
	const ctx = turnContext(options, turnId, signal, await askServer(options.model, signal));
	const state = startTurn(ctx, history, prompt, images);
	const outcome = finishTurn(state, ctx, await runSteps(state, ctx));
	return { ...outcome, settled: Promise.allSettled([...ctx.abandoned]).then(() => undefined) };
}

async function runSteps(state: TurnState, ctx: TurnContext): Promise<TurnEnd> {
	for (;;) {
		const plan = planRequest(state, ctx);
		if (isTurnEnd(plan)) {
			return plan;
		}
		// Reads whose arguments are complete start while the model still streams (earlyCalls.ts).
		const early = earlyCalls(state, ctx);
		try {
			const end = await runStep(state, ctx, plan, early);
			if (end) {
				return end;
			}
		} finally {
			// A response asked again, cut, or ended by a stop: what it started early is not run.
			early?.drop();
		}
	}
}

/** One model request and its calls; undefined when the turn goes on to the next request. */
async function runStep(
	state: TurnState,
	ctx: TurnContext,
	plan: Planner,
	early: EarlyCalls | undefined,
): Promise<TurnEnd | undefined> {
	const response = await requestModel(state, ctx, plan, early);
	if (isTurnEnd(response)) {
		return response;
	}
	accountUsage(state, ctx, response);
	const output = reviewStep(state, ctx, response);
	if (output === REASK) {
		return undefined;
	}
	if (isTurnEnd(output)) {
		return output;
	}
	appendAnswer(state, ctx, output);
	const answered = await stopWhenAnswered(state, ctx, output.calls.length);
	if (answered) {
		return answered;
	}
	await runCalls(state, ctx, output, early?.claim(output.calls));
	return stopAfterCalls(state, ctx, output.calls.length);
}
