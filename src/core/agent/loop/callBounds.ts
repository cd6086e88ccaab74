/**
 * Bounds on what a model's call can make large. A call's arguments are text the model writes;
 * a runaway stream can make them tens of megabytes. Past MAX_ARGUMENT_CHARS a call is not parsed
 * or run: the model is told the size and how to split the work, and the history keeps a stand-in
 * so the next request is not that size too. A card shows the start of the arguments only.
 */
import type { StepCall } from './modelStep';

/** The most argument text one call may carry (a file of a few megabytes fits). */
export const MAX_ARGUMENT_CHARS = 8 * 1024 * 1024;
/** What a card shows of a call's arguments. */
export const CARD_ARGUMENT_CHARS = 16 * 1024;

/** A call whose arguments were past the bound: its stand-in, and how long they were. */
export interface BoundedCall extends StepCall {
	oversizedChars?: number;
}

/** The call as it is recorded and run: oversized arguments replaced by `{}`, their length kept. */
export function boundedCall(call: StepCall): BoundedCall {
	if (call.rawArguments.length <= MAX_ARGUMENT_CHARS) {
		return call;
	}
	return { ...call, rawArguments: '{}', oversizedChars: call.rawArguments.length };
}

/** What the model is told about an oversized call. */
export function oversizedMessage(chars: number): string {
	return `The arguments of this call were ${megabytes(chars)}; Keel takes at most ${megabytes(MAX_ARGUMENT_CHARS)} per call, so it was not run. Split the work: write a large file in parts (write_file with the first part, then edit_file to add each next part after the last line), or produce it with a command.`;
}

/** The arguments as a card shows them: the start, and how much more there is. */
export function cardArguments(text: string): string {
	if (text.length <= CARD_ARGUMENT_CHARS) {
		return text;
	}
	return `${text.slice(0, CARD_ARGUMENT_CHARS)}\n… ${(text.length - CARD_ARGUMENT_CHARS).toLocaleString('en-US')} more characters`;
}

function megabytes(chars: number): string {
	return `${(chars / (1024 * 1024)).toFixed(1)} MB`;
}
