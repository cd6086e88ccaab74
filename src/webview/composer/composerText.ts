// What the composer reads in its own text: the completion being typed and the mentions typed out.
// Plain functions (no DOM), shared by the composer's parts and their tests.

export interface CompletionTrigger {
	kind: 'slash' | 'mention';
	query: string;
	/** Where the `/` or `@` is: picking replaces from there to the caret. */
	start: number;
}

/** A `/command` at the start of the box, or an `@mention` being typed at the caret. */
export function completionTrigger(text: string, caret: number): CompletionTrigger | undefined {
	const before = text.slice(0, caret);
	const slash = /^\/(\S*)$/.exec(before);
	if (slash) {
		return { kind: 'slash', query: slash[1], start: 0 };
	}
	const mention = /(^|\s)@(\S*)$/.exec(before);
	if (mention) {
		return { kind: 'mention', query: mention[2], start: before.length - mention[2].length - 1 };
	}
	return undefined;
}

/** The mentions of the box's text that are typed out (a space follows), as the host will read them. */
export function completeMentions(text: string): Array<{ token: string; value: string }> {
	const found: Array<{ token: string; value: string }> = [];
	for (const match of text.matchAll(/(^|\s)(@(\S+))(?=\s)/g)) {
		const value = match[3].replace(/[),.;:!?]+$/, '');
		if (value && !found.some(f => f.value === value)) {
			found.push({ token: match[2], value });
		}
	}
	return found;
}
