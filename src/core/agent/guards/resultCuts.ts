import type { CanonicalMessage } from '../../llm/canonical';
import type { ToolSpec } from '../../llm/chatModel';
import { tokensForChars } from '../../util/tokens';
import { estimateTokens } from './guards';

/** Below this a result is not what made a request too big: it is left whole. */
const SMALLEST_CUT = 2000;

/** The note that ends a cut result: its length makes it identical in every request that sends it. */
function cutNote(omitted: number, ref: string | undefined): string {
	const more = ref
		? `read any part with read_output {"ref":"${ref}","offset":N}`
		: 'call the tool again on a narrower part (a line range, a pattern, a smaller folder) for the rest';
	return `\n[… ${omitted} characters of this output left out so the request fits the server's context window; ${more}.]\n`;
}

/** The reference a result already carries when its whole text was kept in the output store. */
function storedRef(text: string): string | undefined {
	return /\{"ref":"(out_[\w-]+)"/.exec(text)?.[1] ?? /stored as (out_[\w-]+)/.exec(text)?.[1];
}

/** A result cut to `keep` characters: its start and its end, and how to read the rest. */
export function cutResult(
	message: Extract<CanonicalMessage, { kind: 'tool_result' }>,
	keep: number,
): Extract<CanonicalMessage, { kind: 'tool_result' }> {
	const text = message.content;
	if (text.length <= keep) {
		return message;
	}
	const head = text.slice(0, Math.floor(keep * 0.65));
	const tail = text.slice(text.length - Math.floor(keep * 0.3));
	const cut = head + cutNote(text.length - head.length - tail.length, storedRef(text)) + tail;
	return { kind: 'tool_result', content: cut, data: { ...message.data, output: cut } };
}

/** The history with the results the session already cut sent cut the same way, so requests keep their prefix. */
export function withCuts(messages: CanonicalMessage[], cuts: ReadonlyMap<string, number>): CanonicalMessage[] {
	if (cuts.size === 0) {
		return messages;
	}
	return messages.map(m => {
		const keep = m.kind === 'tool_result' ? cuts.get(m.data.toolCallId) : undefined;
		return m.kind === 'tool_result' && keep !== undefined ? cutResult(m, keep) : m;
	});
}

/**
 * After the server said the request was too long and the old outputs are already compacted:
 * the newest results that are large (a whole log read on a small window) are what made it too
 * big, so they are cut to their start and end, newest first, until the request fits the
 * budget. The history keeps each whole; the model is told how to read the rest.
 */
export function cutNewestResults(
	messages: readonly CanonicalMessage[],
	tools: readonly ToolSpec[],
	budgetTokens: number,
): { messages: CanonicalMessage[]; cuts: Map<string, number>; estimate: number } {
	const out = [...messages];
	const cuts = new Map<string, number>();
	let estimate = estimateTokens(out, tools);
	for (let i = out.length - 1; i >= 0 && estimate > budgetTokens; i--) {
		const message = out[i];
		if (message.kind !== 'tool_result' || message.content.length <= SMALLEST_CUT) {
			continue;
		}
		// What the rest of the request leaves for this result, less room for the note.
		const over = estimate - budgetTokens;
		const keep = Math.max(SMALLEST_CUT, message.content.length - over * 4 - 400);
		const cut = cutResult(message, keep);
		estimate -= tokensForChars(message.content.length - cut.content.length);
		out[i] = cut;
		cuts.set(message.data.toolCallId, keep);
	}
	return { messages: out, cuts, estimate };
}
