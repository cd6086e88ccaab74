import type { HostUpdate } from '../../shared/protocol';
import type { ToolCallView } from '../../shared/views';

/** One page of "Show unfiltered": large enough for a test log, small enough for one message. */
export const RAW_PAGE_CHARS = 64_000;

type RawOutputUpdate = Extract<HostUpdate, { type: 'didRawOutput' }>;

/**
 * The answer to the webview's `readRawOutput`: a page of the card's unfiltered output from
 * the session's output store (the one read_output pages). The webview names a card, never a
 * reference, so it can only read what a card of this session points at.
 */
export async function rawOutputPage(
	call: Pick<ToolCallView, 'id' | 'rawOutputRef'> | undefined,
	toolCallId: string,
	offset: number,
	read: (ref: string) => Promise<string | undefined>,
): Promise<RawOutputUpdate> {
	const empty = { type: 'didRawOutput', toolCallId, offset, text: '', total: 0 } as const;
	if (!call?.rawOutputRef) {
		return { ...empty, error: 'This card has no stored unfiltered output.' };
	}
	let text: string | undefined;
	try {
		text = await read(call.rawOutputRef);
	} catch (error) {
		return { ...empty, error: `Could not read the unfiltered output: ${(error as Error).message}` };
	}
	if (text === undefined) {
		return { ...empty, error: 'The unfiltered output is no longer stored (older outputs are dropped first).' };
	}
	const start = Math.min(offset, text.length);
	let end = Math.min(text.length, start + RAW_PAGE_CHARS);
	if (end < text.length) {
		// End on a line break when one is near, so a page never splits a line.
		const lineEnd = text.lastIndexOf('\n', end);
		end = lineEnd > start + RAW_PAGE_CHARS / 2 ? lineEnd + 1 : end;
	}
	return {
		type: 'didRawOutput',
		toolCallId,
		offset: start,
		text: text.slice(start, end),
		total: text.length,
		...(end < text.length ? { nextOffset: end } : {}),
	};
}
