/**
 * Walks JSON-like text and hands `visit` every character outside string literals, so braces
 * inside strings never count as structure. `visit` returns false to stop early. Returns
 * whether the text ended inside a string (it was cut there).
 */
export function scanOutsideStrings(text: string, visit: (c: string, i: number) => boolean | void): boolean {
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			if (c === '\\') {
				i++;
			} else if (c === '"') {
				inString = false;
			}
		} else if (c === '"') {
			inString = true;
		} else if (visit(c, i) === false) {
			break;
		}
	}
	return inString;
}
