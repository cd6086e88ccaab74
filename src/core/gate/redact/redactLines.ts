/**
 * The one redactor, as a machine fed line by line: the same code redacts a whole output
 * (redact.ts) and a live stream as it arrives (StreamRedactor), so both cut the same things.
 * Lines are batched and the rules (ruleEngine.ts) run over each batch once, with the secrets
 * Keel holds (heldSecrets.ts); the spans that overlap are joined (so `GITHUB_TOKEN=ghp_…` is
 * one secret, not two), and earlier `[REDACTED …]` markers are left alone (redacting twice
 * changes nothing). Across lines it tracks key blocks (BEGIN … END, PuTTY files) and runs of
 * key-body lines whose BEGIN line is missing (a read from an offset, a grep hit), decided by
 * entropy or by the END line that closes them. Every step reads a character a bounded number
 * of times and nothing recurses, so the cost grows linearly with the text, whatever it is.
 */
import { heldSecretSpans } from './heldSecrets';
import {
	findKeyEnd,
	hasKeyEnd,
	hasUpperLowerDigit,
	isBase64Line,
	isBase64Piece,
	isBase64Tail,
	KeyBegins,
	linePrefixLength,
	looksLikeKeyBody,
	markerRanges,
	trailingBody,
} from './lineShapes';
import { decodedLine, lineViews, withoutInvisible } from './lineViews';
import { RuleEngine, type Span } from './ruleEngine';

export { entropy } from './ruleEngine';

let engine: RuleEngine | undefined;
/** The rules, compiled on first use (each pattern on its first keyword). */
function rules(): RuleEngine {
	return (engine ??= new RuleEngine());
}

/** Labels that rank above every rule: a secret Keel holds, then key material. */
const HELD_RANK = -1;
const KEY_RANK = 1_000_000;

/** Lines are batched up to this many characters before the rules run over them. */
const BATCH = 8192;
const MAX_RUN = 64;

/**
 * The line as the redactor judges it: unchanged, or with what a reader does not see taken
 * out (terminal colours, zero-width characters) or its escapes decoded, when only that view
 * shows a secret (so colours stay where no secret is).
 */
export function visibleLine(text: string): string {
	const views = lineViews(text);
	if (!views.invisible && !views.escaped && !views.hex) {
		return text;
	}
	const visible = views.invisible ? withoutInvisible(text) : text;
	let found: number | undefined;
	for (const view of new Set([visible, views.escaped || views.hex ? decodedLine(visible) : visible])) {
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

/** Every rule's matches and every held secret in a text, joined where they overlap, none inside an earlier marker. */
export function secretSpans(text: string, extra: readonly Span[] = []): Span[] {
	const found = [...rules().find(text), ...heldSecretSpans(text, HELD_RANK), ...extra];
	if (!found.length) return [];
	found.sort((a, b) => a.start - b.start || a.rank - b.rank);
	const kept = markerRanges(text);
	const merged: Span[] = [];
	let k = 0;
	for (const span of found) {
		// Markers and spans both in order: one pass drops the spans inside a marker.
		while (k < kept.length && kept[k][1] <= span.start) k++;
		if (k < kept.length && kept[k][0] < span.end) continue;
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
	private _out: string[] = [];
	/** Plain lines waiting to be scanned together: one pass of the rules per batch, not per line. */
	private _batch: string[] = [];
	private _batchLength = 0;
	/** Key material found line by line (a trailing key body), as spans of the batch. */
	private _batchSpans: Span[] = [];
	readonly hits: string[] = [];
	/** Inside a key block: everything up to its end is swallowed. */
	private _block: { putty: boolean } | undefined;
	/** Base64 lines held until it is known whether they are a key body. */
	private _run: Array<{ prefix: string; raw: string; nl: string }> = [];
	private _inKey = false;

	/** One line, `nl` its terminator ('' for an unterminated last piece). */
	line(raw: string, nl: string): void {
		let text = visibleLine(raw);
		if (this._block) {
			const end = findKeyEnd(text, this._block.putty);
			if (!end) {
				return;
			}
			this._block = undefined;
			text = text.slice(end.index + end.text.length);
			if (text === '') {
				this._emit(nl);
				return;
			}
		}
		const prefix = text.slice(0, linePrefixLength(text));
		const body = text.slice(prefix.length);
		const candidate = isBase64Line(body) || ((this._run.length > 0 || this._inKey) && isBase64Tail(body));
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
		this._flushRun(this._run.length > 0 && hasKeyEnd(text));
		this._inKey = false;
		this._plain(text, nl);
	}

	/** Redacted text produced so far; resets the buffer. */
	take(): string {
		this._drain();
		const out = this._out.join('');
		this._out = [];
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
		if (this._block && !findKeyEnd(tail, this._block.putty)) {
			return '';
		}
		const prefix = tail.slice(0, linePrefixLength(tail));
		const body = tail.slice(prefix.length);
		// Half a key-body line: after a key body, or random-looking enough to be one.
		const partialKey =
			isBase64Piece(body) &&
			(this._inKey || this._run.length > 0 || (body.length >= 16 && hasUpperLowerDigit(body)));
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

	/** A line without a pending run: key blocks (any number in one line, in a loop), then the single-line rules. */
	private _plain(text: string, nl: string): void {
		const begins = new KeyBegins(text);
		let at = 0;
		for (let begin = begins.next(at); begin; begin = begins.next(at)) {
			this._rules(text.slice(at, begin.index), '');
			const label = begin.putty ? 'PuTTY private key' : 'private key';
			this.hits.push(label);
			this._emit(`[REDACTED ${label}]`);
			const end = findKeyEnd(text, begin.putty, begin.index + begin.text.length);
			if (!end) {
				this._block = { putty: begin.putty };
				return;
			}
			at = end.index + end.text.length;
		}
		this._rules(at === 0 ? text : text.slice(at), nl);
	}

	private _rules(text: string, nl: string): void {
		const body = trailingBody(text);
		if (body && looksLikeKeyBody(text.slice(body.start, body.end))) {
			const at = this._batchLength;
			this._batchSpans.push({
				start: at + body.start,
				end: at + body.end,
				label: 'key material',
				rank: KEY_RANK,
			});
		}
		this._batch.push(text, nl);
		this._batchLength += text.length + nl.length;
		if (this._batchLength >= BATCH) {
			this._drain();
		}
	}

	private _emit(text: string): void {
		this._drain();
		this._out.push(text);
	}

	private _drain(): void {
		if (!this._batchLength) return;
		const text = this._batch.join('');
		const spans = secretSpans(text, this._batchSpans);
		this._batch = [];
		this._batchLength = 0;
		this._batchSpans = [];
		let last = 0;
		for (const span of spans) {
			this._out.push(text.slice(last, span.start), `[REDACTED ${span.label}]`);
			this.hits.push(span.label);
			last = span.end;
		}
		this._out.push(last === 0 ? text : text.slice(last));
	}
}
