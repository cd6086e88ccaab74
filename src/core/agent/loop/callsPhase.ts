import { getMaxListeners, setMaxListeners } from 'events';
import { tryParseJson } from '../../util/json';
import { toolCallMessage, toolResultMessage, type ToolResultData } from '../../llm/canonical';
import type { StepCall, StepOutput } from './modelStep';
import type { ToolRetrySettings } from '../recovery/toolRetry';
import { defaultToolPolicySettings } from '../toolPolicy/toolPolicy';
import { boundedCall, cardArguments } from './callBounds';
import { runAhead, runToolCall, type AheadRun, type ToolRunContext } from './toolExecution';
import { EarlyCalls } from './earlyCalls';
import { appendMessage, type TurnContext, type TurnState } from './turnState';

/**
 * Phase: the step's calls. Every call is recorded before any runs, so an interruption leaves a
 * call without a result that can be answered "interrupted" later, never a result without a
 * call. Then each runs (validate → policy → approval → execute), reads that need no approval
 * beside each other, and its result, seen by the guards first, joins the history in call order.
 */
export async function runCalls(
	state: TurnState,
	ctx: TurnContext,
	output: StepOutput,
	started: ReadonlyMap<number, AheadRun> = new Map(),
): Promise<void> {
	// A call past the argument bound is recorded with a stand-in and answered with its size (callBounds.ts).
	const calls = output.calls.map(boundedCall);
	calls.forEach((call, i) => {
		// The model's reasoning rides on the first call, where a server that wants it back looks for it.
		const reasoning =
			i === 0 && output.reasoningField && output.reasoning
				? { text: output.reasoning, field: output.reasoningField }
				: undefined;
		appendMessage(
			state,
			ctx,
			toolCallMessage({
				id: call.id,
				name: call.name,
				rawArguments: call.rawArguments,
				arguments: tryParseJson(call.rawArguments),
				...(reasoning ? { reasoning } : {}),
			}),
		);
	});
	// Consecutive reads that need no approval run together, up to keel.agent.parallelReads at once;
	// a call that is not one of them starts only when every call before it has its result.
	// The calls that started while the response streamed (earlyCalls.ts) are the first of them.
	const ahead = new Map<number, AheadRun | undefined>(started);
	const limit = parallelLimit(ctx);
	// Each running call listens for Stop (its race, its waits, its retry): a step's worth is no leak.
	if (getMaxListeners(ctx.signal) < 10 + 4 * limit) {
		setMaxListeners(10 + 4 * limit, ctx.signal);
	}
	for (let i = 0; i < calls.length; i++) {
		for (let j = i; j < Math.min(calls.length, i + limit) && limit > 1; j++) {
			if (!ahead.has(j)) {
				ahead.set(j, runAhead(calls[j], runContext(ctx)));
			}
			if (!ahead.get(j)) {
				break; // this one waits its turn, and so does everything after it
			}
		}
		const result = await runCall(state, ctx, calls[i], ahead.get(i));
		await ahead.get(i)?.settled;
		// Results join the history in call order, so the next request is the one sequential calls would make.
		appendMessage(state, ctx, toolResultMessage(state.guards.afterTool(calls[i], result, state.offered)));
	}
}

/** keel.agent.parallelReads when the caller does not say. */
export const DEFAULT_PARALLEL_READS = 8;

function parallelLimit(ctx: TurnContext): number {
	return Math.max(1, Math.floor(ctx.options.parallelReads ?? DEFAULT_PARALLEL_READS));
}

/**
 * What starts this request's reads while it streams: native calls only (a call written as text
 * is found once the text is complete), and not when the caller turned it off.
 */
export function earlyCalls(state: TurnState, ctx: TurnContext): EarlyCalls | undefined {
	if (ctx.options.startCallsEarly === false || state.mode.mode !== 'native') {
		return undefined;
	}
	return new EarlyCalls(runContext(ctx), parallelLimit(ctx), () => state.offered);
}

async function runCall(state: TurnState, ctx: TurnContext, call: StepCall, ahead?: AheadRun): Promise<ToolResultData> {
	const { options, turnId } = ctx;
	const refused = state.guards.refuseRetry(call, options.registry);
	if (refused) {
		options.emit({
			type: 'toolCallUpdated',
			turnId,
			call: {
				id: call.id,
				name: call.name,
				title: call.name,
				argumentsText: cardArguments(call.rawArguments),
				status: 'failed',
				output: refused.output,
			},
		});
		return refused;
	}
	return runToolCall(call, runContext(ctx), ahead);
}

function runContext(ctx: TurnContext): ToolRunContext {
	const { options, signal, turnId } = ctx;
	return { ...options, turnId, signal, clock: ctx.clock, retry: toolRetry(ctx), abandoned: ctx.abandoned };
}

/**
 * Reads and fetches that fail for a passing reason run again inside runToolCall (toolRetry.ts),
 * the only place a tool is retried; the session's tool policy says how often. The naive loop
 * (recovery off) runs every call once.
 */
function toolRetry(ctx: TurnContext): ToolRetrySettings | undefined {
	if (!ctx.settings.enabled) {
		return undefined;
	}
	const { infraRetries, infraRetryDelayMs } = ctx.toolState?.settings ?? defaultToolPolicySettings;
	return { retries: infraRetries, delayMs: infraRetryDelayMs };
}
