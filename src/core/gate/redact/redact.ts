/**
 * Credential-shaped strings are cut out of everything Keel lets out: tool and MCP results,
 * the live output of a running command, previews on cards, tools lent to other agents,
 * history search passages and exports. A secret read by a tool must not become a secret in
 * the model's context, in the session store, in a shared export or in the next fetch URL.
 * One redactor for all of them (redactLines.ts), its shapes as data (redactRules.ts).
 */
import { LineRedactor, secretCoverage } from './redactLines';

export { entropy } from './redactLines';

export interface Redaction {
	text: string;
	/** Labels of what was cut, one per secret. */
	hits: string[];
}

export function redactSecrets(text: string): Redaction {
	const machine = new LineRedactor();
	const lines = text.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const group = [lines[i]];
		while (i + 1 < lines.length && group.length < MAX_JOINED && continues(group, lines[i + 1])) {
			group.push(lines[++i]);
		}
		const nl = i < lines.length - 1 ? '\n' : '';
		const joined = group.length > 1 ? joinedLine(group) : undefined;
		if (joined !== undefined && secretCoverage(joined) > group.reduce((n, l) => n + secretCoverage(l), 0)) {
			// A token cut in two by a line break (a `\` continuation, output wrapped at a fixed width) is one token.
			machine.line(joined, nl);
			continue;
		}
		group.forEach((line, k) =>
			k < group.length - 1 ? machine.line(line, '\n') : line || nl ? machine.line(line, nl) : undefined,
		);
	}
	return { text: machine.finish(), hits: machine.hits };
}

const MAX_JOINED = 8;
const TOKEN_END = /[A-Za-z0-9_+/=.-]{4}$/;
const TOKEN_START = /^[A-Za-z0-9_+/=.-]/;
/** Widths output is wrapped at (terminals, fold, base64, PEM, mail): a token broken there is broken by the wrap. */
const WRAP_WIDTHS = new Set([60, 64, 70, 72, 76, 78, 79, 80, 100, 120, 128, 132, 160, 200]);

/** The next line carries on the last one: after a `\` continuation, or a line broken mid-token at a wrapping width. */
function continues(group: string[], next: string): boolean {
	const last = group[group.length - 1];
	if (last.endsWith('\\')) {
		return true;
	}
	return group.length === 1 && WRAP_WIDTHS.has(last.length) && TOKEN_END.test(last) && TOKEN_START.test(next);
}

function joinedLine(group: string[]): string {
	return group.map((line, k) => (k < group.length - 1 && line.endsWith('\\') ? line.slice(0, -1) : line)).join('');
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
			const out: Record<string, unknown> = {};
			for (const [k, item] of Object.entries(v)) {
				// A key is text the model reads too; a secret used as a key is cut like any other.
				let key = walk(k) as string;
				while (key !== k && key in out) key += '′';
				out[key] = typeof item === 'string' ? inContext(k, item) : walk(item);
			}
			return out;
		}
		return v;
	};
	/** `{"password": "hunter2"}`: the value alone says nothing; judged with its key, as the same line in a file would be. */
	const inContext = (k: string, item: string): string => {
		const alone = redactSecrets(item);
		// As JSON and as a config line (`api_key: "…"`): the rules know a secret's name in both.
		const paired = [`${JSON.stringify(k)}: ${JSON.stringify(item)}`, `${k}: ${JSON.stringify(item)}`]
			.map(line => redactSecrets(line))
			.reduce((a, b) => (b.hits.length > a.hits.length ? b : a));
		if (!item.includes('\n') && paired.hits.length > alone.hits.length) {
			hits.push(...paired.hits.slice(0, paired.hits.length - alone.hits.length));
			return `[REDACTED ${paired.hits[paired.hits.length - 1]}]`;
		}
		hits.push(...alone.hits);
		return alone.text;
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
