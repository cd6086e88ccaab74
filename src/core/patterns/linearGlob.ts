/**
 * Path globs a user or a workspace writes (permission rules), matched in linear time: the glob
 * is translated to an RE2 pattern (linearRegex.ts) instead of a backtracking one, so a rule
 * such as `*a*a*a*a*a*a*b` cannot freeze the extension host on a long path. The syntax is
 * picomatch's with `dot: true`: `*`, `?`, `**` as a whole segment, `[…]`/`[!…]`, `{a,b}`,
 * `{1..3}`, the extglobs `@(…)`, `?(…)`, `+(…)`, `*(…)`, `\` escapes and a leading `!` that
 * negates the whole glob. `!(…)` inside a glob needs lookaround and is refused with a message.
 */
import { linearRegex, quoteLiteral, UnsupportedPattern } from './linearRegex';

export interface GlobMatcher {
	(path: string): boolean;
}

const EXTGLOB: Record<string, string> = { '@': '', '?': '?', '+': '+', '*': '*' };
const cache = new Map<string, GlobMatcher>();

/** A matcher for `glob`, or throws UnsupportedPattern naming what it cannot run. */
export function linearGlob(glob: string, options: { nocase?: boolean } = {}): GlobMatcher {
	const key = `${options.nocase ? 'i' : ''}/${glob}`;
	const cached = cache.get(key);
	if (cached) {
		return cached;
	}
	const negated = /^!(?!\()/.test(glob);
	// A leading `./` names the same path (picomatch drops it too).
	const body = (negated ? glob.slice(1) : glob).replace(/^(?:\.\/)+/, '');
	const regex = linearRegex(`^(?:${translate(body, glob)})$`, { ignoreCase: options.nocase, dotAll: true });
	const matcher: GlobMatcher = path => regex.test(path) !== negated;
	if (cache.size >= 500) {
		cache.delete(cache.keys().next().value!);
	}
	cache.set(key, matcher);
	return matcher;
}

const unions = new Map<string, GlobMatcher | null>();

/**
 * One matcher for "any of `globs`": their patterns joined into one RE2 program, so a path is
 * read once instead of once per glob (a policy of seventy globs costs about as much as one).
 * It matches exactly when one of `linearGlob(glob)` would. Undefined when a glob cannot join:
 * a negated one (`!…` inverts only itself) or one the engine cannot run; the caller then
 * matches each on its own, with its own rule for what cannot run.
 */
export function linearGlobUnion(globs: readonly string[], options: { nocase?: boolean } = {}): GlobMatcher | undefined {
	const key = `${options.nocase ? 'i' : ''}\0${globs.join('\0')}`;
	let union = unions.get(key);
	if (union === undefined) {
		union = unionOf(globs, options) ?? null;
		if (unions.size >= 100) {
			unions.delete(unions.keys().next().value!);
		}
		unions.set(key, union);
	}
	return union ?? undefined;
}

function unionOf(globs: readonly string[], options: { nocase?: boolean }): GlobMatcher | undefined {
	if (globs.length === 0 || globs.some(glob => /^!(?!\()/.test(glob))) {
		return undefined;
	}
	try {
		const parts = globs.map(glob => `(?:${translate(glob.replace(/^(?:\.\/)+/, ''), glob)})`);
		const regex = linearRegex(`^(?:${parts.join('|')})$`, { ignoreCase: options.nocase, dotAll: true });
		return path => regex.test(path);
	} catch (error) {
		if (error instanceof UnsupportedPattern) {
			return undefined;
		}
		throw error;
	}
}

/** The RE2 source for a glob (without anchors). `whole` is the glob as written, for messages. */
export function translate(glob: string, whole = glob): string {
	let out = '';
	let i = 0;
	const atSegmentStart = (at: number) => at === 0 || glob[at - 1] === '/';
	while (i < glob.length) {
		const c = glob[i];
		if (c === '\\' && i + 1 < glob.length) {
			out += quoteLiteral(glob[i + 1]);
			i += 2;
		} else if (
			c === '*' &&
			glob[i + 1] === '*' &&
			atSegmentStart(i) &&
			(i + 2 === glob.length || glob[i + 2] === '/')
		) {
			// `**` as a whole segment: any number of segments, none included.
			if (glob[i + 2] === '/') {
				out += '(?:.*/)?';
				i += 3;
			} else if (out.endsWith('/')) {
				// `x/**` also matches `x` itself.
				out = `${out.slice(0, -1)}(?:/.*)?`;
				i += 2;
			} else {
				out += '.*';
				i += 2;
			}
		} else if (c in EXTGLOB && glob[i + 1] === '(') {
			const end = closing(glob, i + 1);
			if (end < 0) {
				out += quoteLiteral(c);
				i++;
				continue;
			}
			const inner = split(glob.slice(i + 2, end), '|').map(part => translate(part, whole));
			out += `(?:${inner.join('|')})${EXTGLOB[c]}`;
			i = end + 1;
		} else if (c === '!' && glob[i + 1] === '(') {
			throw new UnsupportedPattern(
				whole,
				'uses a negated extglob "!(…)", which needs lookaround; list what should match instead (or use a deny rule for what should not)',
			);
		} else if (c === '*') {
			out += '[^/]*';
			i++;
			while (glob[i] === '*') i++;
		} else if (c === '?') {
			out += '[^/]';
			i++;
		} else if (c === '[' || c === '{') {
			// A bracket that does not open a class or a brace list is a literal character.
			const part = c === '[' ? translateClass(glob, i) : translateBraces(glob, i, whole);
			out += part?.source ?? `\\${c}`;
			i = part?.next ?? i + 1;
		} else {
			out += quoteLiteral(c);
			i++;
		}
	}
	return out;
}

/** What a glob construct at some index becomes, and the index after it. */
interface Translated {
	source: string;
	next: number;
}

/** `[…]` at `open` (`[!…]`/`[^…]` never match `/`); undefined when it does not close. */
function translateClass(glob: string, open: number): Translated | undefined {
	const end = classEnd(glob, open);
	if (end < 0) {
		return undefined;
	}
	let members = glob.slice(open + 1, end);
	const negate = members.startsWith('!') || members.startsWith('^');
	members = negate ? members.slice(1) : members;
	return { source: `[${negate ? '^/' : ''}${members.replace(/\\(?!.)|\\$/g, '\\\\')}]`, next: end + 1 };
}

/** `{1..3}` or `{a,b}` at `open`; undefined when the brace is a literal one. */
function translateBraces(glob: string, open: number, whole: string): Translated | undefined {
	const end = closing(glob, open, '{', '}');
	const inside = end < 0 ? undefined : glob.slice(open + 1, end);
	const range = inside && /^(-?\d+)\.\.(-?\d+)$/.exec(inside);
	if (range && Math.abs(Number(range[2]) - Number(range[1])) <= 1000) {
		const [a, b] = [Number(range[1]), Number(range[2])].sort((x, y) => x - y);
		return { source: `(?:${Array.from({ length: b - a + 1 }, (_, k) => String(a + k)).join('|')})`, next: end + 1 };
	}
	if (inside !== undefined && split(inside, ',').length > 1) {
		return {
			source: `(?:${split(inside, ',')
				.map(part => translate(part, whole))
				.join('|')})`,
			next: end + 1,
		};
	}
	return undefined;
}

/** Index of the bracket closing the one at `open`, nesting and escapes respected; -1 when none. */
function closing(text: string, open: number, left = '(', right = ')'): number {
	let depth = 0;
	for (let i = open; i < text.length; i++) {
		if (text[i] === '\\') {
			i++;
		} else if (text[i] === left) {
			depth++;
		} else if (text[i] === right && --depth === 0) {
			return i;
		}
	}
	return -1;
}

/** The `]` ending a character class starting at `open` (a `]` first in the class is a member). */
function classEnd(text: string, open: number): number {
	let i = open + 1;
	if (text[i] === '!' || text[i] === '^') i++;
	if (text[i] === ']') i++;
	for (; i < text.length; i++) {
		if (text[i] === '\\') {
			i++;
		} else if (text[i] === ']') {
			return i;
		} else if (text[i] === '/') {
			return -1;
		}
	}
	return -1;
}

/** Splits on `separator` at depth zero (outside brackets and braces), escapes respected. */
function split(text: string, separator: string): string[] {
	const parts: string[] = [];
	let depth = 0;
	let start = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '\\') {
			i++;
		} else if (c === '(' || c === '{' || c === '[') {
			depth++;
		} else if (c === ')' || c === '}' || c === ']') {
			depth--;
		} else if (c === separator && depth === 0) {
			parts.push(text.slice(start, i));
			start = i + 1;
		}
	}
	parts.push(text.slice(start));
	return parts;
}
