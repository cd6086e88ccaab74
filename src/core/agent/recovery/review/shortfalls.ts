import type { ToolSpec } from '../../../llm/chatModel';
import { exampleArguments } from './textMode';

/** Why a response gave the loop nothing to do: each is re-asked with a correction, then once more differently. */
export type Shortfall =
	| 'empty'
	| 'reasoningOnly'
	/** The reasoning ran past keel.model.reasoningBudget with no answer or call, and was stopped (detail: the bound). */
	| 'reasoningRunaway'
	| 'callInReasoning'
	| 'toolCallsWithoutCalls'
	| 'truncatedCall'
	| 'degenerate'
	| 'unofferedCall'
	/** A call written as text to an offered tool that cannot run as written (cut off, empty, invalid). */
	| 'textCallProblem'
	/** The reply announced its next action ("Now let me read it:") and stopped, with no call. */
	| 'announcedAction'
	/** A call with no arguments to a tool that needs some. */
	| 'emptyArguments';

/** The correction sent with the first re-ask; precise, so the model knows what to change. */
export function nudgeText(shortfall: Shortfall, detail = ''): string {
	switch (shortfall) {
		case 'empty':
			return 'Your last reply was empty: no text and no tool call, so nothing happened. Continue the task now: call one of the offered tools, or write your answer for the user.';
		case 'reasoningOnly':
			return 'Your last reply contained only reasoning and no answer or tool call, so the user saw nothing. Do not stop after thinking: call a tool as a real tool call, or write the answer for the user.';
		case 'reasoningRunaway':
			return 'Your reasoning ran past its budget without an answer or a tool call, so it was stopped. Do not think any further: write your answer for the user now, or make the one tool call that comes next.';
		case 'callInReasoning':
			return 'You wrote a tool call inside your reasoning. Calls there are never run. Issue it now as a real tool call (the tool-calling format, with its arguments as a JSON object).';
		case 'toolCallsWithoutCalls':
			return 'Your last reply said it was calling a tool (finish_reason "tool_calls") but no tool call arrived: the server probably dropped a call it could not parse, and nothing ran. Call the tool again with its arguments as one valid JSON object.';
		case 'truncatedCall':
			return `Your ${detail || 'tool'} call was cut off by the output token limit before its arguments were complete, so it could not be parsed and did not run. Call it again with shorter arguments (for a large file, write it in smaller parts).`;
		case 'degenerate':
			return 'Your last reply kept repeating the same words, so it was stopped. Do not repeat yourself: give a short answer, or call a tool.';
		case 'unofferedCall':
			return `You called "${detail}", which is not one of the offered tools, so it could not be parsed as a call and nothing ran. Use only the offered tools, as real tool calls.`;
		case 'textCallProblem':
			return `Your ${detail}, so nothing ran. Call it again as a real tool call with complete arguments as one JSON object matching its schema.`;
		case 'announcedAction':
			return `Your last reply said what you would do next ("${detail}") but contained no tool call, so nothing ran. Make that call now as a real tool call; if the task is done, write the final answer instead.`;
		case 'emptyArguments':
			return `Your ${detail} call had no arguments, so nothing ran. Call it again with the arguments its schema requires.`;
	}
}

/** What the user reads in the chat when the re-ask happens, and when the attempts fail too. */
export function shortfallLabel(shortfall: Shortfall, detail = ''): string {
	switch (shortfall) {
		case 'empty':
			return 'The model sent an empty answer (no text, no tool call)';
		case 'reasoningOnly':
			return 'The model only reasoned and gave no answer or tool call';
		case 'reasoningRunaway':
			return `The model reasoned past ${detail ? `${Number(detail).toLocaleString('en-US')} tokens` : 'its budget'} (keel.model.reasoningBudget) without answering or calling a tool; the reasoning was stopped`;
		case 'callInReasoning':
			return 'The model wrote its tool call inside its reasoning, where it cannot run';
		case 'toolCallsWithoutCalls':
			return 'The server announced a tool call but sent none (it probably dropped a call it could not parse)';
		case 'truncatedCall':
			return `The ${detail || 'tool'} call was cut off by the output token limit; it did not run`;
		case 'degenerate':
			return 'The model started repeating itself; the answer was stopped';
		case 'unofferedCall':
			return `The model called "${detail}", which is not an offered tool`;
		case 'textCallProblem':
			return `The model's ${detail}; it did not run`;
		case 'announcedAction':
			return `The model said what it would do next ("${detail}") but made no call`;
		case 'emptyArguments':
			return `The model called ${detail} without its arguments; it did not run`;
	}
}

/** The second, different re-ask: what is sent, and whether that step goes without native tools. */
export interface Escalation {
	text: string;
	/** Ask for the call as text this once: a server that drops or cuts native calls cannot touch it. */
	textMode: boolean;
	avoidRepetition: boolean;
	/** Ask for the answer without thinking, where the server has a switch for it. */
	noThinking?: boolean;
}

/**
 * After a correction did not help, a different remedy: the exact form expected, with an example
 * built from the schema of the tool concerned, asked for as text in this one step (a server
 * that dropped or mangled the native call has nothing to parse); for repetition, stronger
 * sampling and a limit on length.
 */
export function escalation(shortfall: Shortfall, detail: string, offered: readonly ToolSpec[]): Escalation {
	if (shortfall === 'degenerate') {
		return {
			text: 'Your last reply kept repeating itself again, so it was stopped. Reply now in at most three short sentences, each different, or with one tool call.',
			textMode: false,
			avoidRepetition: true,
		};
	}
	const tool = toolMeant(detail, offered);
	const example = tool
		? `<tool_call>${JSON.stringify({ name: tool.name, arguments: exampleArguments(tool.parameters) })}</tool_call>`
		: '';
	const runaway = shortfall === 'reasoningRunaway';
	const answerOrCall =
		shortfall === 'empty' || shortfall === 'reasoningOnly' || shortfall === 'announcedAction' || runaway;
	return {
		...(runaway ? { noThinking: true } : {}),
		text: [
			`${shortfallLabel(shortfall, detail)}, again after a correction, so nothing ran.`,
			runaway ? 'Do not think before replying.' : '',
			answerOrCall
				? 'Reply now with either your final answer as plain text, or exactly one tool call written as text in this form and nothing after it:'
				: 'Reply now with exactly one tool call written as text in this form, with every required argument filled in, and nothing after it:',
			example,
		]
			.filter(Boolean)
			.join('\n'),
		textMode: !!tool,
		avoidRepetition: false,
	};
}

/** The offered tool a shortfall is about: named in its detail, or sharing the most words with it ("read the note" → read_file). */
function toolMeant(detail: string, offered: readonly ToolSpec[]): ToolSpec | undefined {
	const named = offered.find(t => detail.includes(t.name));
	if (named || offered.length === 0) {
		return named ?? offered[0];
	}
	const words = new Set(detail.toLowerCase().match(/[a-z]{3,}/g) ?? []);
	const score = (t: ToolSpec) =>
		t.name
			.toLowerCase()
			.split(/[_\-.]/)
			.filter(w => words.has(w)).length;
	return offered.reduce((best, t) => (score(t) > score(best) ? t : best), offered[0]);
}
