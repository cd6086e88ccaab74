import type { Candidate } from './candidate';
import { MARKUP_TOKEN } from './textScan';

export type Validation = { ok: true; rawArguments: string } | { ok: false; error: string };

export interface JudgeOptions {
	/** Keel's usual repair, then the tool's schema: the arguments as they will run, or what is wrong. */
	validate(name: string, args: Record<string, unknown> | string): Validation;
	/** The user's message: when it asks to be shown a call or a format, calls in the reply are examples. */
	prompt?: string;
}

export interface JudgedCall {
	name: string;
	rawArguments: string;
	start: number;
	end: number;
}

/** A call to an offered tool that cannot run as written, and exactly why. */
export interface CallProblem {
	name: string;
	detail: string;
	start: number;
	end: number;
}

export interface Judgement {
	calls: JudgedCall[];
	problems: CallProblem[];
	/** The text without the calls and their wrappers: what the model said around them. */
	prose: string;
}

/** The user asked to see a call, an example or a format: showing one is the answer. */
const ASKS_FOR_EXAMPLE =
	/\b(?:examples?|samples?|show me|what (?:would|does|do)\b.{0,60}\blook like|formats?|syntax|schema|template|how (?:do|would|should|can) (?:i|you|one|we) (?:call|use|invoke))\b/i;
/** The reply presents what follows as an illustration, not as what it does now. */
const PRESENTS_EXAMPLE =
	/\b(?:for example|e\.g\.|for instance|an example|example of|examples?:|such as|like this|looks like|would look|the format|the syntax|a template|a sample|sample call|you (?:can|could|would) (?:call|use|write))\b/i;

/**
 * Decides which candidates run. A call runs when its arguments validate (after repair), it is
 * not presented as an example (the user asked for one, or the prose just before introduces
 * one), and it is not a mention inside a sentence (prose before and after it on its line, no
 * wrapper). A call to an offered tool that is cut off, empty, or does not validate is reported
 * with what is wrong — unless it is an example or a mention, which are prose.
 */
export function judgeCandidates(text: string, candidates: Candidate[], options: JudgeOptions): Judgement {
	const calls: JudgedCall[] = [];
	const problems: CallProblem[] = [];
	const seen = new Set<string>();
	const exampleAsked = !!options.prompt && ASKS_FOR_EXAMPLE.test(options.prompt);
	for (const c of candidates) {
		if (
			exampleAsked ||
			presentedAsExample(text, c) ||
			isInlineMention(text, c, candidates) ||
			hasPlaceholders(c.args)
		) {
			continue;
		}
		const place = { name: c.name, start: c.start, end: c.end };
		if (c.problem?.kind === 'incomplete') {
			problems.push({ ...place, detail: `was cut off (${c.problem.detail})` });
			continue;
		}
		const verdict = options.validate(c.name, c.args ?? c.raw ?? {});
		if (!verdict.ok) {
			if (!c.loose || c.wrapped) {
				problems.push({
					...place,
					// A phrase after "the <tool> call": what the model reads in its correction, and the user inline.
					detail: `${noArguments(c) ? 'has no arguments' : 'does not fit its schema'} (${verdict.error})`,
				});
			}
			continue;
		}
		const key = `${c.name}\u0000${verdict.rawArguments}`;
		if (!seen.has(key)) {
			seen.add(key);
			calls.push({ ...place, rawArguments: verdict.rawArguments });
		}
	}
	const removed = [...calls, ...problems];
	return { calls, problems, prose: proseWithout(text, removed) };
}

/** Named where a call goes with nothing after it, or with arguments that hold nothing, whichever reader found it. */
function noArguments(c: Candidate): boolean {
	const raw = c.raw?.trim() ?? '';
	return (
		c.problem?.kind === 'empty' ||
		(c.args !== undefined && Object.keys(c.args).length === 0) ||
		(c.args === undefined && (raw === '' || /^\{\s*\}$/.test(raw)))
	);
}

/** The paragraph just before the call introduces it as an example. */
function presentedAsExample(text: string, c: Candidate): boolean {
	const before = text.slice(Math.max(0, c.start - 240), c.start);
	const paragraph = before.slice(before.lastIndexOf('\n\n') + 1);
	return PRESENTS_EXAMPLE.test(paragraph);
}

/**
 * Written inside a sentence, a table or a list — words after it on its line, a table row, a
 * list item — and not wrapped as a call: a mention, or a step being described. The other calls
 * on the line and the markup between them are not words: `[a(…), b(…)]` is a list of calls.
 */
function isInlineMention(text: string, c: Candidate, candidates: readonly Candidate[]): boolean {
	if (c.wrapped) {
		return false;
	}
	const lineStart = text.lastIndexOf('\n', c.start - 1) + 1;
	const lineEnd = text.indexOf('\n', c.end);
	const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
	const siblings = candidates.filter(k => k !== c).map(k => ({ start: k.start - c.end, end: k.end - c.end }));
	const after = withoutSpans(text.slice(c.end, lineEnd < 0 ? text.length : lineEnd), siblings)
		.replace(MARKUP_ANYWHERE, ' ')
		.replace(/[`*_]/g, '');
	// A list item describes a step (done, or planned), as a table row does: models act one call at a time.
	return (
		/\p{L}{2,}/u.test(after) ||
		/^\s*\|.*\|/.test(line) ||
		/^\s*(?:[-*•]|\d+[.)])\s/.test(line) ||
		insideRemark(text.slice(lineStart, c.start), lineStart, candidates)
	);
}

/**
 * The call sits in a bracketed remark that has words before it ("[Output filtered. Unfiltered:
 * read_output {…}]", "(see read_file {…})"): quoted inside a sentence, not made. A bracket
 * that opens right before the call, or before other calls only, wraps calls.
 */
function insideRemark(before: string, offset: number, candidates: readonly Candidate[]): boolean {
	let depth = 0;
	for (let i = before.length - 1; i >= 0; i--) {
		const ch = before[i];
		if (ch === ']' || ch === ')') {
			depth++;
		} else if (ch === '[' || ch === '(') {
			if (depth === 0) {
				const spans = candidates.map(k => ({ start: k.start - offset - i - 1, end: k.end - offset - i - 1 }));
				const words = withoutSpans(before.slice(i + 1), spans).replace(MARKUP_ANYWHERE, ' ');
				return /\p{L}{2,}/u.test(words);
			}
			depth--;
		}
	}
	return false;
}

const MARKUP_ANYWHERE = new RegExp(MARKUP_TOKEN.source, 'g');

/**
 * Values that stand for a value ("...", "<path>", "path/to/file", "your_file"): a call shown as a
 * pattern, not made. A placeholder in angle brackets is a word or two naming what goes there;
 * markup is not one: a one-letter element (`<b>`, `<p>`), a closing or self-closing tag, attributes.
 */
function hasPlaceholders(args: Record<string, unknown> | undefined): boolean {
	return Object.entries(args ?? {}).some(
		([key, value]) =>
			typeof value === 'string' &&
			(value.trim().toLowerCase() === key.toLowerCase() ||
				/^(?:\.{2,}|…|<[^<>/="']{2,}>|\{\{[^}]*\}\}|\$\{\w+\}|(?:path\/to\/|your[_ -])[\w./ -]*|string)$/i.test(
					value.trim(),
				)),
	);
}

/**
 * What the model said around the calls: the text without their spans, and without the
 * punctuation that only wrapped them — an opening bracket right before a call, a closing one
 * right after, commas between calls, tokens and tags on either side.
 */
export function proseWithout(text: string, spans: Array<{ start: number; end: number }>): string {
	const gaps = gapsBetween(text, spans);
	let prose = gaps
		.map((gap, i) => {
			let part = gap;
			if (i > 0) {
				part = part.replace(CLOSING_RESIDUE, '');
			}
			if (i < gaps.length - 1) {
				part = part.replace(OPENING_RESIDUE, '');
			}
			return part;
		})
		.join('\n');
	// Around a call, a role or channel named between special tokens (`<|start|>assistant<|channel|>
	// analysis<|message|>`) is the template's header, and a special token is never words for the
	// user. With no call in it, the text is the answer as written: it may be about those tokens.
	if (spans.length > 0) {
		prose = prose.replace(HEADER_WORD, '').replace(SPECIAL_TOKEN, '');
	}
	return prose
		.replace(/[ \t]+\n/g, '\n')
		.replace(/\n{3,}/g, '\n\n')
		.trim();
}

/** `text` without `spans` (which may overlap), joined as it reads. */
function withoutSpans(text: string, spans: Array<{ start: number; end: number }>): string {
	return gapsBetween(text, spans).join('');
}

/** The text before, between and after the spans; spans widened over shared markup may overlap. */
function gapsBetween(text: string, spans: Array<{ start: number; end: number }>): string[] {
	const gaps: string[] = [];
	let at = 0;
	for (const { start, end } of [...spans].sort((a, b) => a.start - b.start)) {
		if (end <= 0 || start >= text.length) {
			continue;
		}
		gaps.push(text.slice(at, Math.max(at, start)));
		at = Math.max(at, end);
	}
	gaps.push(text.slice(at));
	return gaps;
}

const SPECIAL = String.raw`<\|[^<>|\n]{0,60}\|>|<｜[^｜\n]{0,60}｜>`;
const SPECIAL_TOKEN = new RegExp(SPECIAL, 'g');
// A header is one lower-case name (`assistant`, `analysis`); words for the user are written as sentences.
const HEADER_WORD = new RegExp(String.raw`(?<=${SPECIAL})[a-z][\w-]{0,29}(?=${SPECIAL})`, 'g');
const RESIDUE = `(?:\\s|${MARKUP_TOKEN.source}|[,;])`;
/** What follows a call and only closed it: closing brackets, separators, closing tags and tokens. */
const CLOSING_RESIDUE = new RegExp(`^(?:${RESIDUE}|[\\])}>】»」])*`);
/** What precedes a call and only opened it. */
const OPENING_RESIDUE = new RegExp(`(?:${RESIDUE}|(?:${SPECIAL})[a-z][\\w-]{0,29}|[\\[({<【«「]|>{2,})*$`);
