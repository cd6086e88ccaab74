import { tryParseJson } from '../../util/json';
import { toolCallMessage, toolResultMessage, type ToolResultData } from '../../llm/canonical';
import type { StepCall, StepOutput } from './modelStep';
import type { ToolRetrySettings } from '../recovery/toolRetry';
import { defaultToolPolicySettings } from '../toolPolicy/toolPolicy';
import { boundedCall, cardArguments } from './callBounds';
import { runToolCall } from './toolExecution';
import { appendMessage, type TurnContext, type TurnState } from './turnState';

/**
 * Phase: the step's calls. Every call is recorded before any runs, so an interruption leaves a
 * call without a result that can be answered "interrupted" later, never a result without a
 * call. Then each runs in order (validate → policy → approval → execute), and its result,
 * seen by the guards first, joins the history.
 */
export async function runCalls(state: TurnState, ctx: TurnContext, output: StepOutput): Promise<void> {
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
	for (const call of calls) {
		const result = await runCall(state, ctx, call);
		appendMessage(state, ctx, toolResultMessage(state.guards.afterTool(call, result, state.offered)));
	}
}

async function runCall(state: TurnState, ctx: TurnContext, call: StepCall): Promise<ToolResultData> {
	const { options, signal, turnId } = ctx;
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
	return runToolCall(call, {
		...options,
		turnId,
		signal,
		clock: ctx.clock,
		retry: toolRetry(ctx),
		abandoned: ctx.abandoned,
	});
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
