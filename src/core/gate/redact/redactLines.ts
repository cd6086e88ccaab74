/**
 * The one redactor, as a machine fed line by line: the same code redacts a whole output
 * (redact.ts) and a live stream as it arrives (StreamRedactor), so both cut the same things.
 * Per line it finds every rule's matches (redactRules.ts) on the original text, joins the
 * spans that overlap (so `GITHUB_TOKEN=ghp_…` is one secret, not two), leaves earlier
 * `[REDACTED …]` markers alone (redacting twice changes nothing), and works on windows of a
 * very long line, so its cost grows linearly with the output whatever the output is.
 * Across lines it tracks key blocks (BEGIN … END, PuTTY files) and runs of key-body lines
 * whose BEGIN line is missing (a read from an offset, a grep hit), decided by entropy or by
 * the END line that closes them.
 */
import { REDACT_RULES } from './redactRules';

export const MARKER = /\[REDACTED [^\]\n]{1,40}\]/g;
const BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----|PuTTY-User-Key-File-\d+:/;
const END_OF = (begin: string) =>
	begin.startsWith('PuTTY') ? /Private-MAC:[^\n]*/ : /-----END ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----/;
const ANY_END = /-----END ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----/;
/** The prefix read_file ("  12  "), grep ("path:12:" / "path-12-") or a unified diff (" ", "+", "-") puts before a line. */
// The path must look like one ("keys/k.pem:9:"), or a token such as "xapp-1-…" would pass for a prefix.
const PREFIX = /^(?:\s*\d+(?:[:-]\s*|\s+)|[^\s:]*[./][^\s:]*[:-]\d+[:-]\s*|[ +-])?/;
/** A long base64 run ending a line after other text (`key: …`, `"…"`): key material when it looks random. */
const TRAILING_BODY = /(?<=^|[\s:|>"'=])[A-Za-z0-9+/]{40,}={0,2}(?=["',]?\s*$)/;
const BASE64_LINE = /^[A-Za-z0-9+/]{16,}={0,2}$/;
/** The short last line of a key body: base64 that does not read as a word. */
const BASE64_TAIL = /^(?=[A-Za-z0-9+/]*(?:[\d+/=]|[a-z][A-Z]|[A-Z][a-z]))[A-Za-z0-9+/]{4,}={0,2}$/;
/**
 * What a reader does not see between the characters of a token: terminal escape sequences
 * (grep --color cuts a match out of the token around it), zero-width and bidi format
 * characters, soft hyphens, and a carriage return inside a line.
 */
const INVISIBLE =
	// eslint-disable-next-line no-control-regex
	/\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])|[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\r(?!$)/g;

/**
 * The line as the redactor judges it: unchanged, or with what a reader does not see taken
 * out when only that hides a secret (so colours stay where no secret is).
 */
export function visibleLine(text: string): string {
	INVISIBLE.lastIndex = 0;
	ESCAPED.lastIndex = 0;
	HEX_RUN.lastIndex = 0;
	const hidden = INVISIBLE.test(text);
	if (!hidden && !ESCAPED.test(text) && !HEX_RUN.test(text)) {
		return text;
	}
	const visible = hidden ? text.replace(INVISIBLE, '') : text;
	let found: number | undefined;
	for (const view of new Set([visible, decodedLine(visible)])) {
		if (view === text) continue;
		// Most lines hold no secret in any view: one scan of the view decides, the raw line is scanned only if it does.
		const covered = secretCoverage(view);
		if (covered > 0 && covered > (found ??= secretCoverage(text))) {
			return view;
		}
	}
	return text;
}

/** How many characters of `line` the rules take for secrets: a view that shows more of a secret than the raw text is the one to judge. */
export function secretCoverage(line: string): number {
	return secretSpans(line).reduce((sum, span) => sum + span.end - span.start, 0);
}

/** JSON/JS `\\u…`/`\\x…` escapes, URL `%xx` and HTML character references: a secret written in them is still that secret. */
const ESCAPED = /\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|%([0-9a-fA-F]{2})|&#[xX]([0-9a-fA-F]{1,6});|&#(\d{1,7});/g;
/** A run of hex bytes long enough to hold a token (`xxd -p`, a hex dump of a file). */
const HEX_RUN = /(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}){16,}(?![0-9a-fA-F])/g;

/** The line with its escapes decoded and its hex runs turned back into the text they hold, when that is printable. */
function decodedLine(text: string): string {
	const unescaped = text.replace(ESCAPED, (all, u?: string, x?: string, pct?: string, hx?: string, dec?: string) => {
		const code = parseInt(u ?? x ?? pct ?? hx ?? '', 16) || parseInt(dec ?? '', 10);
		return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
	});
	return unescaped.replace(HEX_RUN, run => {
		const bytes = Buffer.from(run, 'hex').toString('latin1');
		return /^[\x20-\x7e]+$/.test(bytes) ? bytes : run;
	});
}

const WINDOW = 4096;
const OVERLAP = 512;
const MAX_RUN = 64;

interface Span {
	start: number;
	end: number;
	label: string;
	rank: number;
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
	const counts = new Map<string, number>();
	for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
	let bits = 0;
	for (const n of counts.values()) {
		const p = n / text.length;
		bits -= p * Math.log2(p);
	}
	return bits;
}

/**
 * How a key's first body line starts, whatever the key: the DER header of an RSA key (PKCS#8
 * or PKCS#1), an EC key (SEC1 or PKCS#8) and OpenSSH's "openssh-key-v1". That line is half
 * fixed bytes, so its entropy alone would not give it away.
 */
const KEY_SIGNATURE = /^(?:MII[A-Za-z0-9+/]{2}[A-Za-z]IBA(?:DAN|AK)|MHcCAQEE|MIGHAgEA|MIG2AgEA|b3BlbnNzaC1rZXktdjE)/;

/** A PEM or OpenSSH key body line: base64 with the spread of random bytes, not a hex hash or a word. */
function looksLikeKeyBody(run: string): boolean {
	return (
		KEY_SIGNATURE.test(run) ||
		(run.length >= 40 && /[A-Z]/.test(run) && /[a-z]/.test(run) && /\d/.test(run) && entropy(run) >= 4.5)
	);
}

/** Every rule's matches in one line, joined where they overlap, none inside an earlier marker. */
export function secretSpans(line: string): Span[] {
	const found: Span[] = [];
	const kept: Array<[number, number]> = [...line.matchAll(MARKER)].map(m => [m.index, m.index + m[0].length]);
	for (let from = 0; from < line.length; from += WINDOW - OVERLAP) {
		const window = line.slice(from, from + WINDOW);
		REDACT_RULES.forEach(({ label, re }, rank) => {
			for (const match of window.matchAll(re)) {
				if (match[0].length > 0) {
					found.push({ start: from + match.index, end: from + match.index + match[0].length, label, rank });
				}
			}
		});
		if (from + WINDOW >= line.length) break;
	}
	const body = TRAILING_BODY.exec(line);
	if (body && looksLikeKeyBody(body[0])) {
		found.push({
			start: body.index,
			end: body.index + body[0].length,
			label: 'key material',
			rank: REDACT_RULES.length,
		});
	}
	const clean = found.filter(s => !kept.some(([a, b]) => s.start < b && a < s.end));
	clean.sort((a, b) => a.start - b.start || a.rank - b.rank);
	const merged: Span[] = [];
	for (const span of clean) {
		const last = merged[merged.length - 1];
		if (last && span.start < last.end) {
			last.end = Math.max(last.end, span.end);
			if (span.rank < last.rank) {
				last.label = span.label;
				last.rank = span.rank;
			}
		} else {
			merged.push({ ...span });
		}
	}
	return merged;
}

export class LineRedactor {
	private _out = '';
	/** Plain lines waiting to be scanned together: one pass of the rules per window, not per line. */
	private _batch = '';
	readonly hits: string[] = [];
	/** Inside a key block: everything up to its end is swallowed. */
	private _block: RegExp | undefined;
	/** Base64 lines held until it is known whether they are a key body. */
	private _run: Array<{ prefix: string; raw: string; nl: string }> = [];
	private _inKey = false;

	/** One line, `nl` its terminator ('' for an unterminated last piece). */
	line(raw: string, nl: string): void {
		let text = visibleLine(raw);
		if (this._block) {
			const end = this._block.exec(text);
			if (!end) {
				return;
			}
			this._block = undefined;
			text = text.slice(end.index + end[0].length);
			if (text === '') {
				this._emit(nl);
				return;
			}
		}
		const prefix = PREFIX.exec(text)![0];
		const body = text.slice(prefix.length);
		const candidate = BASE64_LINE.test(body) || ((this._run.length > 0 || this._inKey) && BASE64_TAIL.test(body));
		if (candidate) {
			if (this._inKey) {
				this._emit(`${prefix}[REDACTED key material]${nl}`);
				return;
			}
			this._run.push({ prefix, raw: text, nl });
			if (looksLikeKeyBody(body)) {
				this._flushRun(true);
				this._inKey = true;
			} else if (this._run.length >= MAX_RUN) {
				this._flushRun(false);
			}
			return;
		}
		// An END line closes a body whose BEGIN was not read: what came before it was key material.
		this._flushRun(this._run.length > 0 && ANY_END.test(text));
		this._inKey = false;
		this._plain(text, nl);
	}

	/** Redacted text produced so far; resets the buffer. */
	take(): string {
		this._drain();
		const out = this._out;
		this._out = '';
		return out;
	}

	finish(): string {
		this._flushRun(false);
		return this.take();
	}

	/**
	 * What the held lines and an unfinished `tail` would show if the stream ended here, from a
	 * copy of this machine's state (inside a key block, the tail shows nothing). The tail is
	 * marked as cut with "…", so a token arriving in two pieces never shows its first half.
	 */
	preview(raw: string): string {
		const tail = visibleLine(raw);
		if (this._block && !this._block.test(tail)) {
			return '';
		}
		const prefix = PREFIX.exec(tail)![0];
		const body = tail.slice(prefix.length);
		// Half a key-body line: after a key body, or random-looking enough to be one.
		const partialKey =
			/^[A-Za-z0-9+/]+={0,2}$/.test(body) &&
			(this._inKey ||
				this._run.length > 0 ||
				(body.length >= 16 && /[A-Z]/.test(body) && /[a-z]/.test(body) && /\d/.test(body)));
		if (!this._block && partialKey) {
			const held = this._run.map(l => `${l.prefix}[REDACTED key material]${l.nl}`).join('');
			return `${held}${prefix}[REDACTED key material]`;
		}
		const copy = new LineRedactor();
		copy._block = this._block;
		copy._inKey = this._inKey;
		copy._run = [...this._run];
		copy.line(`${tail}…`, '');
		const shown = copy.finish();
		return shown.endsWith('…') ? shown.slice(0, -1) : shown;
	}

	private _flushRun(secret: boolean): void {
		const run = this._run;
		this._run = [];
		if (secret && run.length) {
			this.hits.push('key material');
			for (const l of run) this._emit(`${l.prefix}[REDACTED key material]${l.nl}`);
			return;
		}
		for (const l of run) this._plain(l.raw, l.nl);
	}

	/** A line without a pending run: key blocks, then the single-line rules. */
	private _plain(text: string, nl: string): void {
		const begin = BEGIN.exec(text);
		if (begin) {
			this._rules(text.slice(0, begin.index), '');
			this.hits.push(begin[0].startsWith('PuTTY') ? 'PuTTY private key' : 'private key');
			this._emit(`[REDACTED ${begin[0].startsWith('PuTTY') ? 'PuTTY private key' : 'private key'}]`);
			const rest = text.slice(begin.index + begin[0].length);
			const end = END_OF(begin[0]).exec(rest);
			if (!end) {
				this._block = END_OF(begin[0]);
				return;
			}
			this._plain(rest.slice(end.index + end[0].length), nl);
			return;
		}
		this._rules(text, nl);
	}

	private _rules(text: string, nl: string): void {
		this._batch += text + nl;
		if (this._batch.length >= WINDOW) {
			this._drain();
		}
	}

	private _emit(text: string): void {
		this._drain();
		this._out += text;
	}

	private _drain(): void {
		const text = this._batch;
		this._batch = '';
		let last = 0;
		for (const span of secretSpans(text)) {
			this._out += `${text.slice(last, span.start)}[REDACTED ${span.label}]`;
			this.hits.push(span.label);
			last = span.end;
		}
		this._out += text.slice(last);
	}
}
