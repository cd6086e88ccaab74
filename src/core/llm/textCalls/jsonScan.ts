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

export function isJsonObject(raw: string): boolean {
	try {
		const value = JSON.parse(raw);
		return typeof value === 'object' && value !== null && !Array.isArray(value);
	} catch {
		return false;
	}
}

/** Ends inside a string or with braces still open: text that stopped, not text that is merely malformed. */
export function looksCut(raw: string): boolean {
	const text = raw.trim();
	if (!text.startsWith('{') || isJsonObject(text)) {
		return false;
	}
	let depth = 0;
	const inString = scanOutsideStrings(text, c => {
		if (c === '{' || c === '[') {
			depth++;
		} else if (c === '}' || c === ']') {
			depth--;
		}
	});
	return inString || depth > 0;
}
