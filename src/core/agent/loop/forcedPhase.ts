import type { AgentError } from '../../errors';
import type { ToolChoice } from '../../llm/chatModel';
import { forceKind } from '../recovery/forcingMemory';
import { ANSWER_TOOL, judgeForced } from '../recovery/review/forcedCall';
import type { StepOutput } from './modelStep';
import { failTurn, modelName, type TurnContext, type TurnEnd, type TurnState } from './turnState';

/**
 * After the forced request: what the server did is remembered for this server and model (a
 * call: honoured; none: ignored, and never sent there again), and the response is read as the
 * loop reads any: an answer given through `final_answer` is the answer, shown as such.
 */
export function afterForcedRequest(
	state: TurnState,
	ctx: TurnContext,
	force: ToolChoice,
	output: StepOutput,
): StepOutput {
	const judged = judgeForced(output, force, state.offered);
	ctx.options.forcingMemory?.set(ctx.model.id, forceKind(force), judged.verdict);
	if (judged.verdict === 'ignored') {
		ctx.notice(
			'info',
			'forcedCall',
			`The server answered the forced request without ${force.kind === 'named' ? `a call of ${force.name}` : 'a tool call'}: it does not enforce tool_choice for ${modelName(ctx.options.model)}, so Keel will not ask it again.`,
		);
	}
	if (judged.answer !== undefined) {
		const answer = output.calls.find(call => call.name === ANSWER_TOOL);
		if (answer) {
			ctx.options.emit({
				type: 'toolCallUpdated',
				turnId: ctx.turnId,
				call: {
					id: answer.id,
					name: ANSWER_TOOL,
					title: 'Answer',
					argumentsText: answer.rawArguments,
					status: 'succeeded',
					output: 'Given as the answer below.',
				},
			});
		}
		ctx.options.emit({ type: 'textDelta', turnId: ctx.turnId, text: judged.answer });
	}
	return judged.output;
}

/** The server refused the forced request: remembered, never sent there again, and the turn ends as it would have. */
export function forcingRefused(state: TurnState, ctx: TurnContext, force: ToolChoice, error: AgentError): TurnEnd {
	ctx.options.forcingMemory?.set(ctx.model.id, forceKind(force), 'refused');
	return failTurn(
		ctx,
		'noAnswer',
		'modelFormat',
		`The model gave the loop nothing to run after two different corrections, and the server refused a forced tool call (${error.message.slice(0, 200)}); Keel will not ask it for one again. Rephrase the request, or try a larger model.`,
	);
}
