/**
 * Credential-shaped strings and the secrets Keel holds are cut out of everything Keel lets
 * out: tool and MCP results, the live output of a running command, previews on cards, tools
 * lent to other agents, history search passages, exports, Check Model's report and the log. A
 * secret read by a tool must not become a secret in the model's context, in the session
 * store, in a shared export or in the next fetch URL. One redactor for all of them
 * (redactLines.ts), its rules as data (redactRules.ts, from gitleaks and secretlint), its
 * cost linear in the text, and a version that yields to the event loop for long texts.
 */
import { LineRedactor, secretCoverage } from './redactLines';

export { entropy } from './redactLines';
export { holdSecret } from './heldSecrets';

export interface Redaction {
	text: string;
	/** Labels of what was cut, one per secret. */
	hits: string[];
}

/** A line longer than this is fed in pieces cut where no token runs, so one line never costs more than a piece at a time. */
const PIECE = 16 * 1024;
const PIECE_LOOKBACK = 1024;
/** The async redactor gives the event loop a turn after this long. */
const SLICE_MS = 20;

export function redactSecrets(text: string): Redaction {
	const run = new Redactor(text);
	while (run.step()) {
		// All at once.
	}
	return run.result();
}

/**
 * The same redaction, in slices of about 20 ms with a turn of the event loop between them:
 * for outputs long enough that redacting them at once would stall the extension host.
 */
export async function redactSecretsAsync(text: string): Promise<Redaction> {
	const run = new Redactor(text);
	let start = performance.now();
	while (run.step()) {
		if (performance.now() - start > SLICE_MS) {
			await new Promise(resolve => setImmediate(resolve));
			start = performance.now();
		}
	}
	return run.result();
}

/** One redaction of a whole text, a group of lines (or a piece of a long line) per step. */
class Redactor {
	private readonly _machine = new LineRedactor();
	private readonly _lines: string[];
	private _i = 0;
	/** Where the current long line has been fed up to. */
	private _piece = 0;

	constructor(text: string) {
		this._lines = text.split('\n');
	}

	/** Feeds the next line or piece; false when done. */
	step(): boolean {
		const lines = this._lines;
		const i = this._i;
		if (i >= lines.length) return false;
		const nl = i < lines.length - 1 ? '\n' : '';
		const line = lines[i];
		if (line.length - this._piece > PIECE) {
			const cut = pieceEnd(line, this._piece + PIECE);
			this._machine.line(line.slice(this._piece, cut), '');
			this._piece = cut;
			return true;
		}
		if (this._piece > 0) {
			this._machine.line(line.slice(this._piece), nl);
			this._piece = 0;
			this._i++;
			return true;
		}
		const group = [line];
		let last = i;
		while (last + 1 < lines.length && group.length < MAX_JOINED && continues(group, lines[last + 1])) {
			group.push(lines[++last]);
		}
		const end = last < lines.length - 1 ? '\n' : '';
		const joined = group.length > 1 ? joinedLine(group) : undefined;
		if (joined !== undefined && secretCoverage(joined) > group.reduce((n, l) => n + secretCoverage(l), 0)) {
			// A token cut in two by a line break (a `\` continuation, output wrapped at a fixed width) is one token.
			this._machine.line(joined, end);
		} else {
			group.forEach((l, k) =>
				k < group.length - 1 ? this._machine.line(l, '\n') : l || end ? this._machine.line(l, end) : undefined,
			);
		}
		this._i = last + 1;
		return true;
	}

	result(): Redaction {
		return { text: this._machine.finish(), hits: this._machine.hits };
	}
}

/** Where to end a piece of a long line: after a character no token holds, close before `at`; else at `at`. */
function pieceEnd(line: string, at: number): number {
	for (let i = at; i > at - PIECE_LOOKBACK; i--) {
		if (!isTokenCode(line.charCodeAt(i - 1))) return i;
	}
	return at;
}

const MAX_JOINED = 8;
/** Widths output is wrapped at (terminals, fold, base64, PEM, mail): a token broken there is broken by the wrap. */
const WRAP_WIDTHS = new Set([60, 64, 70, 72, 76, 78, 79, 80, 100, 120, 128, 132, 160, 200]);

/** [A-Za-z0-9_+/=.-]: what a token is made of. */
function isTokenCode(c: number): boolean {
	return (
		(c >= 48 && c <= 57) ||
		(c >= 65 && c <= 90) ||
		(c >= 97 && c <= 122) ||
		c === 95 ||
		c === 43 ||
		c === 47 ||
		c === 61 ||
		c === 46 ||
		c === 45
	);
}

/** The next line carries on the last one: after a `\` continuation, or a line broken mid-token at a wrapping width. */
function continues(group: string[], next: string): boolean {
	const last = group[group.length - 1];
	if (last.endsWith('\\')) {
		return true;
	}
	if (group.length !== 1 || !WRAP_WIDTHS.has(last.length) || !next.length || !isTokenCode(next.charCodeAt(0))) {
		return false;
	}
	for (let k = last.length - 4; k < last.length; k++) if (!isTokenCode(last.charCodeAt(k))) return false;
	return true;
}

function joinedLine(group: string[]): string {
	return group.map((line, k) => (k < group.length - 1 && line.endsWith('\\') ? line.slice(0, -1) : line)).join('');
}

/** A value judged together with its key only when it could be a secret's value, not a document. */
const PAIRED_VALUE = 4096;

/**
 * Structured values (MCP `structuredContent`, an export's events): every string redacted as
 * the text it holds, before it is serialized. In JSON a key body is one line of `\n` escapes
 * that no line-based shape would see. Walked with a stack of its own, not by recursion, so a
 * value nested a million deep is no deeper a call.
 */
export function redactDeep<T>(value: T): { value: T; hits: string[] } {
	const hits: string[] = [];
	const add = (more: readonly string[]) => {
		for (const hit of more) hits.push(hit);
	};
	const text = (s: string) => {
		const redacted = redactSecrets(s);
		add(redacted.hits);
		return redacted.text;
	};
	/** `{"password": "hunter2"}`: the value alone says nothing; judged with its key, as the same line in a file would be. */
	const inContext = (k: string, item: string): string => {
		const alone = redactSecrets(item);
		if (item.length <= PAIRED_VALUE && !item.includes('\n')) {
			// As JSON and as a config line (`api_key: "…"`): the rules know a secret's name in both.
			const paired = [`${JSON.stringify(k)}: ${JSON.stringify(item)}`, `${k}: ${JSON.stringify(item)}`]
				.map(line => redactSecrets(line))
				.reduce((a, b) => (b.hits.length > a.hits.length ? b : a));
			if (paired.hits.length > alone.hits.length) {
				add(paired.hits.slice(0, paired.hits.length - alone.hits.length));
				return `[REDACTED ${paired.hits[paired.hits.length - 1]}]`;
			}
		}
		add(alone.hits);
		return alone.text;
	};
	const root: { value?: unknown } = {};
	const stack: Array<{ from: unknown; put: (v: unknown) => void }> = [{ from: value, put: v => (root.value = v) }];
	while (stack.length) {
		const { from, put } = stack.pop()!;
		if (typeof from === 'string') {
			put(text(from));
		} else if (Array.isArray(from)) {
			const out: unknown[] = new Array(from.length);
			put(out);
			for (let i = from.length - 1; i >= 0; i--) stack.push({ from: from[i], put: v => (out[i] = v) });
		} else if (from && typeof from === 'object') {
			const out: Record<string, unknown> = {};
			put(out);
			const taken = new Map<string, number>();
			for (const [k, item] of Object.entries(from)) {
				// A key is text the model reads too; a secret used as a key is cut like any other.
				let key = text(k);
				if (key !== k && key in out) {
					const n = (taken.get(key) ?? 0) + 1;
					taken.set(key, n);
					key = `${key}′${n}`;
				}
				if (typeof item === 'string') out[key] = inContext(k, item);
				else {
					// The key takes its place now, so the object keeps its order; the value follows.
					out[key] = undefined;
					stack.push({ from: item, put: v => (out[key] = v) });
				}
			}
		} else {
			put(from);
		}
	}
	return { value: root.value as T, hits };
}

/** A card's preview of a change (diff and both sides), redacted like any output, a slice at a time. */
export async function redactPreview<T extends { unified: string; before?: string; after?: string }>(
	diff: T,
): Promise<T> {
	const out = { ...diff, unified: (await redactSecretsAsync(diff.unified)).text };
	if (diff.before !== undefined) out.before = (await redactSecretsAsync(diff.before)).text;
	if (diff.after !== undefined) out.after = (await redactSecretsAsync(diff.after)).text;
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
		while (this._pending.length > HOLD) {
			// Cut at whitespace well before the end (tokens do not hold spaces), looking back a bounded way.
			const target = this._pending.length - LOOKBACK;
			const space = this._pending.slice(target - LOOKBACK, target).lastIndexOf(' ');
			const at = space >= 0 ? target - LOOKBACK + space + 1 : target;
			this._machine.line(this._pending.slice(0, at), '');
			this._pending = this._pending.slice(at);
		}
		// Strings join as ropes: adding to the stream so far does not copy it.
		this._committed += this._machine.take();
		return this._committed + this._machine.preview(this._pending);
	}
}
