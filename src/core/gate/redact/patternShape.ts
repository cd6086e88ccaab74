/**
 * What a rule's pattern promises about the text it matches, worked out from the pattern
 * itself (RE2 syntax, as gitleaks writes it): the literals every match contains (the keywords
 * that let the redactor skip text with none of them), the literals every match starts with
 * (so it can be tried only where one occurs) and the longest a match can be (so it is tried
 * on no more text than that). Runs on the rules' own patterns (at generation time, and once
 * per rule at run time), never on text Keel redacts.
 */

export type Node =
	| { t: 'lit'; s: string }
	| { t: 'class'; chars: string[] | undefined }
	| { t: 'assert' }
	| { t: 'cat'; items: Node[] }
	| { t: 'alt'; branches: Node[] }
	| { t: 'rep'; node: Node; min: number; max: number };

/**
 * A literal set is useful when small; a class of more characters than this is "any". The
 * generator uses these; a check of what a pattern promises may widen them (`widen`).
 */
let MAX_SET = 24;
let MAX_CLASS = 6;

/** Runs `fn` with wider limits: a class of up to 26 characters and sets of up to 64 literals are spelled out. */
export function widen<T>(fn: () => T): T {
	const saved = [MAX_SET, MAX_CLASS];
	[MAX_SET, MAX_CLASS] = [64, 26];
	try {
		return fn();
	} finally {
		[MAX_SET, MAX_CLASS] = saved;
	}
}

/**
 * The pattern as a tree. `cased`: letters keep their case (a letter under `(?i)` becomes the
 * class of both cases), for the exact-case starts; otherwise everything is case-folded.
 */
export function parsePattern(source: string, cased = false): Node {
	return new PatternParser(source, cased).parse();
}

/** A recursive-descent reading of a rule's pattern (trusted text, a few hundred characters). */
class PatternParser {
	private i = 0;
	/** Whether `(?i)` is on, per open group. */
	private readonly ci: boolean[] = [false];

	constructor(
		private readonly source: string,
		private readonly cased: boolean,
	) {}

	parse(): Node {
		const node = this.alt();
		if (this.i < this.source.length) throw new Error(`unparsed tail at ${this.i} in ${this.source}`);
		return node;
	}

	private letter(c: string): Node {
		if (!this.cased) return { t: 'lit', s: c.toLowerCase() };
		const lower = c.toLowerCase();
		const upper = c.toUpperCase();
		return this.ci[this.ci.length - 1] && lower !== upper
			? { t: 'class', chars: [lower, upper] }
			: { t: 'lit', s: c };
	}

	private alt(): Node {
		const branches: Node[] = [this.cat()];
		while (this.source[this.i] === '|') {
			this.i++;
			branches.push(this.cat());
		}
		return branches.length === 1 ? branches[0] : { t: 'alt', branches };
	}

	private cat(): Node {
		const items: Node[] = [];
		while (this.i < this.source.length && this.source[this.i] !== '|' && this.source[this.i] !== ')') {
			items.push(this.quantified(this.single()));
		}
		return { t: 'cat', items };
	}

	private quantified(atom: Node): Node {
		const source = this.source;
		for (;;) {
			const c = source[this.i];
			let min: number;
			let max: number;
			const counted = /^\{(\d+)(?:(,)(\d*))?\}/.exec(source.slice(this.i, this.i + 16));
			if (c === '*') [min, max] = [0, Infinity];
			else if (c === '+') [min, max] = [1, Infinity];
			else if (c === '?') [min, max] = [0, 1];
			else if (c === '{' && counted) {
				min = Number(counted[1]);
				max = counted[2] ? (counted[3] ? Number(counted[3]) : Infinity) : min;
				this.i += counted[0].length - 1;
			} else return atom;
			this.i++;
			if (source[this.i] === '?') this.i++; // lazy: same language
			atom = { t: 'rep', node: atom, min, max };
		}
	}

	private single(): Node {
		const c = this.source[this.i++];
		if (c === '(') return this.group();
		if (c === '[') return this.charClass();
		if (c === '.') return { t: 'class', chars: undefined };
		if (c === '^' || c === '$') return { t: 'assert' };
		if (c === '\\') return this.escape();
		return this.letter(c);
	}

	private group(): Node {
		const source = this.source;
		let on = this.ci[this.ci.length - 1];
		if (/^\?<?[=!]/.test(source.slice(this.i, this.i + 3))) {
			// A lookaround: zero-width, it promises nothing about the characters a match holds.
			this.i += source[this.i + 1] === '<' ? 3 : 2;
			this.alt();
			this.close();
			return { t: 'assert' };
		}
		if (source.startsWith('?', this.i)) {
			// (?:…), (?i:…), (?P<name>…), (?<name>…), or a bare flag group (?i) / (?-i).
			const flags = /^\?(?:P?<[^>]+>|([a-zA-Z]*)(?:-([a-zA-Z]*))?(:|\)))/.exec(source.slice(this.i));
			if (!flags) throw new Error(`unsupported group at ${this.i} in ${source}`);
			this.i += flags[0].length;
			if (flags[1]?.includes('i')) on = true;
			if (flags[2]?.includes('i')) on = false;
			if (flags[3] === ')') {
				this.ci[this.ci.length - 1] = on;
				return { t: 'assert' };
			}
		}
		this.ci.push(on);
		const inner = this.alt();
		this.ci.pop();
		this.close();
		return inner;
	}

	private close(): void {
		if (this.source[this.i++] !== ')') throw new Error(`unbalanced group in ${this.source}`);
	}

	private escape(): Node {
		const source = this.source;
		const c = source[this.i++];
		if ('bBAzZ'.includes(c)) return { t: 'assert' };
		if ('dDwWsShHvV'.includes(c)) return { t: 'class', chars: undefined };
		if (c === 'x') {
			const hex =
				source[this.i] === '{'
					? /^\{([0-9a-fA-F]+)\}/.exec(source.slice(this.i))
					: /^[0-9a-fA-F]{2}/.exec(source.slice(this.i));
			if (!hex) throw new Error(`bad \\x escape at ${this.i} in ${source}`);
			this.i += hex[0].length;
			return this.letter(String.fromCodePoint(parseInt(hex[1] ?? hex[0], 16)));
		}
		if (c === 'p' || c === 'P') {
			this.i += source[this.i] === '{' ? source.indexOf('}', this.i) - this.i + 1 : 1;
			return { t: 'class', chars: undefined };
		}
		if (c === 'n') return { t: 'lit', s: '\n' };
		if (c === 'r') return { t: 'lit', s: '\r' };
		if (c === 't') return { t: 'lit', s: '\t' };
		return this.letter(c);
	}

	/** One character of a class, its escapes decoded; undefined for a set escape (\\d, \\w, \\p{…}) that makes the class open. */
	private classChar(): string | undefined {
		const source = this.source;
		const c = source[this.i++];
		if (c !== '\\') return c;
		const e = source[this.i++];
		if ('dDwWsS'.includes(e)) return undefined;
		if (e === 'p' || e === 'P') {
			this.i += source[this.i] === '{' ? source.indexOf('}', this.i) - this.i + 1 : 1;
			return undefined;
		}
		if (e === 'x') return String.fromCharCode(parseInt(source.slice(this.i, (this.i += 2)), 16));
		return e === 't' ? '\t' : e === 'n' ? '\n' : e === 'r' ? '\r' : e;
	}

	private charClass(): Node {
		const source = this.source;
		const chars = new Set<string>();
		let open = false;
		const negated = source[this.i] === '^';
		if (negated) this.i++;
		let first = true;
		while (this.i < source.length && (first || source[this.i] !== ']')) {
			first = false;
			if (source.startsWith('[:', this.i)) {
				this.i = source.indexOf(':]', this.i) + 2;
				open = true;
				continue;
			}
			const c = this.classChar();
			if (c === undefined) {
				open = true;
				continue;
			}
			if (source[this.i] === '-' && source[this.i + 1] !== ']') {
				this.i++;
				const to = this.classChar() ?? c;
				const span = to.charCodeAt(0) - c.charCodeAt(0);
				if (span > MAX_CLASS) open = true;
				else for (let k = 0; k <= span; k++) chars.add(String.fromCharCode(c.charCodeAt(0) + k));
				continue;
			}
			chars.add(c);
		}
		this.i++;
		const on = this.ci[this.ci.length - 1];
		const folded = new Set(
			[...chars].flatMap(ch =>
				!this.cased ? [ch.toLowerCase()] : on ? [ch.toLowerCase(), ch.toUpperCase()] : [ch],
			),
		);
		return { t: 'class', chars: negated || open || folded.size > MAX_CLASS ? undefined : [...folded] };
	}
}

/** Every string the node matches, when that is a small set (case folded). */
function exact(node: Node): string[] | undefined {
	switch (node.t) {
		case 'lit':
			return [node.s];
		case 'class':
			return node.chars;
		case 'assert':
			return [''];
		case 'cat': {
			let out = [''];
			for (const item of node.items) {
				const part = exact(item);
				if (!part) return undefined;
				out = cross(out, part);
				if (out.length > MAX_SET) return undefined;
			}
			return out;
		}
		case 'alt': {
			const all = new Set<string>();
			for (const branch of node.branches) {
				const part = exact(branch);
				if (!part) return undefined;
				part.forEach(s => all.add(s));
			}
			return all.size > MAX_SET ? undefined : [...all];
		}
		case 'rep': {
			if (node.max === Infinity || node.max > 4) return undefined;
			const part = exact(node.node);
			if (!part) return undefined;
			let out: string[] = [];
			for (let n = node.min; n <= node.max; n++) {
				let run = [''];
				for (let k = 0; k < n; k++) run = cross(run, part);
				out = [...out, ...run];
				if (out.length > MAX_SET) return undefined;
			}
			return [...new Set(out)];
		}
	}
}

function cross(a: string[], b: string[]): string[] {
	return [...new Set(a.flatMap(x => b.map(y => x + y)))];
}

/** A set's worth as keywords: its shortest member (longer is rarer in text), then fewer members. */
function better(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
	if (!a || !a.length) return b;
	if (!b || !b.length) return a;
	const la = Math.min(...a.map(s => s.length));
	const lb = Math.min(...b.map(s => s.length));
	return lb > la || (lb === la && b.length < a.length) ? b : a;
}

/**
 * Literals of which every match holds at least one (lowercase), or undefined when the
 * pattern promises none: the keywords for a rule that names none.
 */
export function requiredLiterals(node: Node): string[] | undefined {
	const whole = exact(node);
	if (whole && whole.every(s => s.length > 0)) return whole;
	switch (node.t) {
		case 'cat': {
			let best: string[] | undefined;
			let run: string[] = [''];
			const close = () => {
				if (run.every(s => s.length > 0)) best = better(best, run);
				run = [''];
			};
			for (const item of node.items) {
				const part = exact(item);
				if (part && cross(run, part).length <= MAX_SET) {
					run = cross(run, part);
					continue;
				}
				close();
				best = better(best, requiredLiterals(item));
			}
			close();
			return best;
		}
		case 'alt': {
			const sets = node.branches.map(requiredLiterals);
			if (sets.some(s => !s)) return undefined;
			const all = [...new Set(sets.flatMap(s => s!))];
			return all.length > MAX_SET * 2 ? undefined : all;
		}
		case 'rep':
			return node.min > 0 ? requiredLiterals(node.node) : undefined;
		case 'lit':
		case 'class':
		case 'assert':
			return undefined;
	}
}

/** The literal starts every match has (lowercase), or undefined when a match can start anywhere. */
export function leadingLiterals(node: Node): string[] | undefined {
	const items = node.t === 'cat' ? node.items : [node];
	let run = [''];
	for (const item of items) {
		const part = exact(item);
		if (!part || cross(run, part).length > MAX_SET) {
			if (run.every(s => s === '') && item.t !== 'lit') {
				// A group first: its own starts, if it has them.
				const inner =
					item.t === 'alt' ? alternatives(item) : item.t === 'cat' ? leadingLiterals(item) : undefined;
				return inner && inner.every(s => s.length > 0) ? inner : undefined;
			}
			break;
		}
		run = cross(run, part);
	}
	return run.every(s => s.length > 0) ? run : undefined;
}

function alternatives(node: Extract<Node, { t: 'alt' }>): string[] | undefined {
	const out: string[] = [];
	for (const branch of node.branches) {
		const starts = leadingLiterals(branch);
		if (!starts) return undefined;
		out.push(...starts);
	}
	return out;
}

/** The most characters a match can hold (Infinity when unbounded). */
export function maxLength(node: Node): number {
	switch (node.t) {
		case 'lit':
			return node.s.length;
		case 'class':
			return 1;
		case 'assert':
			return 0;
		case 'cat':
			return node.items.reduce((sum, item) => sum + maxLength(item), 0);
		case 'alt':
			return Math.max(...node.branches.map(maxLength));
		case 'rep': {
			if (node.max === 0) return 0;
			const one = maxLength(node.node);
			return one === 0 ? 0 : node.max * one;
		}
	}
}
