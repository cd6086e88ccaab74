/**
 * Small scanners over model text for the call extractor: balanced JSON spans, a bracketed
 * group, a quoted string literal, and the markup tokens models wrap calls in.
 */

export interface JsonSpans {
	/** Top-level balanced `{…}` / `[…]` spans. */
	spans: Array<[number, number]>;
	/** Where a top-level value opened and never closed (the text was cut inside it), if one did. */
	openFrom?: number;
}

/** Balanced JSON-ish spans, string-aware (double quotes; single quotes where a value or key may start). */
export function jsonSpans(text: string): JsonSpans {
	const spans: Array<[number, number]> = [];
	const stack: string[] = [];
	let start = -1;
	let quote = '';
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quote) {
			if (c === '\\') {
				i++;
			} else if (c === quote) {
				quote = '';
			}
			continue;
		}
		if (c === '"' && stack.length > 0) {
			quote = c;
		} else if (c === "'" && stack.length > 0 && /[{[,:]\s*$/.test(text.slice(Math.max(0, i - 8), i))) {
			quote = c;
		} else if (c === '{' || c === '[') {
			if (stack.length === 0) {
				start = i;
			}
			stack.push(c === '{' ? '}' : ']');
		} else if ((c === '}' || c === ']') && stack.length > 0) {
			if (stack[stack.length - 1] !== c) {
				// A stray closer: not JSON after all; start afresh after it.
				stack.length = 0;
				continue;
			}
			stack.pop();
			if (stack.length === 0) {
				spans.push([start, i + 1]);
			}
		}
	}
	return stack.length > 0 ? { spans, openFrom: start } : { spans };
}

/** The end (exclusive) of a group opened at `open` (`(`, `{`, `[`), string-aware; undefined when it never closes. */
export function groupEnd(text: string, open: number): number | undefined {
	const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
	const stack = [pairs[text[open]]];
	for (let i = open + 1; i < text.length; i++) {
		const c = text[i];
		if (c === '"' || c === "'" || c === '`') {
			const end = stringEnd(text, i);
			if (end === undefined) {
				return undefined;
			}
			i = end - 1;
		} else if (pairs[c]) {
			stack.push(pairs[c]);
		} else if (c === stack[stack.length - 1]) {
			stack.pop();
			if (stack.length === 0) {
				return i + 1;
			}
		}
	}
	return undefined;
}

/** The end (exclusive) of a string literal starting at `at` (its quote; a Python triple quote too); undefined when unterminated. */
export function stringEnd(text: string, at: number): number | undefined {
	const q = text[at];
	const triple = text.startsWith(q.repeat(3), at) ? q.repeat(3) : '';
	for (let i = at + (triple ? 3 : 1); i < text.length; i++) {
		if (text[i] === '\\') {
			i++;
		} else if (triple ? text.startsWith(triple, i) : text[i] === q) {
			return i + (triple ? 3 : 1);
		}
	}
	return undefined;
}

/** A string literal's value: JSON escapes, Python's too, whichever quote it used. */
export function stringValue(literal: string): string {
	const triple = /^("""|''')/.test(literal);
	const body = triple ? literal.slice(3, -3) : literal.slice(1, -1);
	return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/gs, (_, e: string) => {
		if (e.length > 1) {
			return String.fromCharCode(parseInt(e.slice(1), 16));
		}
		return { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' }[e] ?? e;
	});
}

/** One markup token: a tag, a special token, a bracket token. No words around it. */
export const MARKUP_TOKEN =
	/<\/?[A-Za-z_][\w:.-]*(?:[ =][^<>\n]*)?\/?>|<\|[^<>|\n]{0,60}\|>|<｜[^｜\n]{0,60}｜>|\[\/?[A-Za-z_][\w ]{0,30}\]/;

const TOKEN_AT_END = new RegExp(`(?:${MARKUP_TOKEN.source})\\s*$`);
const TOKEN_AT_START = new RegExp(`^\\s*(?:${MARKUP_TOKEN.source})`);
const FENCE_AT_END = /```[\w-]*\s*$/;
const FENCE_AT_START = /^\s*```/;

/**
 * Widens a span over the markup right around it — tags, tokens, and a fence only when it
 * opens before and closes after — so wrappers left behind are not shown as prose.
 */
export function widenOverMarkup(text: string, start: number, end: number): [number, number] {
	for (let changed = true; changed;) {
		changed = false;
		const before = TOKEN_AT_END.exec(text.slice(0, start));
		if (before) {
			start -= before[0].length;
			changed = true;
		}
		const after = TOKEN_AT_START.exec(text.slice(end));
		if (after) {
			end += after[0].length;
			changed = true;
		}
		const open = FENCE_AT_END.exec(text.slice(0, start));
		const close = FENCE_AT_START.exec(text.slice(end));
		if (open && close) {
			start -= open[0].length;
			end += close[0].length;
			changed = true;
		}
	}
	return [start, end];
}

/** A string matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
