/**
 * Where any of many keywords occur in a text, in one pass (Aho–Corasick, as gitleaks does):
 * the redactor runs a rule only where one of its keywords is, so the cost of a text is one
 * scan plus the few places that look like a secret. Keywords are ASCII and case-folded; "…"
 * (the mark Keel puts where it cut a text) is a keyword too. The automaton is a full
 * transition table, so each character costs one array read whatever the keywords are.
 */

/** The symbols the table has columns for: ASCII (case-folded), "…", and everything else. */
const ELLIPSIS = 128;
const OTHER = 129;
const WIDTH = 130;

function symbol(code: number): number {
	if (code < 128) return code >= 65 && code <= 90 ? code + 32 : code;
	return code === 0x2026 ? ELLIPSIS : OTHER;
}

export interface KeywordHit {
	/** Index of the keyword in the list given to the constructor. */
	keyword: number;
	start: number;
	end: number;
}

export class KeywordIndex {
	private readonly _next: Int32Array;
	/** Per state, the keywords that end there (its own and those of its suffix states). */
	private readonly _out: number[][];

	constructor(readonly keywords: readonly string[]) {
		const goto: Array<Map<number, number>> = [new Map()];
		const own: number[][] = [[]];
		keywords.forEach((keyword, index) => {
			let state = 0;
			for (let i = 0; i < keyword.length; i++) {
				const c = symbol(keyword.charCodeAt(i));
				let next = goto[state].get(c);
				if (next === undefined) {
					next = goto.length;
					goto.push(new Map());
					own.push([]);
					goto[state].set(c, next);
				}
				state = next;
			}
			if (keyword.length) own[state].push(index);
		});
		this._next = new Int32Array(goto.length * WIDTH);
		this._out = own.map(list => [...list]);
		const fail = new Int32Array(goto.length);
		// Breadth first: a state's failure state is shallower, so its row is complete when read.
		const queue: number[] = [];
		for (let c = 0; c < WIDTH; c++) {
			const next = goto[0].get(c) ?? 0;
			this._next[c] = next;
			if (next) queue.push(next);
		}
		for (let head = 0; head < queue.length; head++) {
			const state = queue[head];
			this._out[state].push(...this._out[fail[state]].filter(k => !this._out[state].includes(k)));
			for (let c = 0; c < WIDTH; c++) {
				const next = goto[state].get(c);
				if (next === undefined) {
					this._next[state * WIDTH + c] = this._next[fail[state] * WIDTH + c];
				} else {
					fail[next] = this._next[fail[state] * WIDTH + c];
					this._next[state * WIDTH + c] = next;
					queue.push(next);
				}
			}
		}
	}

	/** Whether any keyword occurs in `text`. */
	occursIn(text: string): boolean {
		let state = 0;
		for (let i = 0; i < text.length; i++) {
			state = this._next[state * WIDTH + symbol(text.charCodeAt(i))];
			if (this._out[state].length) return true;
		}
		return false;
	}

	/** Every occurrence of every keyword in `text[from, to)`, in order of where they end. */
	find(text: string, from = 0, to = text.length): KeywordHit[] {
		const hits: KeywordHit[] = [];
		const next = this._next;
		const out = this._out;
		let state = 0;
		for (let i = from; i < to; i++) {
			state = next[state * WIDTH + symbol(text.charCodeAt(i))];
			const found = out[state];
			if (found.length) {
				for (const keyword of found) {
					hits.push({ keyword, start: i + 1 - this.keywords[keyword].length, end: i + 1 });
				}
			}
		}
		return hits;
	}
}
