/**
 * What a reader does not see in a line, and the encodings it may hold (escapes, hex dumps): the
 * other views of a line the redactor judges beside the line itself, read by the same bounded
 * scanners as lineShapes.ts.
 */
import { escapeSequenceLength } from '../../util/ansi';
import { code, isDigit, isHex } from './lineShapes';

/** What a reader does not see between the characters of a token: soft hyphen, zero-width and bidi format characters. */
function isFormat(c: number): boolean {
	return (
		c >= 0xad &&
		(c === 0xad ||
			c === 0x180e ||
			(c >= 0x200b && c <= 0x200f) ||
			(c >= 0x202a && c <= 0x202e) ||
			(c >= 0x2060 && c <= 0x2064) ||
			(c >= 0x2066 && c <= 0x2069) ||
			c === 0xfeff)
	);
}

/** What of a line a reader does not see, and which encodings it holds: the views worth judging. */
export function lineViews(text: string): { invisible: boolean; escaped: boolean; hex: boolean } {
	let invisible = false;
	let escaped = false;
	let hexRun = 0;
	let hex = false;
	for (let i = 0; i < text.length; i++) {
		const c = code(text, i);
		if (c === 27 || isFormat(c) || (c === 13 && i < text.length - 1)) invisible = true;
		else if (c === 92 || c === 37 || c === 38) escaped ||= escapeAt(text, i) !== undefined;
		if (isHex(c)) {
			hexRun++;
			if (hexRun >= 32) hex = true;
		} else hexRun = 0;
	}
	return { invisible, escaped, hex };
}

/**
 * The line without what a reader does not see: terminal escape sequences (CSI, OSC, two-byte),
 * zero-width and bidi format characters, soft hyphens, and a carriage return inside the line.
 */
export function withoutInvisible(text: string): string {
	let out = '';
	let last = 0;
	for (let i = 0; i < text.length; i++) {
		const c = code(text, i);
		let skip = 0;
		if (c === 27) skip = escapeSequenceLength(text, i);
		else if (isFormat(c) || (c === 13 && i < text.length - 1)) skip = 1;
		if (skip) {
			out += text.slice(last, i);
			i += skip - 1;
			last = i + 1;
		}
	}
	return last === 0 ? text : out + text.slice(last);
}

/** A `\uXXXX`, `\xXX`, `%XX`, `&#xH;` or `&#D;` escape at `i`: its length and the code point. */
function escapeAt(text: string, i: number): { length: number; point: number } | undefined {
	const hexDigits = (from: number, n: number) => {
		for (let k = 0; k < n; k++) if (!isHex(code(text, from + k))) return undefined;
		return parseInt(text.slice(from, from + n), 16);
	};
	const c = text[i];
	if (c === '\\') {
		if (text[i + 1] === 'u') {
			const p = hexDigits(i + 2, 4);
			return p === undefined ? undefined : { length: 6, point: p };
		}
		if (text[i + 1] === 'x') {
			const p = hexDigits(i + 2, 2);
			return p === undefined ? undefined : { length: 4, point: p };
		}
		return undefined;
	}
	if (c === '%') {
		const p = hexDigits(i + 1, 2);
		return p === undefined ? undefined : { length: 3, point: p };
	}
	if (c === '&' && text[i + 1] === '#') {
		const isX = text[i + 2] === 'x' || text[i + 2] === 'X';
		let k = i + (isX ? 3 : 2);
		const from = k;
		while (k < text.length && k - from < (isX ? 6 : 7) && (isX ? isHex(code(text, k)) : isDigit(code(text, k))))
			k++;
		if (k === from || text[k] !== ';') return undefined;
		const point = parseInt(text.slice(from, k), isX ? 16 : 10);
		return { length: k + 1 - i, point };
	}
	return undefined;
}

/** The line with its escapes decoded and its hex runs turned back into the text they hold, when that is printable. */
export function decodedLine(text: string): string {
	let out = '';
	let last = 0;
	for (let i = 0; i < text.length; i++) {
		const c = code(text, i);
		if (c !== 92 && c !== 37 && c !== 38) continue;
		const found = escapeAt(text, i);
		if (!found || found.point <= 0 || found.point > 0x10ffff) continue;
		out += text.slice(last, i) + String.fromCodePoint(found.point);
		i += found.length - 1;
		last = i + 1;
	}
	const unescaped = last === 0 ? text : out + text.slice(last);
	return decodeHexRuns(unescaped);
}

/** Runs of 16 or more hex byte pairs (`xxd -p`, a hex dump) that decode to printable ASCII. */
function decodeHexRuns(text: string): string {
	let out = '';
	let last = 0;
	let i = 0;
	while (i < text.length) {
		if (!isHex(code(text, i)) || (i > 0 && isHex(code(text, i - 1)))) {
			i++;
			continue;
		}
		let end = i;
		while (end < text.length && isHex(code(text, end))) end++;
		// Whole pairs only, and nothing hex right after (the run is taken as a whole).
		const pairs = Math.floor((end - i) / 2);
		if (pairs >= 16 && (end - i) % 2 === 0) {
			const bytes = Buffer.from(text.slice(i, end), 'hex').toString('latin1');
			if (printable(bytes)) {
				out += text.slice(last, i) + bytes;
				last = end;
			}
		}
		i = end;
	}
	return last === 0 ? text : out + text.slice(last);
}

function printable(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const c = code(text, i);
		if (c < 0x20 || c > 0x7e) return false;
	}
	return true;
}
