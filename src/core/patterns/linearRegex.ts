/**
 * Every pattern a user or a workspace writes (filter rules, security patterns, permission
 * rules) runs here, on RE2 (re2js): matching time grows linearly with the text, whatever the
 * pattern, so no pattern and no output can freeze the extension host the way a backtracking
 * engine does on `(a+)+$` or `a*a*a*…b`. What RE2 cannot run (backreferences, lookaround) is
 * refused with a message that names the construct and says what to write instead.
 */
import { RE2JS } from 're2js';

export class UnsupportedPattern extends Error {
	constructor(
		readonly pattern: string,
		readonly reason: string,
	) {
		super(`the pattern ${JSON.stringify(pattern)} ${reason}`);
		this.name = 'UnsupportedPattern';
	}
}

export interface LinearMatch {
	/** The whole match, then the groups (undefined where a group did not take part). */
	readonly [index: number]: string | undefined;
	readonly index: number;
	readonly groups?: Record<string, string | undefined>;
}

export interface LinearRegex {
	readonly source: string;
	test(text: string): boolean;
	exec(text: string): LinearMatch | null;
	matchAll(text: string): Iterable<LinearMatch>;
	replace(text: string, replacer: (match: string) => string): string;
}

export interface LinearFlags {
	ignoreCase?: boolean;
	multiline?: boolean;
	dotAll?: boolean;
}

/** Constructs of JavaScript's syntax that only a backtracking engine can run, and what to write instead. */
const UNSUPPORTED: Array<[RegExp, string]> = [
	[
		/^\(\?<[=!]/,
		'uses a lookbehind "(?<=…)" or "(?<!…)"; match the text itself, or move the condition into the rule',
	],
	[/^\(\?[=!]/, 'uses a lookahead "(?=…)" or "(?!…)"; match the text itself, or use a second pattern'],
	[/^\(\?>/, 'uses an atomic group "(?>…)"; write the group without it'],
	[/^\\[1-9]/, 'uses a backreference "\\1"; repeat the text it should match instead'],
	[/^\\k</, 'uses a named backreference "\\k<…>"; repeat the text it should match instead'],
	[/^[*+?}][+]/, 'uses a possessive quantifier ("*+", "++"); drop the second "+"'],
];

/** Counted repetition multiplies the program: past this size a pattern is refused, not compiled for minutes. */
const MAX_PROGRAM_SIZE = 50_000;
const MAX_CACHED = 500;
const cache = new Map<string, LinearRegex>();

/**
 * Why the pattern cannot run on a linear-time engine, or undefined when it can. Walks the
 * pattern once, skipping escapes and character classes, so `[(?=]` or `\(?=` is not a lookahead.
 */
export function unsupportedConstruct(source: string): string | undefined {
	let inClass = false;
	for (let i = 0; i < source.length; i++) {
		const c = source[i];
		if (c === '\\') {
			if (!inClass) {
				const found = UNSUPPORTED.find(([shape]) => shape.test(source.slice(i, i + 3)));
				if (found) {
					return found[1];
				}
			}
			i++;
			continue;
		}
		if (inClass) {
			inClass = c !== ']';
			continue;
		}
		if (c === '[') {
			inClass = true;
			// A ']' right after '[' or '[^' is a literal member.
			if (source[i + 1] === '^') i++;
			if (source[i + 1] === ']') i++;
			continue;
		}
		const found = UNSUPPORTED.find(([shape]) => shape.test(source.slice(i, i + 4)));
		if (found) {
			return found[1];
		}
	}
	return undefined;
}

/** Compiles (cached) or throws UnsupportedPattern with a sentence the user can act on. */
export function linearRegex(source: string, flags: LinearFlags = {}): LinearRegex {
	const key = `${flags.ignoreCase ? 'i' : ''}${flags.multiline ? 'm' : ''}${flags.dotAll ? 's' : ''}/${source}`;
	const cached = cache.get(key);
	if (cached) {
		return cached;
	}
	const construct = unsupportedConstruct(source);
	if (construct) {
		throw new UnsupportedPattern(source, construct);
	}
	let compiled: RE2JS;
	try {
		compiled = RE2JS.compile(
			RE2JS.translateRegExp(source),
			(flags.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) |
				(flags.multiline ? RE2JS.MULTILINE : 0) |
				(flags.dotAll ? RE2JS.DOTALL : 0),
		);
	} catch (error) {
		const detail = String((error as Error)?.message ?? error).replace(/^error parsing regexp: /, '');
		throw new UnsupportedPattern(source, `is not a valid regular expression (${detail})`);
	}
	if (compiled.programSize() > MAX_PROGRAM_SIZE) {
		throw new UnsupportedPattern(
			source,
			'is too large once its counted repetitions are expanded; use fewer or smaller {n}',
		);
	}
	const regex = asLinearRegex(source, compiled);
	if (cache.size >= MAX_CACHED) {
		cache.delete(cache.keys().next().value!);
	}
	cache.set(key, regex);
	return regex;
}

/** The message for a pattern that cannot run, or undefined: for validating settings and rule files. */
export function checkPattern(source: string, flags?: LinearFlags): string | undefined {
	try {
		linearRegex(source, flags);
		return undefined;
	} catch (error) {
		return (error as Error).message;
	}
}

/** A regex source matching `text` literally. */
export function quoteLiteral(text: string): string {
	return RE2JS.quote(text);
}

function asLinearRegex(source: string, compiled: RE2JS): LinearRegex {
	const all = function* (text: string): Iterable<LinearMatch> {
		for (const match of compiled.matchAll(text)) {
			yield match as unknown as LinearMatch;
		}
	};
	return {
		source,
		test: text => compiled.test(text),
		exec: text => compiled.exec(text) as unknown as LinearMatch | null,
		matchAll: all,
		replace(text, replacer) {
			let out = '';
			let last = 0;
			for (const match of all(text)) {
				const whole = match[0] ?? '';
				out += text.slice(last, match.index) + replacer(whole);
				last = match.index + whole.length;
			}
			return out + text.slice(last);
		},
	};
}
