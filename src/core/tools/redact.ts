/**
 * Credential-shaped strings are cut out of everything Keel lets out: tool and MCP results,
 * the live output of a running command, previews on cards, tools lent to other agents,
 * history search passages and exports. A secret read by a tool must not become a secret in
 * the model's context, in the session store, in a shared export or in the next fetch URL.
 * One redactor for all of them (redactLines.ts), its shapes as data (redactRules.ts).
 */
import { LineRedactor } from './redactLines';

export { entropy } from './redactLines';

export interface Redaction {
	text: string;
	/** Labels of what was cut, one per secret. */
	hits: string[];
}

export function redactSecrets(text: string): Redaction {
	const machine = new LineRedactor();
	let from = 0;
	for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
		machine.line(text.slice(from, nl), '\n');
		from = nl + 1;
	}
	if (from < text.length) {
		machine.line(text.slice(from), '');
	}
	return { text: machine.finish(), hits: machine.hits };
}

/**
 * Structured values (MCP `structuredContent`, an export's events): every string redacted as
 * the text it holds, before it is serialized. In JSON a key body is one line of `\n` escapes
 * that no line-based shape would see.
 */
export function redactDeep<T>(value: T): { value: T; hits: string[] } {
	const hits: string[] = [];
	const walk = (v: unknown): unknown => {
		if (typeof v === 'string') {
			const redacted = redactSecrets(v);
			hits.push(...redacted.hits);
			return redacted.text;
		}
		if (Array.isArray(v)) {
			return v.map(walk);
		}
		if (v && typeof v === 'object') {
			return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item)]));
		}
		return v;
	};
	return { value: walk(value) as T, hits };
}

/** A card's preview of a change (diff and both sides), redacted like any output. */
export function redactPreview<T extends { unified: string; before?: string; after?: string }>(diff: T): T {
	const out = { ...diff, unified: redactSecrets(diff.unified).text };
	if (diff.before !== undefined) out.before = redactSecrets(diff.before).text;
	if (diff.after !== undefined) out.after = redactSecrets(diff.after).text;
	return out;
}

/** The one-line note appended so the model knows the gap is deliberate (and does not retry to "fix" it). */
export function redactionNote(hits: string[]): string {
	const kinds = [...new Set(hits)].join(', ');
	return `[Keel redacted ${hits.length} credential-shaped string${hits.length === 1 ? '' : 's'} (${kinds}) from this output. Do not try to recover them.]`;
}

/** Above this, a line still without its end is shown up to a cut, so one long line cannot make every chunk cost its length. */
const HOLD = 8192;
const LOOKBACK = 1024;

/**
 * A live stream (a running command's output) redacted as it arrives, at a cost linear in
 * its size: each complete line goes through the redactor once; only the unfinished end (at
 * most HOLD characters, plus key-body lines not yet decided) is redacted again per chunk, as
 * if the stream were cut there, so a token arriving in two pieces never shows its first half.
 */
export class StreamRedactor {
	private readonly _machine = new LineRedactor();
	private _committed = '';
	private _pending = '';

	/** Adds a chunk; returns the whole stream so far, redacted. */
	push(chunk: string): string {
		this._pending += chunk;
		let nl = this._pending.indexOf('\n');
		let from = 0;
		while (nl !== -1) {
			this._machine.line(this._pending.slice(from, nl), '\n');
			from = nl + 1;
			nl = this._pending.indexOf('\n', from);
		}
		this._pending = this._pending.slice(from);
		if (this._pending.length > HOLD) {
			// Cut at whitespace well before the end: tokens do not hold spaces.
			const space = this._pending.lastIndexOf(' ', this._pending.length - LOOKBACK);
			const at = space > 0 ? space + 1 : this._pending.length - LOOKBACK;
			this._machine.line(this._pending.slice(0, at), '');
			this._pending = this._pending.slice(at);
		}
		this._committed += this._machine.take();
		return this._committed + this._preview();
	}

	private _preview(): string {
		return this._machine.preview(this._pending);
	}
}
