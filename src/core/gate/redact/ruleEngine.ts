/**
 * Runs the redaction rules (redactRules.ts) over a text at a cost linear in its length. One
 * pass finds every keyword (keywordIndex.ts); a rule is tried only where one of its keywords
 * is: at the keyword itself when every match starts there (most rules), else in a window
 * around it. Patterns are RE2, compiled with re2js on first use, so no text makes a pattern
 * backtrack. A match counts as gitleaks counts it: its secret group, the rule's entropy, the
 * allowlists (gitleaks' global one and the rule's own).
 */
import { RE2JS } from 're2js';
import { KeywordIndex } from './keywordIndex';
import { maxLength, parsePattern } from './patternShape';
import type { MaintainedAllowlist } from './maintainedTypes';
import { ALL_RULES, MAINTAINED, type RedactRule } from './redactRules';

export interface Span {
	start: number;
	end: number;
	label: string;
	/** Lower wins the label where spans of several rules overlap. */
	rank: number;
}

/** How far after its keyword a match may run before the window ends (a token at the end runs on). */
const REACH = 2048;
/** How far before its keyword a match of a rule that does not start at it may start. */
const BACK = 256;
/** A longer stretch of text is tried in windows this long, overlapping by OVERLAP. */
const WINDOW = 8192;
const OVERLAP = 1024;
/** Keyword-then-operator rules: the operator follows the end of the keyword within this many characters (the rest of the name, spaces, quotes). */
const OPERATOR_REACH = 64;

interface CompiledAllow {
	list: MaintainedAllowlist;
	regexes: RE2JS[];
	/** The stopwords, found in one pass over a secret. */
	stopwords?: KeywordIndex;
}

interface Entry {
	rule: RedactRule;
	rank: number;
	/** The pattern, anywhere in a window. */
	anywhere?: RE2JS;
	/** The pattern at the start of the text / after one character (so `\b` and lookbehinds see it). */
	atStart?: RE2JS;
	afterOne?: RE2JS;
	/** The longest a match can be: an anchored try reads no more text than that. */
	reach?: number;
	allow?: CompiledAllow[];
}

function isWord(code: number): boolean {
	return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** [A-Za-z0-9_.-], as a table: the token-run scan reads every character. */
const TOKEN_CHARS = new Uint8Array(128);
for (let c = 0; c < 128; c++) TOKEN_CHARS[c] = isWord(c) || c === 45 || c === 46 ? 1 : 0;

function isTokenChar(code: number): boolean {
	return code < 128 && TOKEN_CHARS[code] === 1;
}

function isOperator(code: number): boolean {
	// = > : | ? ,
	return code === 61 || code === 62 || code === 58 || code === 124 || code === 63 || code === 44;
}

/** What may stand between a secret's name and its operator: the rest of the name, spaces, quotes. */
function isNameGap(code: number): boolean {
	return isTokenChar(code) || code === 32 || code === 9 || code === 39 || code === 34 || code === 13;
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
	const counts = new Map<number, number>();
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		counts.set(c, (counts.get(c) ?? 0) + 1);
	}
	let bits = 0;
	for (const n of counts.values()) {
		const p = n / text.length;
		bits -= p * Math.log2(p);
	}
	return bits;
}

export class RuleEngine {
	private readonly _entries: Entry[];
	private readonly _index: KeywordIndex;
	/** Per keyword, the entries it triggers. */
	private readonly _byKeyword: number[][];
	private readonly _tokenRules: number[];
	/** The shortest and longest run a keyword-less rule is tried on. */
	private readonly _runs: [number, number];
	private _global: CompiledAllow | undefined;

	constructor(rules: readonly RedactRule[] = ALL_RULES) {
		this._entries = rules.map((rule, rank) => ({ rule, rank }));
		const keywords: string[] = [];
		const ids = new Map<string, number>();
		this._byKeyword = [];
		this._tokenRules = [];
		this._entries.forEach((entry, i) => {
			if (entry.rule.token) this._tokenRules.push(i);
			for (const keyword of new Set(entry.rule.keywords.map(k => k.toLowerCase()))) {
				let id = ids.get(keyword);
				if (id === undefined) {
					id = keywords.push(keyword) - 1;
					ids.set(keyword, id);
					this._byKeyword.push([]);
				}
				this._byKeyword[id].push(i);
			}
		});
		this._index = new KeywordIndex(keywords);
		const lengths = this._tokenRules.map(i => this._entries[i].rule.token!);
		this._runs = [Math.min(...lengths.map(l => l[0])), Math.max(...lengths.map(l => l[1]))];
	}

	/** Every rule's secrets in `text` (overlaps not yet joined). */
	find(text: string): Span[] {
		const spans: Span[] = [];
		const hits = this._index.find(text);
		const attempts: number[] = [];
		const windows = new Map<number, Array<[number, number]>>();
		for (const hit of hits) {
			for (const i of this._byKeyword[hit.keyword]) {
				const rule = this._entries[i].rule;
				if (rule.anchored) {
					attempts.push(hit.start, i, hit.end);
				} else {
					let list = windows.get(i);
					if (!list) windows.set(i, (list = []));
					// A keyword that is context, not part of the secret (gitleaks' `facebook` before a page token): the whole text.
					list.push(
						rule.context
							? [0, text.length]
							: [Math.max(0, hit.start - BACK), Math.min(text.length, hit.end + REACH)],
					);
				}
			}
		}
		this._anchored(text, attempts, spans);
		for (const [i, regions] of windows) this._windowed(text, this._entries[i], regions, spans);
		if (this._tokenRules.length) this._tokenRuns(text, spans);
		return spans;
	}

	/** Rules whose matches start at a keyword (start, rule, keyword end per attempt): tried there, once per place, and not inside a secret the rule already found. */
	private _anchored(text: string, attempts: number[], spans: Span[]): void {
		const order = Array.from({ length: attempts.length / 3 }, (_, k) => k).sort(
			(a, b) => attempts[3 * a] - attempts[3 * b] || attempts[3 * a + 1] - attempts[3 * b + 1],
		);
		const reached = new Map<number, number>();
		let lastStart = -1;
		let lastRule = -1;
		let lineEnd = -1;
		for (const k of order) {
			const start = attempts[3 * k];
			const i = attempts[3 * k + 1];
			const keywordEnd = attempts[3 * k + 2];
			if (start === lastStart && i === lastRule) continue;
			lastStart = start;
			lastRule = i;
			if ((reached.get(i) ?? -1) > start) continue;
			const entry = this._entries[i];
			const rule = entry.rule;
			if (rule.boundary && start > 0 && isWord(text.charCodeAt(start - 1))) continue;
			if (rule.cased && !rule.cased.some(c => text.startsWith(c, start))) continue;
			if (lineEnd < start) {
				lineEnd = text.indexOf('\n', start);
				if (lineEnd === -1) lineEnd = text.length;
			}
			if (rule.operator && !operatorFollows(text, keywordEnd, lineEnd)) continue;
			const reach = (entry.reach ??= maxLength(parsePattern(rule.regex)));
			const lineTo = lineEnd < text.length ? lineEnd + 1 : text.length;
			// One character more than the longest match: its terminator (`\b`, `$`) is judged on the text.
			const to = Math.min(lineTo, start + Math.min(reach + 1, REACH));
			const from = start > 0 ? start - 1 : 0;
			const re =
				start > 0 ? (entry.afterOne ??= compile(rule, '^(?s:.)')) : (entry.atStart ??= compile(rule, '^'));
			const slice = text.slice(from, to);
			// Whether it matches is cheaper to learn than where its groups are: most tries do not.
			if (!re.test(slice)) continue;
			const m = re.matcher(slice);
			if (!m.find()) continue;
			const span = this._secret(text, entry, m, from, reach > REACH ? to : Infinity, 1);
			if (span) {
				spans.push(span);
				reached.set(i, span.end);
			}
		}
	}

	/** A rule whose matches may start before its keyword: tried in the windows around its keywords, merged. */
	private _windowed(text: string, entry: Entry, regions: Array<[number, number]>, spans: Span[]): void {
		regions.sort((a, b) => a[0] - b[0]);
		const merged: Array<[number, number]> = [];
		for (const region of regions) {
			const last = merged[merged.length - 1];
			if (last && region[0] <= last[1]) last[1] = Math.max(last[1], region[1]);
			else merged.push([...region]);
		}
		const re = (entry.anywhere ??= compile(entry.rule, ''));
		const seen = new Set<number>();
		for (const [start, end] of merged) {
			for (let from = start; from < end; from += WINDOW - OVERLAP) {
				const to = Math.min(end, from + WINDOW);
				const slice = text.slice(from, to);
				if (!re.test(slice)) {
					if (to >= end) break;
					continue;
				}
				const m = re.matcher(slice);
				while (m.find()) {
					const span = this._secret(text, entry, m, from, to, 0);
					if (span && !seen.has(span.start)) {
						seen.add(span.start);
						spans.push(span);
					}
					if (m.end(0) === m.start(0)) break;
				}
				if (to >= end) break;
			}
		}
	}

	/** Rules without a keyword: tried on each run of token characters long enough to be their token. */
	private _tokenRuns(text: string, spans: Span[]): void {
		const [shortest, longest] = this._runs;
		let runStart = -1;
		const n = text.length;
		for (let i = 0; i <= n; i++) {
			const c = i < n ? text.charCodeAt(i) : 0;
			if (c < 128 && TOKEN_CHARS[c] === 1) {
				if (runStart === -1) runStart = i;
				continue;
			}
			const length = i - runStart;
			if (runStart !== -1 && length >= shortest && length <= longest) {
				for (const r of this._tokenRules) {
					const [min, max] = this._entries[r].rule.token!;
					if (length >= min && length <= max) this._windowed(text, this._entries[r], [[runStart, i]], spans);
				}
			}
			runStart = -1;
		}
	}

	/**
	 * The secret of a match, or undefined when the rule's entropy or an allowlist lets it pass.
	 * `shift`: the groups the anchored form adds before the rule's own (its whole match is group `shift`).
	 */
	private _secret(
		text: string,
		entry: Entry,
		m: ReturnType<RE2JS['matcher']>,
		offset: number,
		windowEnd: number,
		shift: number,
	): Span | undefined {
		const rule = entry.rule;
		const group = (g: number | string) => (typeof g === 'number' ? g + shift : g);
		let start = -1;
		let end = -1;
		if (rule.group !== undefined) {
			start = m.start(group(rule.group));
			end = m.end(group(rule.group));
		} else {
			for (let g = 1 + shift; g <= m.groupCount() && start === -1; g++) {
				if (m.start(g) >= 0 && m.end(g) > m.start(g)) [start, end] = [m.start(g), m.end(g)];
			}
			if (start === -1) [start, end] = [m.start(shift), m.end(shift)];
		}
		if (start < 0 || end <= start) return undefined;
		start += offset;
		end += offset;
		// The window cut a longer token: it runs on to the token's end.
		if (end === windowEnd && end < text.length)
			while (end < text.length && isTokenChar(text.charCodeAt(end))) end++;
		const secret = text.slice(start, end);
		if (rule.entropy && entropy(secret) <= rule.entropy) return undefined;
		// gitleaks asks its generic rules' secrets for a digit (its detector does, not the pattern).
		if (rule.from === 'gitleaks' && rule.id.startsWith('generic') && !hasDigit(secret)) return undefined;
		if (this._allowed(text, entry, secret, offset + m.start(shift), offset + m.end(shift))) return undefined;
		let label = rule.label;
		if (rule.labelGroups) {
			const n = rule.labelGroups.labels.findIndex((_, k) => m.start(rule.labelGroups!.from + k + shift) >= 0);
			if (n >= 0) label = rule.labelGroups.labels[n];
		}
		return { start, end, label, rank: entry.rank };
	}

	private _allowed(text: string, entry: Entry, secret: string, matchStart: number, matchEnd: number): boolean {
		const lists = (entry.allow ??= (entry.rule.allow ?? []).map(compileAllow));
		const all =
			entry.rule.from === 'gitleaks' ? [(this._global ??= compileAllow(MAINTAINED.global)), ...lists] : lists;
		if (!all.length) return false;
		const targetOf = (list: MaintainedAllowlist) => {
			if (list.target === 'secret') return secret;
			if (list.target === 'match') return text.slice(matchStart, matchEnd);
			// The line, within reach of the match: enough for any allowlist pattern.
			const from = Math.max(0, matchStart - REACH);
			const to = Math.min(text.length, matchEnd + REACH);
			const before = text.slice(from, matchStart).lastIndexOf('\n');
			const after = text.slice(matchEnd, to).indexOf('\n');
			return text.slice(before === -1 ? from : from + before + 1, after === -1 ? to : matchEnd + after);
		};
		return all.some(({ list, regexes, stopwords }) => {
			const target = regexes.length ? targetOf(list) : '';
			const byRegex = regexes.length ? regexes.some(re => re.test(target)) : undefined;
			const byWord = stopwords ? stopwords.occursIn(secret) : undefined;
			const checks = [byRegex, byWord].filter((c): c is boolean => c !== undefined);
			return list.all ? checks.every(Boolean) : checks.some(Boolean);
		});
	}
}

function hasDigit(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c >= 48 && c <= 57) return true;
	}
	return false;
}

/**
 * Whether an operator (= > : | ? ,) follows the name a keyword starts, within reach: past the
 * rest of the name, spaces and quotes. What every keyword-then-operator rule needs before its
 * secret, checked before its pattern runs.
 */
function operatorFollows(text: string, start: number, lineEnd: number): boolean {
	const end = Math.min(lineEnd, start + OPERATOR_REACH);
	for (let i = start; i < end; i++) {
		const c = text.charCodeAt(i);
		if (isOperator(c)) return true;
		if (!isNameGap(c)) return false;
	}
	return false;
}

/** The rule's pattern; anchored (`prefix`), its whole match is group 1 and its own groups follow. */
function compile(rule: RedactRule, prefix: string): RE2JS {
	const source = prefix ? `${prefix}(${rule.regex})` : rule.regex;
	return RE2JS.compile(source, rule.lookbehind ? RE2JS.LOOKBEHINDS : 0);
}

function compileAllow(list: MaintainedAllowlist): CompiledAllow {
	return {
		list,
		regexes: list.regexes.map(source => RE2JS.compile(source)),
		...(list.stopwords.length ? { stopwords: new KeywordIndex(list.stopwords) } : {}),
	};
}
