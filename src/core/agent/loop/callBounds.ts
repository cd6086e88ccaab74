/**
 * Bounds on what a model's call can make large. A call's arguments are text the model writes;
 * a runaway stream can make them tens of megabytes. Past MAX_ARGUMENT_CHARS a call is not parsed
 * or run: the model is told the size and how to split the work, and the history keeps a stand-in
 * so the next request is not that size too. A card shows the start of the arguments only.
 */

/** The most argument text one call may carry (a file of a few megabytes fits). */
export const MAX_ARGUMENT_CHARS = 8 * 1024 * 1024;
/** What a card shows of a call's arguments. */
export const CARD_ARGUMENT_CHARS = 16 * 1024;

/**
 * The most text one answer (and its reasoning) may carry. Past it the stream is closed and the
 * answer ends with a notice: a runaway answer would otherwise grow the chat, the history and
 * every later request by its whole size.
 */
export const MAX_ANSWER_CHARS = 2 * 1024 * 1024;

/** What ends an answer stopped at the bound, in the chat and in the history. */
export function oversizedAnswerNotice(): string {
	return `\n\n[Keel stopped this answer at ${megabytes(MAX_ANSWER_CHARS)}, the most one answer may hold. Ask for the rest in parts, or have it written to a file.]`;
}

/** The stand-in an oversized call's arguments become: JSON that says how long they were, in the history too. */
const STAND_IN = '{"keel_arguments_dropped_characters":';

/** The call as it is recorded, reviewed and run: arguments past the bound replaced by a stand-in saying their length. */
export function boundedCall<T extends { rawArguments: string }>(call: T): T {
	if (call.rawArguments.length <= MAX_ARGUMENT_CHARS) {
		return call;
	}
	return { ...call, rawArguments: `${STAND_IN}${call.rawArguments.length}}` };
}

/** How long an oversized call's arguments were, or undefined for a call within the bound. */
export function droppedArgumentChars(rawArguments: string): number | undefined {
	if (!rawArguments.startsWith(STAND_IN) || !rawArguments.endsWith('}')) {
		return undefined;
	}
	const chars = Number(rawArguments.slice(STAND_IN.length, -1));
	return Number.isInteger(chars) ? chars : undefined;
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
