// Replies that stop where work should start: an announced next step with no call, a call with
// no arguments, and a call followed by an output the model made up before seeing the real one.

import { text, type DataStep } from '../modelDouble';
import type { StepView } from './stepView';

export const STOP_CLASSES = ['announcedAction', 'emptyArguments', 'inventedOutput'] as const;
export type StopClass = (typeof STOP_CLASSES)[number];

/** What the made-up output says, so a check can prove it never reached the answer. */
export const INVENTED = 'INVENTED-RESULT';

const OPENERS = ['Now', 'OK,', 'Next,', 'Alright,', 'First,', ''];
const INTENTS = ['let me', "I'll", 'I will', "I'm going to", 'I need to'];
const VERBS: Record<string, string[]> = {
	list_directory: ['list', 'look at', 'check'],
	read_file: ['read', 'open', 'look at'],
	write_file: ['write', 'create', 'save'],
};
const OBJECTS: Record<string, string[]> = {
	list_directory: ['the notes folder', 'what is in notes', 'the folder'],
	read_file: ['the note', 'that file', 'it'],
	write_file: ['the upper-case copy', 'the output file', 'it'],
};

export function stopFault(fault: StopClass, v: StepView): DataStep {
	const good = v.good(v.phase);
	if (v.phase === 3 || v.corrected) {
		return good;
	}
	const variant = v.s.variant;
	switch (fault) {
		case 'announcedAction': {
			const pick = <T>(list: T[], salt: number) => list[(variant * 7 + v.s.id + salt) % list.length];
			const sentence =
				`${pick(OPENERS, 1)} ${pick(INTENTS, 2)} ${pick(VERBS[v.name], 3)} ${pick(OBJECTS[v.name], 4)}`.trim();
			return text(`${sentence[0].toUpperCase()}${sentence.slice(1)}${variant % 2 ? ':' : '.'}`);
		}
		case 'emptyArguments':
			// Odd variants: the server's tool parser lost the arguments (a text call keeps them);
			// even ones: the model itself wrote none, in whatever form it is asked for.
			if (v.conv.textMode) {
				return variant % 2 ? good : text(`<tool_call>{"name": "${v.name}", "arguments": {}}</tool_call>`);
			}
			return good.kind === 'reply'
				? { ...good, toolCalls: good.toolCalls?.map(call => ({ ...call, arguments: variant % 2 ? '' : '{}' })) }
				: good;
		case 'inventedOutput':
			return invented(v, good, variant);
	}
}

/** The call, then what the model imagines it returned, in the same reply. */
function invented(v: StepView, good: DataStep, variant: number): DataStep {
	const made = `The result is ${INVENTED}, so the task is done.`;
	const call = JSON.stringify({ name: v.name, arguments: v.args });
	switch (variant % 3) {
		case 0:
			return good.kind === 'reply' && good.toolCalls?.length ? { ...good, textAfter: `\n${made}` } : good;
		case 1:
			return text(`<tool_call>${call}</tool_call>\n<tool_response>\n${INVENTED}\n</tool_response>\n${made}`);
		default:
			return text(
				`${v.name}(${Object.entries(v.args)
					.map(([k, x]) => `${k}=${JSON.stringify(x)}`)
					.join(', ')})\nOutput: ${INVENTED}\n${made}`,
			);
	}
}
