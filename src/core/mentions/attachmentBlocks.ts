/**
 * A prompt as the model gets it ends in the blocks Keel attached (promptWithAttachments: an
 * @-mention's file, the selection, Problems …; selectionPrompt: "Ask About Selection"). The chat
 * shows the user's own words with a chip per block, not the files in raw fences; this reads the
 * blocks back from the prompt, so a live turn and a stored one show the same.
 */
export interface AttachmentChip {
	kind: string;
	/** What the block names: a path, `selection`, a URL. */
	label: string;
	/** "120 tokens", "lines 3–9". */
	detail: string;
}

const MENTION_HEADER =
	/^Attached (file|folder|selection|problems|terminal|url) (.+) \((\d+ tokens(?:, shortened)?)\):$/;
const SELECTION_HEADER = /^From (.+), lines (\d+–\d+):$/;

/** The typed text and the chips of the blocks it ends with; a prompt without blocks comes back whole. */
export function splitAttachments(prompt: string): { text: string; attachments: AttachmentChip[] } {
	const lines = prompt.split('\n');
	// Each block starts after a blank line; try the earliest start whose remainder is only blocks.
	for (let start = 1; start < lines.length; start++) {
		if (lines[start - 1] !== '' || !isHeader(lines[start])) {
			continue;
		}
		const attachments = readBlocks(lines, start);
		if (attachments) {
			return { text: lines.slice(0, start - 1).join('\n'), attachments };
		}
	}
	return { text: prompt, attachments: [] };
}

function isHeader(line: string): boolean {
	return MENTION_HEADER.test(line) || SELECTION_HEADER.test(line);
}

/** The blocks from `start` to the end, or undefined when anything else is in between. */
function readBlocks(lines: string[], start: number): AttachmentChip[] | undefined {
	const chips: AttachmentChip[] = [];
	let at = start;
	while (at < lines.length) {
		const chip = chipOf(lines[at]);
		const fence = /^(`{3,})/.exec(lines[at + 1] ?? '')?.[1];
		if (!chip || !fence) {
			return undefined;
		}
		// The block closes at the first line that is exactly its fence (the fence is longer than any run inside).
		const close = lines.indexOf(fence, at + 2);
		if (close < 0) {
			return undefined;
		}
		chips.push(chip);
		at = close + 1;
		if (at < lines.length) {
			if (lines[at] !== '') {
				return undefined;
			}
			at++;
		}
	}
	return chips.length ? chips : undefined;
}

function chipOf(line: string): AttachmentChip | undefined {
	const mention = MENTION_HEADER.exec(line);
	if (mention) {
		return { kind: mention[1], label: mention[2], detail: mention[3] };
	}
	const selection = SELECTION_HEADER.exec(line);
	return selection ? { kind: 'selection', label: selection[1], detail: `lines ${selection[2]}` } : undefined;
}
