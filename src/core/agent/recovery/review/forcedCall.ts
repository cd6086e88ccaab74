import type { ToolChoice, ToolSpec } from '../../../llm/chatModel';
import { fromStrictArguments } from '../../../llm/wires/strictSchemas';
import type { StepOutput } from '../../loop/modelStep';
import { chooseForce, forceKind, type ForcingMemory } from '../forcingMemory';
import type { ChatModel } from '../../../llm/chatModel';
import type { ForcingVerdict } from '../../../llm/forcing';
import type { Shortfall } from './shortfalls';

/**
 * The last rung after Keel's re-asks: one request in which the server holds the model to a call
 * (`tool_choice` "required", or the named tool, with strict schemas). A forced "required" also
 * offers `final_answer`, so a model that meant to answer can, and a server's grammar cannot turn
 * an answer into a stray call. Sent only to a server not known to ignore or refuse it.
 */
export const ANSWER_TOOL = 'final_answer';

const ANSWER_SPEC: ToolSpec = {
	name: ANSWER_TOOL,
	description: 'Give your final answer to the user, when no other tool call is needed.',
	parameters: {
		type: 'object',
		properties: { text: { type: 'string', description: 'The answer, as the user should read it' } },
		required: ['text'],
		additionalProperties: false,
	},
};

/** A forced call fixes the form of a call (a model repeating prose can only write a call); it cannot make a cut call longer. */
const NOT_FORM: ReadonlySet<Shortfall> = new Set(['truncatedCall']);

export interface ForcedStep {
	text: string;
	force: ToolChoice;
}

/** The forced re-ask for this shortfall, or undefined where none may be sent. */
export function forcedStep(
	shortfall: Shortfall,
	detail: string,
	offered: readonly ToolSpec[],
	model: ChatModel,
	memory: ForcingMemory | undefined,
): ForcedStep | undefined {
	if (NOT_FORM.has(shortfall) || offered.length === 0) {
		return undefined;
	}
	const tool = offered.find(spec => detail.includes(spec.name))?.name;
	const force = chooseForce(model, memory, tool);
	if (!force) {
		return undefined;
	}
	const how =
		force.kind === 'named'
			? `call ${force.name} now, with every argument its schema requires.`
			: `call the tool you need now, or ${ANSWER_TOOL} with your answer if the task is done.`;
	return {
		text: `Your last replies still gave the loop nothing to run. In this request the server holds you to a tool call: ${how}`,
		force,
	};
}

/** The tools a forced request offers: "required" adds the way to answer. */
export function forcedTools(tools: readonly ToolSpec[], force: ToolChoice): ToolSpec[] {
	return force.kind === 'required' && !tools.some(t => t.name === ANSWER_TOOL) ? [...tools, ANSWER_SPEC] : [...tools];
}

export interface ForcedOutcome {
	verdict: ForcingVerdict;
	output: StepOutput;
	/** The answer given through `final_answer`, to show as the answer. */
	answer?: string;
}

/**
 * What the server did with the forced request, and the response as the loop reads it: a call of
 * the tool asked for means it was honoured (arguments read back from their strict form), no call
 * means ignored; an answer through `final_answer` becomes the answer's text.
 */
export function judgeForced(output: StepOutput, force: ToolChoice, tools: readonly ToolSpec[]): ForcedOutcome {
	const allowed = (name: string) =>
		force.kind === 'named' ? name === force.name : tools.some(t => t.name === name) || name === ANSWER_TOOL;
	const honoured = output.calls.length > 0 && output.calls.every(call => allowed(call.name));
	if (!honoured) {
		return { verdict: 'ignored', output };
	}
	const answerCall = output.calls.find(call => call.name === ANSWER_TOOL);
	if (answerCall) {
		const answer = readAnswer(answerCall.rawArguments);
		return {
			verdict: 'honoured',
			output: { ...output, text: answer, calls: [], finishReason: 'stop' },
			answer,
		};
	}
	const calls = output.calls.map(call => {
		const spec = tools.find(t => t.name === call.name);
		return spec ? { ...call, rawArguments: fromStrictArguments(call.rawArguments, spec.parameters) } : call;
	});
	return { verdict: 'honoured', output: { ...output, calls } };
}

export { forceKind };

function readAnswer(rawArguments: string): string {
	try {
		const value = JSON.parse(rawArguments) as { text?: unknown };
		return typeof value.text === 'string' ? value.text : '';
	} catch {
		return '';
	}
}
