/**
 * The shapes the line machine (redactLines.ts) looks for in a line, as scanners that read each
 * character a bounded number of times: no regular expression runs on the text Keel redacts, so
 * no line (a 19 MiB one, a 50 MB argument) makes a pattern backtrack or recurse.
 */
import { entropy } from './ruleEngine';

export const code = (text: string, i: number) => text.charCodeAt(i);
export const isDigit = (c: number) => c >= 48 && c <= 57;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
const isB64 = (c: number) => isDigit(c) || isUpper(c) || isLower(c) || c === 43 || c === 47;
export const isHex = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** `[REDACTED …]` markers an earlier pass left, as [start, end) pairs in order. */
export function markerRanges(text: string): Array<[number, number]> {
	const out: Array<[number, number]> = [];
	const open = '[REDACTED ';
	for (let at = text.indexOf(open); at !== -1; at = text.indexOf(open, at + 1)) {
		const from = at + open.length;
		for (let i = from; i < text.length && i <= from + 40; i++) {
			const c = text[i];
			if (c === '\n') break;
			if (c === ']') {
				if (i > from) out.push([at, i + 1]);
				break;
			}
		}
	}
	return out;
}

export interface KeyArmor {
	index: number;
	/** The armor line's text (`-----BEGIN RSA PRIVATE KEY-----`, `PuTTY-User-Key-File-3:`). */
	text: string;
	putty: boolean;
}

/**
 * Where key blocks begin in one line, found left to right: `-----BEGIN … PRIVATE KEY-----`
 * (any words before PRIVATE KEY, optional BLOCK) or a PuTTY key header. Each kind is searched
 * for once per position it could be at, so a line of a thousand blocks costs its length.
 */
export class KeyBegins {
	private _pem: KeyArmor | undefined | null = null;
	private _putty: KeyArmor | undefined | null = null;
	constructor(private readonly _text: string) {}

	/** The first block beginning at or after `from`. */
	next(from: number): KeyArmor | undefined {
		if (this._pem === null || (this._pem && this._pem.index < from)) {
			const found = findArmor(this._text, '-----BEGIN ', from);
			this._pem = found && { ...found, putty: false };
		}
		if (this._putty === null || (this._putty && this._putty.index < from)) {
			const found = findPutty(this._text, from);
			this._putty = found && { ...found, putty: true };
		}
		const pem = this._pem;
		const putty = this._putty;
		return putty && (!pem || putty.index < pem.index) ? putty : pem;
	}
}

export function findKeyBegin(text: string): KeyArmor | undefined {
	return new KeyBegins(text).next(0);
}

/** The END line that closes a block (PuTTY: its Private-MAC line), at or after `from`. */
export function findKeyEnd(text: string, putty: boolean, from = 0): { index: number; text: string } | undefined {
	if (putty) {
		const at = text.indexOf('Private-MAC:', from);
		if (at === -1) return undefined;
		const nl = text.indexOf('\n', at);
		return { index: at, text: text.slice(at, nl === -1 ? text.length : nl) };
	}
	return findArmor(text, '-----END ', from);
}

export function hasKeyEnd(text: string): boolean {
	return findArmor(text, '-----END ', 0) !== undefined;
}

/** `<opener>(WORD )*PRIVATE KEY( BLOCK)?-----`, WORD of [A-Z0-9]. */
function findArmor(text: string, opener: string, from: number): { index: number; text: string } | undefined {
	for (let at = text.indexOf(opener, from); at !== -1; at = text.indexOf(opener, at + 1)) {
		let i = at + opener.length;
		// Words of capitals and digits, each followed by a space, until PRIVATE KEY.
		for (;;) {
			if (text.startsWith('PRIVATE KEY', i)) {
				let end = i + 'PRIVATE KEY'.length;
				if (text.startsWith(' BLOCK', end)) end += ' BLOCK'.length;
				if (text.startsWith('-----', end)) return { index: at, text: text.slice(at, end + 5) };
			}
			const word = i;
			while (i < text.length && (isUpper(code(text, i)) || isDigit(code(text, i)))) i++;
			if (i === word || text[i] !== ' ') break;
			i++;
		}
	}
	return undefined;
}

function findPutty(text: string, from: number): { index: number; text: string } | undefined {
	const opener = 'PuTTY-User-Key-File-';
	for (let at = text.indexOf(opener, from); at !== -1; at = text.indexOf(opener, at + 1)) {
		let i = at + opener.length;
		const digits = i;
		while (i < text.length && isDigit(code(text, i))) i++;
		if (i > digits && text[i] === ':') return { index: at, text: text.slice(at, i + 1) };
	}
	return undefined;
}

/**
 * The length of the prefix read_file ("  12  "), grep ("path:12:" / "path-12-") or a unified
 * diff (" ", "+", "-") puts before a line. The path must look like one ("keys/k.pem:9:"), or a
 * token such as "xapp-1-…" would pass for a prefix.
 */
export function linePrefixLength(text: string): number {
	// "  12  " / "12:" / "12-": spaces, digits, then a separator or spaces.
	let i = 0;
	while (i < text.length && isSpace(code(text, i))) i++;
	const digits = i;
	while (i < text.length && isDigit(code(text, i))) i++;
	if (i > digits) {
		const c = text[i];
		if (c === ':' || c === '-') {
			i++;
			while (i < text.length && isSpace(code(text, i))) i++;
			return i;
		}
		if (i < text.length && isSpace(code(text, i))) {
			while (i < text.length && isSpace(code(text, i))) i++;
			return i;
		}
	}
	const grep = grepPrefix(text);
	if (grep > 0) return grep;
	const first = text[0];
	return first === ' ' || first === '+' || first === '-' ? 1 : 0;
}

/** "path:12:" or "path-12-" where path holds a "." or "/": the end of the prefix, or 0. */
function grepPrefix(text: string): number {
	let run = 0;
	let slash = -1;
	while (run < text.length && text[run] !== ':' && !isSpace(code(text, run))) {
		if (slash === -1 && (text[run] === '.' || text[run] === '/')) slash = run;
		run++;
	}
	if (slash === -1) return 0;
	const after = (s: number): number => {
		let i = s + 1;
		const digits = i;
		while (i < text.length && isDigit(code(text, i))) i++;
		if (i === digits || (text[i] !== ':' && text[i] !== '-')) return 0;
		i++;
		while (i < text.length && isSpace(code(text, i))) i++;
		return i;
	};
	if (text[run] === ':') {
		const end = after(run);
		if (end) return end;
	}
	// A "-" separator inside the run (grep's context lines): the last one that fits.
	for (let s = run - 1; s > slash; s--) {
		if (text[s] === '-') {
			const end = after(s);
			if (end) return end;
		}
	}
	return 0;
}

/** A whole line of base64, at least 16 characters, up to two "=" of padding. */
export function isBase64Line(body: string): boolean {
	return base64Run(body, 16);
}

/** The short last line of a key body: base64 that does not read as a word. */
export function isBase64Tail(body: string): boolean {
	if (!base64Run(body, 4)) return false;
	if (body.endsWith('=')) return true;
	for (let i = 0; i < body.length; i++) {
		const c = code(body, i);
		if (isDigit(c) || c === 43 || c === 47) return true;
		if (i > 0) {
			const p = code(body, i - 1);
			if ((isLower(p) && isUpper(c)) || (isUpper(p) && isLower(c))) return true;
		}
	}
	return false;
}

function base64Run(body: string, min: number): boolean {
	let end = body.length;
	if (body.endsWith('==')) end -= 2;
	else if (body.endsWith('=')) end -= 1;
	if (end < min) return false;
	for (let i = 0; i < end; i++) if (!isB64(code(body, i))) return false;
	return true;
}

/** Base64 only (with or without its padding), any length: half a key-body line. */
export function isBase64Piece(body: string): boolean {
	return body.length > 0 && base64Run(body, 1);
}

export function hasUpperLowerDigit(text: string): boolean {
	let upper = false;
	let lower = false;
	let digit = false;
	for (let i = 0; i < text.length && !(upper && lower && digit); i++) {
		const c = code(text, i);
		upper ||= isUpper(c);
		lower ||= isLower(c);
		digit ||= isDigit(c);
	}
	return upper && lower && digit;
}

/**
 * How a key's first body line starts, whatever the key: the DER header of an RSA key (PKCS#8
 * or PKCS#1), an EC key (SEC1 or PKCS#8) and OpenSSH's "openssh-key-v1". That line is half
 * fixed bytes, so its entropy alone would not give it away.
 */
function keySignature(run: string): boolean {
	if (['MHcCAQEE', 'MIGHAgEA', 'MIG2AgEA', 'b3BlbnNzaC1rZXktdjE'].some(s => run.startsWith(s))) return true;
	// MII + two base64 + a letter + IBA + (DAN | AK)
	if (!run.startsWith('MII') || run.length < 11) return false;
	const letter = code(run, 5);
	return (
		isB64(code(run, 3)) &&
		isB64(code(run, 4)) &&
		(isUpper(letter) || isLower(letter)) &&
		run.startsWith('IBA', 6) &&
		(run.startsWith('DAN', 9) || run.startsWith('AK', 9))
	);
}

/** A PEM or OpenSSH key body line: base64 with the spread of random bytes, not a hex hash or a word. */
export function looksLikeKeyBody(run: string): boolean {
	return keySignature(run) || (run.length >= 40 && hasUpperLowerDigit(run) && entropy(run) >= 4.5);
}

/**
 * A long base64 run ending a line after other text (`key: …`, `"…"`): where it is, when it
 * is there. The run starts the line or follows one of ` \t:|>"'=` and is followed only by
 * its padding, one closing `"`, `'` or `,`, and spaces.
 */
export function trailingBody(line: string): { start: number; end: number } | undefined {
	let end = line.length;
	while (end > 0 && isSpace(code(line, end - 1))) end--;
	const last = line[end - 1];
	if (last === '"' || last === "'" || last === ',') end--;
	let bodyEnd = end;
	let pad = 0;
	while (pad < 2 && bodyEnd > 0 && line[bodyEnd - 1] === '=') {
		bodyEnd--;
		pad++;
	}
	let start = bodyEnd;
	while (start > 0 && isB64(code(line, start - 1))) start--;
	if (bodyEnd - start < 40) return undefined;
	if (start > 0) {
		const before = line[start - 1];
		if (!isSpace(code(line, start - 1)) && !':|>"\'='.includes(before)) return undefined;
	}
	return { start, end: bodyEnd + pad };
}
