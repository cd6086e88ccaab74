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
	let i = 0;
	/** Whether `(?i)` is on, per open group. */
	const ci: boolean[] = [false];
	const letter = (c: string): Node => {
		if (!cased) return { t: 'lit', s: c.toLowerCase() };
		const lower = c.toLowerCase();
		const upper = c.toUpperCase();
		return ci[ci.length - 1] && lower !== upper ? { t: 'class', chars: [lower, upper] } : { t: 'lit', s: c };
	};
	const peek = () => source[i];
	const alt = (): Node => {
		const branches: Node[] = [cat()];
		while (peek() === '|') {
			i++;
			branches.push(cat());
		}
		return branches.length === 1 ? branches[0] : { t: 'alt', branches };
	};
	const cat = (): Node => {
		const items: Node[] = [];
		while (i < source.length && peek() !== '|' && peek() !== ')') {
			let atom = single();
			atom = quantified(atom);
			items.push(atom);
		}
		return { t: 'cat', items };
	};
	const quantified = (atom: Node): Node => {
		for (;;) {
			const c = peek();
			let min: number;
			let max: number;
			if (c === '*') [min, max] = [0, Infinity];
			else if (c === '+') [min, max] = [1, Infinity];
			else if (c === '?') [min, max] = [0, 1];
			else if (c === '{' && /^\{\d+(?:,\d*)?\}/.test(source.slice(i))) {
				const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(source.slice(i))!;
				min = Number(m[1]);
				max = m[2] ? (m[3] ? Number(m[3]) : Infinity) : min;
				i += m[0].length - 1;
			} else return atom;
			i++;
			if (peek() === '?') i++; // lazy: same language
			atom = { t: 'rep', node: atom, min, max };
		}
	};
	const single = (): Node => {
		const c = source[i++];
		if (c === '(') {
			let on = ci[ci.length - 1];
			if (/^\?<?[=!]/.test(source.slice(i, i + 3))) {
				// A lookaround: zero-width, it promises nothing about the characters a match holds.
				i += source[i + 1] === '<' ? 3 : 2;
				alt();
				if (source[i++] !== ')') throw new Error(`unbalanced group in ${source}`);
				return { t: 'assert' };
			}
			if (source.startsWith('?', i)) {
				// (?:…), (?i:…), (?P<name>…), (?<name>…), or a bare flag group (?i) / (?-i).
				const flags = /^\?(?:P?<[^>]+>|([a-zA-Z]*)(?:-([a-zA-Z]*))?(:|\)))/.exec(source.slice(i));
				if (!flags) throw new Error(`unsupported group at ${i} in ${source}`);
				i += flags[0].length;
				if (flags[1]?.includes('i')) on = true;
				if (flags[2]?.includes('i')) on = false;
				if (flags[3] === ')') {
					ci[ci.length - 1] = on;
					return { t: 'assert' };
				}
			}
			ci.push(on);
			const inner = alt();
			ci.pop();
			if (source[i++] !== ')') throw new Error(`unbalanced group in ${source}`);
			return inner;
		}
		if (c === '[') return charClass();
		if (c === '.') return { t: 'class', chars: undefined };
		if (c === '^' || c === '$') return { t: 'assert' };
		if (c === '\\') return escape();
		return letter(c);
	};
	const escape = (): Node => {
		const c = source[i++];
		if ('bBAzZ'.includes(c)) return { t: 'assert' };
		if ('dDwWsShHvV'.includes(c)) return { t: 'class', chars: undefined };
		if (c === 'x') {
			const hex = source[i] === '{' ? /^\{([0-9a-fA-F]+)\}/.exec(source.slice(i))! : /^[0-9a-fA-F]{2}/.exec(source.slice(i))!;
			i += hex[0].length;
			return letter(String.fromCodePoint(parseInt(hex[1] ?? hex[0], 16)));
		}
		if (c === 'p' || c === 'P') {
			i += source[i] === '{' ? source.indexOf('}', i) - i + 1 : 1;
			return { t: 'class', chars: undefined };
		}
		if (c === 'n') return { t: 'lit', s: '\n' };
		if (c === 'r') return { t: 'lit', s: '\r' };
		if (c === 't') return { t: 'lit', s: '\t' };
		return letter(c);
	};
	const charClass = (): Node => {
		const chars = new Set<string>();
		let negated = false;
		let open = true;
		if (source[i] === '^') {
			negated = true;
			i++;
		}
		let first = true;
		while (i < source.length && (first || source[i] !== ']')) {
			first = false;
			let c = source[i++];
			if (c === '[' && source[i] === ':') {
				i = source.indexOf(':]', i) + 2;
				open = false;
				continue;
			}
			if (c === '\\') {
				const e = source[i++];
				if ('dDwWsS'.includes(e) || e === 'p' || e === 'P') {
					open = false;
					if (e === 'p' || e === 'P') i += source[i] === '{' ? source.indexOf('}', i) - i + 1 : 1;
					continue;
				}
				c = e === 'x' ? String.fromCharCode(parseInt(source.slice(i, (i += 2)), 16)) : e === 't' ? '\t' : e === 'n' ? '\n' : e === 'r' ? '\r' : e;
			}
			if (source[i] === '-' && source[i + 1] !== ']') {
				i++;
				let to = source[i++];
				if (to === '\\') to = source[i++];
				const span = to.charCodeAt(0) - c.charCodeAt(0);
				if (span > MAX_CLASS) open = false;
				else for (let k = 0; k <= span; k++) chars.add(String.fromCharCode(c.charCodeAt(0) + k));
				continue;
			}
			chars.add(c);
		}
		i++;
		const folded = new Set([...chars].flatMap(ch => (!cased ? [ch.toLowerCase()] : ci[ci.length - 1] ? [ch.toLowerCase(), ch.toUpperCase()] : [ch])));
		return { t: 'class', chars: negated || !open || folded.size > MAX_CLASS ? undefined : [...folded] };
	};
	const node = alt();
	if (i < source.length) throw new Error(`unparsed tail at ${i} in ${source}`);
	return node;
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
		default:
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
				const inner = item.t === 'alt' ? alternatives(item) : item.t === 'cat' ? leadingLiterals(item) : undefined;
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
		case 'rep':
			if (node.max === 0) return 0;
			const one = maxLength(node.node);
			return one === 0 ? 0 : node.max * one;
	}
}
