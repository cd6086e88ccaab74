/**
 * Terminal escape sequences, read by a scanner that looks at each character a bounded number of
 * times: a regular expression for them backtracks on a line of unterminated `ESC ]` (each try
 * runs to the end), which a command or an MCP server can print. CSI (`ESC [` parameters,
 * intermediates, a final byte), OSC (`ESC ]` up to BEL or `ESC \`) and two-byte sequences
 * (`ESC` and one of `@`–`Z`, `\`, `]`, `^`, `_`).
 */

/** The length of the escape sequence at `at` (an ESC), or 0 when none starts there. */
export function escapeSequenceLength(text: string, at: number): number {
	const next = text[at + 1];
	if (next === '[') {
		let i = at + 2;
		while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
		while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
		if (i < text.length && text.charCodeAt(i) >= 0x40 && text.charCodeAt(i) <= 0x7e) return i + 1 - at;
	}
	if (next === ']') {
		// The body stops at the first BEL or ESC; only BEL or ESC \ close it.
		let i = at + 2;
		while (i < text.length && text.charCodeAt(i) !== 7 && text.charCodeAt(i) !== 27) i++;
		if (text[i] === '\x07') return i + 1 - at;
		if (text[i] === '\x1b' && text[i + 1] === '\\') return i + 2 - at;
	}
	if (next !== undefined) {
		const n = text.charCodeAt(at + 1);
		if ((n >= 0x40 && n <= 0x5a) || (n >= 0x5c && n <= 0x5f)) return 2;
	}
	return 0;
}

/** The text without its escape sequences. */
export function stripAnsi(text: string): string {
	let at = text.indexOf('\x1b');
	if (at === -1) return text;
	let out = '';
	let last = 0;
	for (; at !== -1; at = text.indexOf('\x1b', at + 1)) {
		const length = escapeSequenceLength(text, at);
		if (!length) continue;
		out += text.slice(last, at);
		last = at + length;
		at = last - 1;
	}
	return out + text.slice(last);
}

/** The text without the newlines it ends with. */
export function trimTrailingNewlines(text: string): string {
	let end = text.length;
	while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
	return end === text.length ? text : text.slice(0, end);
}
