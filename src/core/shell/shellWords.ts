/**
 * A bash word's value after quote removal, when it can be known before the line runs.
 * `text` is the value (or, when `known` is false, the part before the first thing only bash
 * can resolve: an expansion, a substitution, a glob, a brace list, a leading `~`).
 */
import type { BashNode } from './bashParser';

/** A word a command is given (an argument or an assigned value): any of them may name a file it reads or writes. */
export interface Operand {
	/** After quote removal; undefined when only bash can know it. */
	path: string | undefined;
	/** As written, for messages. */
	written: string;
	/** When only a glob is left to resolve: the pattern, literal characters escaped with `\\`. */
	glob?: string;
	/** Resolved from this folder (relative to the cwd) instead of the cwd: a symlink's target is read from the link's folder. */
	from?: string;
}

export interface WordValue {
	text: string;
	known: boolean;
}

const C_ESCAPES: Record<string, string> = {
	n: '\n',
	t: '\t',
	r: '\r',
	a: '\x07',
	b: '\b',
	e: '\x1b',
	E: '\x1b',
	f: '\f',
	v: '\v',
	'\\': '\\',
	"'": "'",
	'"': '"',
	'?': '?',
};

/** `$'…'` body → the characters bash makes of it. */
export function decodeAnsiC(body: string): string {
	return body.replace(
		/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
		(all, esc: string) => {
			if (/^[0-7]/.test(esc)) {
				return String.fromCharCode(parseInt(esc, 8) & 0xff);
			}
			if (/^[xuU][0-9a-fA-F]/.test(esc)) {
				const code = parseInt(esc.slice(1), 16);
				return code <= 0x10ffff ? String.fromCodePoint(code) : '';
			}
			if (esc.startsWith('c') && esc.length === 2) {
				return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
			}
			return C_ESCAPES[esc] ?? all;
		},
	);
}

/** An unquoted word: backslashes quote the next character; globs, brace lists and `~` are bash's to resolve. */
function unquoted(raw: string, first: boolean): WordValue {
	let text = '';
	for (let i = 0; i < raw.length; i++) {
		const c = raw[i];
		if (c === '\\') {
			if (raw[i + 1] === '\n') {
				i++;
				continue;
			}
			text += raw[i + 1] ?? '';
			i++;
			continue;
		}
		if (c === '*' || c === '?' || c === '[' || (c === '~' && first && i === 0)) {
			return { text, known: false };
		}
		if (c === '{' && /^\{[^{}]*(,|\.\.)[^{}]*\}/.test(raw.slice(i))) {
			return { text, known: false };
		}
		text += c;
	}
	return { text, known: true };
}

/** Inside "…": only \$ \` \" \\ and a backslash-newline are escapes. */
function doubleQuoted(raw: string): string {
	return raw.replace(/\\([$`"\\\n])/g, (_all, c: string) => (c === '\n' ? '' : c));
}

/**
 * Where a brace list that bash will expand starts inside `child`, an unquoted word of the
 * concatenation `word`: the grammar splits `{.env,x}` into the words `{`, `.env,x` and `}`,
 * so the list is only seen in the whole word's text.
 */
function braceAt(word: BashNode, child: BashNode): number | undefined {
	if (child.type !== 'word') return undefined;
	for (let i = child.text.indexOf('{'); i !== -1; i = child.text.indexOf('{', i + 1)) {
		if (i > 0 && child.text[i - 1] === '\\') continue;
		const rest = word.text.slice(child.startIndex - word.startIndex + i);
		if (/^\{[^{}]*(,|\.\.)[^{}]*\}/.test(rest)) return i;
	}
	return undefined;
}

export function wordValue(node: BashNode, first = true): WordValue {
	switch (node.type) {
		case 'word':
		case 'number':
			return unquoted(node.text, first);
		case 'raw_string':
			return { text: node.text.slice(1, -1), known: true };
		case 'ansi_c_string': {
			// A program gets a C string: a NUL (`\x00`, `\0`, `\c@`) ends what bash passes of this quote.
			const text = decodeAnsiC(node.text.slice(2, -1));
			return { text: text.includes('\0') ? text.slice(0, text.indexOf('\0')) : text, known: true };
		}
		case 'string':
		case 'translated_string': {
			let text = '';
			for (const child of node.children) {
				if (!child) continue;
				if (child.type === '"' || child.type === '$') continue;
				if (child.type === 'string_content') {
					text += doubleQuoted(child.text);
					continue;
				}
				return { text, known: false };
			}
			return { text, known: true };
		}
		case 'concatenation': {
			let text = '';
			let index = 0;
			for (const child of node.children) {
				if (!child) continue;
				const brace = braceAt(node, child);
				if (brace !== undefined) {
					return { text: text + unquoted(child.text.slice(0, brace), false).text, known: false };
				}
				const part = wordValue(child, first && index++ === 0);
				text += part.text;
				if (!part.known) {
					return { text, known: false };
				}
			}
			return { text, known: true };
		}
		default:
			// Expansions, substitutions, arithmetic, anything new: only bash knows the value.
			return { text: '', known: false };
	}
}

const GLOB_CHAR = /[*?[]/;

/** One part of a word as a glob: literal text escaped, unquoted `*`, `?` and `[…]` kept; undefined when bash would expand it otherwise. */
function globPart(node: BashNode, first: boolean): string | undefined {
	const literal = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');
	switch (node.type) {
		case 'word':
		case 'number': {
			const raw = node.text;
			// An extglob (`@(…)`, `!(…)`), a brace list or a leading `~` is bash's alone to expand.
			if (/[?*+@!]\(/.test(raw) || (first && raw.startsWith('~')) || /\{[^{}]*(,|\.\.)[^{}]*\}/.test(raw)) {
				return undefined;
			}
			let out = '';
			for (let i = 0; i < raw.length; i++) {
				const c = raw[i];
				if (c === '\\') {
					out += raw[i + 1] === '\n' ? '' : literal(raw[i + 1] ?? '');
					i++;
				} else {
					out += c;
				}
			}
			return out;
		}
		case 'concatenation': {
			let out = '';
			let index = 0;
			for (const child of node.children) {
				if (!child) continue;
				if (braceAt(node, child) !== undefined) return undefined;
				const part = globPart(child, first && index++ === 0);
				if (part === undefined) return undefined;
				out += part;
			}
			return out;
		}
		default: {
			const value = wordValue(node, first);
			return value.known ? literal(value.text) : undefined;
		}
	}
}

/**
 * The word as a glob pattern when the only thing bash still has to resolve is a glob
 * (`src/*.ts`, `.e[n]v`), so the files it names can be listed before it runs; else undefined.
 */
export function wordGlob(node: BashNode, first = true): string | undefined {
	const pattern = globPart(node, first);
	return pattern !== undefined && GLOB_CHAR.test(pattern.replace(/\\./g, '')) ? pattern : undefined;
}
