import type { CanonicalMessage } from '../../llm/canonical';
import type { ToolSpec } from '../../llm/chatModel';
import { tokensForChars } from '../../util/tokens';
import { estimateTokens } from './guards';
import { newOutputRef, type OutputStore } from '../../tools/outputStore';

/** How a result was sent in part: the characters kept, and where its whole text is (read_output's reference). */
export interface Cut {
	keep: number;
	ref?: string;
}

/** Keeps a text whole for read_output and returns its reference; the model is told the reference in the same request. */
export type KeepWhole = (text: string) => string;

/**
 * Keeping whole in `outputs`, under the session: the reference is made here so the cut note can
 * name it at once; both stores write before their promise settles (a map, a synchronous SQLite
 * insert), so a read_output the model makes after this request finds it.
 */
export function keepWhole(outputs: OutputStore, sessionId: string | undefined): KeepWhole {
	return text => {
		const ref = newOutputRef();
		void outputs.put(sessionId ?? '', text, ref).catch(() => undefined);
		return ref;
	};
}

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
	ref?: string,
): Extract<CanonicalMessage, { kind: 'tool_result' }> {
	const text = message.content;
	if (text.length <= keep) {
		return message;
	}
	const head = text.slice(0, Math.floor(keep * 0.65));
	const tail = text.slice(text.length - Math.floor(keep * 0.3));
	const cut = head + cutNote(text.length - head.length - tail.length, storedRef(text) ?? ref) + tail;
	return { kind: 'tool_result', content: cut, data: { ...message.data, output: cut } };
}

/** The history with the results the session already cut sent cut the same way, so requests keep their prefix. */
export function withCuts(messages: CanonicalMessage[], cuts: ReadonlyMap<string, Cut>): CanonicalMessage[] {
	if (cuts.size === 0) {
		return messages;
	}
	return messages.map(m => {
		const cut = m.kind === 'tool_result' ? cuts.get(m.data.toolCallId) : undefined;
		return m.kind === 'tool_result' && cut !== undefined ? cutResult(m, cut.keep, cut.ref) : m;
	});
}

/**
 * After the server said the request was too long and the old outputs are already compacted:
 * the newest results that are large (a whole log read on a small window) are what made it too
 * big, so they are cut to their start and end, newest first, until the request fits the
 * budget. The history keeps each whole, and so does the output store (`keep`) for a result
 * that was not in it yet: the model is told the reference to page the rest with read_output.
 */
export function cutNewestResults(
	messages: readonly CanonicalMessage[],
	tools: readonly ToolSpec[],
	budgetTokens: number,
	keep?: KeepWhole,
): { messages: CanonicalMessage[]; cuts: Map<string, Cut>; estimate: number } {
	const out = [...messages];
	const cuts = new Map<string, Cut>();
	let estimate = estimateTokens(out, tools);
	for (let i = out.length - 1; i >= 0 && estimate > budgetTokens; i--) {
		const message = out[i];
		if (message.kind !== 'tool_result' || message.content.length <= SMALLEST_CUT) {
			continue;
		}
		// What the rest of the request leaves for this result, less room for the note.
		const over = estimate - budgetTokens;
		const kept = Math.max(SMALLEST_CUT, message.content.length - over * 4 - 400);
		const ref = storedRef(message.content) ?? keep?.(message.content);
		const cut = cutResult(message, kept, ref);
		estimate -= tokensForChars(message.content.length - cut.content.length);
		out[i] = cut;
		cuts.set(message.data.toolCallId, { keep: kept, ...(ref ? { ref } : {}) });
	}
	return { messages: out, cuts, estimate };
}
