/**
 * The general extractor of calls written as text. Whatever wraps a call (a tag, a token pair,
 * a fence, an orphan closing tag, nothing) and however its arguments are written (a JSON object
 * under any key, a JSON string of JSON, `{"tool": {…}}`, Python call syntax, `key=value`
 * pairs, XML-ish elements, attributes), a call is found from its anchor: the name of an
 * offered tool, followed or enclosed by arguments its schema can read. A name with no
 * arguments readable after it is only a mention. Validation and intent (is it an example,
 * a mention inside a sentence?) are decided by the caller (callJudge.ts).
 */
import {
	readAttributes,
	readJsonArgs,
	readKeyValues,
	readPythonArgs,
	readXmlArgs,
	type ArgsRead,
} from './argumentReaders';
import { jsonCallsAt } from './jsonCalls';
import { escapeRegExp, jsonSpans, widenOverMarkup } from './textScan';
import type { Candidate, OfferedTool } from './candidate';

interface Anchor {
	tool: OfferedTool;
	start: number;
	end: number;
}

export function findCandidates(text: string, tools: readonly OfferedTool[]): Candidate[] {
	const anchors = findAnchors(text, tools);
	const json = jsonSpans(text);
	const out: Candidate[] = [];
	const read = new Map<number, boolean>();
	for (const [i, anchor] of anchors.entries()) {
		const span = json.spans.find(([s, e]) => anchor.start > s && anchor.end < e);
		if (span && !read.has(span[0])) {
			const calls = jsonCallsAt(text, span, tools);
			read.set(span[0], calls !== undefined);
			out.push(...(calls ?? []));
		}
		if (span && read.get(span[0])) {
			continue;
		}
		// A JSON value left open before a quoted name is a call cut off; a brace in a tag's value is only text.
		if (json.openFrom !== undefined && anchor.start > json.openFrom && quotedName(text, anchor)) {
			out.push(
				candidate(text, anchor, anchor.start, text.length, {
					kind: 'incomplete',
					detail: 'its JSON stops before the closing brace',
				}),
			);
			continue;
		}
		const next = anchors[i + 1]?.start ?? text.length;
		const found = afterName(text, anchor, next, anchors);
		if (found) {
			out.push(found);
		}
	}
	return dedupe(out);
}

/** Every place an offered tool is named: exact, or ignoring case and `_`/`-`/`.` separators, as a whole word. */
function findAnchors(text: string, tools: readonly OfferedTool[]): Anchor[] {
	const anchors: Anchor[] = [];
	for (const tool of tools) {
		const words = tool.name.split(/[_\-.\s]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
		const pattern = new RegExp(
			`(?<![A-Za-z0-9_])${words.map(escapeRegExp).join('[_\\-.]?')}(?![A-Za-z0-9_])`,
			'gi',
		);
		for (const m of text.matchAll(pattern)) {
			anchors.push({ tool, start: m.index!, end: m.index! + m[0].length });
		}
	}
	return anchors.sort((a, b) => a.start - b.start);
}

/** The name is a JSON string (`"name": "read_file"`, `{"read_file": …`). */
function quotedName(text: string, anchor: Anchor): boolean {
	return /["']$/.test(text.slice(0, anchor.start)) && /^["']/.test(text.slice(anchor.end));
}

/** The tag the name is written in (`<function=NAME>`, `<invoke name="NAME">`, `<NAME>`), if it is. */
function tagAround(text: string, anchor: Anchor): { start: number; end: number; tagName: string } | undefined {
	const open = text.lastIndexOf('<', anchor.start);
	// `<<<read_file(path="a")>>>`: a name followed by its parenthesis is a call in brackets, not a tag.
	if (
		open < 0 ||
		/^\s*\(/.test(text.slice(anchor.end)) ||
		text[open + 1] === '/' ||
		/[<>\n]/.test(text.slice(open + 1, anchor.start).replace(/"[^"\n]*"|'[^'\n]*'/g, ''))
	) {
		return undefined;
	}
	// The tag ends at the first `>` outside its quoted attribute values (after the quote closing the name's own).
	const after = /^["']/.test(text[anchor.end] ?? '') ? anchor.end + 1 : anchor.end;
	const rest = /^(?:[^<>"'\n]|"[^"\n]*"|'[^'\n]*')*>/.exec(text.slice(after));
	if (!rest) {
		return undefined;
	}
	const tagName = /^<([\w:.-]+)/.exec(text.slice(open))?.[1] ?? '';
	return { start: open, end: after + rest[0].length, tagName };
}

/** Arguments after the name (or around it, in its tag), read by the first encoding that fits. */
function afterName(text: string, anchor: Anchor, next: number, anchors: Anchor[]): Candidate | undefined {
	const properties = Object.keys((anchor.tool.parameters.properties as object | undefined) ?? {});
	const tag = tagAround(text, anchor);
	const head = tag ? undefined : attributeHead(text, anchor);
	const from = tag ? tag.end : (head?.end ?? anchor.end);
	// A tag that names the tool (`<function=NAME>`, `<invoke name="NAME">`) encloses its arguments up to its close.
	const close = tag ? closingTag(text, tag, from) : -1;
	// JSON that names a tool itself is a call of its own, not the arguments of an earlier name.
	const namesTool = (start: number, end: number) => anchors.some(a => a !== anchor && a.start > start && a.end < end);
	const read = readAfter(text, from, close >= 0 ? close : next, properties, !!tag, namesTool);
	const start = tag ? tag.start : (head?.start ?? anchor.start);
	const shape = { opened: !!head?.opener, bareHead: !!head && !head.opener };
	if (read?.kind === 'incomplete') {
		return candidate(text, anchor, start, text.length, { kind: 'incomplete', detail: read.detail }, shape);
	}
	// The head's own key names the tool; only the attributes after the name are arguments.
	const attrs = tag
		? readAttributes(text.slice(tag.start, tag.end))
		: head
			? readAttributes(text.slice(anchor.end, from))
			: {};
	const end = close >= 0 ? close + tag!.tagName.length + 3 : (read?.end ?? from);
	if (read || Object.keys(attrs).length > 0) {
		return { ...candidate(text, anchor, start, end, undefined, shape), args: { ...attrs, ...(read?.args ?? {}) } };
	}
	// Named where a call goes, with nothing after it: an empty call, which the model is told about.
	if (tag || head?.opener || /^\s*\(\s*\)/.test(text.slice(anchor.end))) {
		return candidate(text, anchor, start, end, { kind: 'empty', detail: 'has no arguments' }, shape);
	}
	return undefined;
}

/** `keyword key=` or `key=` right before a name, opened by a bracket or not, after a boundary (line start, space, a token's end). */
const ATTRIBUTE_HEAD = /(?:^|[\s>\]|｜])([[<]?)(?:[A-Za-z_][\w:.-]*[ \t]+)?[A-Za-z_][\w-]*[ \t]*=[ \t]*(["']?)$/;
/** Further attributes after the name, up to the bracket that closes an opened head (`[CALL name=x id=1]`). */
const HEAD_CLOSE = /^(?:[ \t]+[A-Za-z_][\w-]*[ \t]*=[ \t]*(?:"[^"\n]*"|'[^'\n]*'|[^\s\]>"'<{]+))*[ \t]*\/?[\]>]/;

/**
 * A name given as an attribute value, whatever wrapper holds it and whatever separates the
 * arguments after it (`<|open|>call name="read_file"<|sep|>{…}`, `[CALL tool=read_file] {…}`,
 * `function name='read_file' => {…}`): the keyword and key before the name, the quote after it
 * and, for a head a bracket opened, its other attributes and the closing bracket belong to the
 * call. A head with no bracket is not a wrapper: in a sentence it is still a mention.
 */
function attributeHead(text: string, anchor: Anchor): { start: number; end: number; opener: boolean } | undefined {
	const lineStart = text.lastIndexOf('\n', anchor.start - 1) + 1;
	const from = Math.max(lineStart, anchor.start - 120);
	const before = ATTRIBUTE_HEAD.exec(text.slice(from, anchor.start));
	// Cut mid-line, `^` is not a boundary: the match must start after one.
	if (!before || (before.index === 0 && from > lineStart && !/^[\s>\]|｜]/.test(before[0]))) {
		return undefined;
	}
	const quote = before[2];
	if (quote && text[anchor.end] !== quote) {
		return undefined;
	}
	const start = from + before.index + (/^[\s>\]|｜]/.test(before[0]) ? 1 : 0);
	let end = anchor.end + quote.length;
	const opener = before[1] !== '';
	if (opener) {
		const closed = HEAD_CLOSE.exec(text.slice(end));
		if (!closed) {
			return undefined;
		}
		end += closed[0].length;
	}
	return { start, end, opener };
}

/**
 * Where the tag naming the tool closes: nowhere when it closed itself (`<call name="x" … />`) or
 * when the same tag opens again first (the close belongs to the next call).
 */
function closingTag(text: string, tag: { end: number; tagName: string }, from: number): number {
	if (text.slice(0, tag.end).endsWith('/>')) {
		return -1;
	}
	const close = text.indexOf(`</${tag.tagName}>`, from);
	const reopened = text.slice(from, close).search(new RegExp(`<${escapeRegExp(tag.tagName)}[\\s>/]`));
	return close >= 0 && reopened < 0 ? close : -1;
}

function readAfter(
	text: string,
	from: number,
	to: number,
	properties: string[],
	inTag: boolean,
	namesTool: (start: number, end: number) => boolean,
): ArgsRead | undefined {
	const rest = text.slice(from, to);
	const lead = /^[ \t]*/.exec(rest)![0].length;
	if (rest[lead] === '(') {
		return readPythonArgs(text, from + lead, properties);
	}
	const xml = readXmlArgs(text, from, to, properties);
	if (xml) {
		return xml;
	}
	const json = connectorThenBrace(rest);
	if (json !== undefined) {
		const read = readJsonArgs(text, from + json);
		if (!(read?.kind === 'args' && namesTool(from + json, read.end))) {
			return read;
		}
	}
	return inTag ? undefined : readKeyValues(text, from, properties);
}

/**
 * Where JSON arguments start after the name, past what may sit between: the call's number
 * (`functions.read_file:0`), spaces, punctuation, a tag or token, a fence line, a label of up to
 * three words on its own line (`Action Input:`) — never a word of prose.
 */
function connectorThenBrace(rest: string): number | undefined {
	const connector =
		/^(?:[:#]\d{1,4}(?!\d)|\s|[:=,>\]|\-"'`]|<\/?[\w:.|-]*>|<\|[^|<>\n]{0,40}\|>|<｜[^｜\n]{0,40}｜>|\[[A-Za-z_]{1,40}\]|```[\w-]*|(?<=\n[ \t]*)[A-Za-z]\w{0,15}(?: \w{1,15}){0,2}:)*/;
	const m = connector.exec(rest)!;
	return rest[m[0].length] === '{' ? m[0].length : undefined;
}

/** `opened`: a bracket before the name opened the call; `bareHead`: only a keyword and key stand before it, no wrapper. */
function candidate(
	text: string,
	anchor: Anchor,
	start: number,
	end: number,
	problem?: Candidate['problem'],
	shape: { opened?: boolean; bareHead?: boolean } = {},
): Candidate {
	const [innerStart, innerEnd] = enclosingCall(text, start, end);
	const [wideStart, wideEnd] = widenOverMarkup(text, labelStart(text, innerStart), innerEnd);
	return {
		name: anchor.tool.name,
		start: wideStart,
		end: wideEnd,
		core: [innerStart, innerEnd],
		wrapped: wideStart < start || wideEnd > end || (start < anchor.start && !shape.bareHead) || !!shape.opened,
		...(problem ? { problem } : {}),
	};
}

/**
 * The name's namespace (`functions.`, `default_api.`) and a call wrapped around it
 * (`print(default_api.read_file(…))`, Gemini's tool_code) belong to the call.
 */
function enclosingCall(text: string, start: number, end: number): [number, number] {
	start -= /(?:[A-Za-z_]\w*\.)+$/.exec(text.slice(0, start))?.[0].length ?? 0;
	for (;;) {
		const open = /[A-Za-z_]\w*\(\s*$/.exec(text.slice(0, start));
		const close = /^\s*\)/.exec(text.slice(end));
		if (!open || !close) {
			return [start, end];
		}
		start -= open[0].length;
		end += close[0].length;
	}
}

/** A short label right before the name on its line (`Action: read_file`) belongs to the call. */
function labelStart(text: string, start: number): number {
	const label = /(?:^|\n)[ \t]*[A-Za-z][\w]*(?: [\w]+){0,2}:[ \t]*$/.exec(text.slice(0, start));
	return label ? start - label[0].replace(/^\n/, '').length : start;
}

/** One candidate per place: overlapping finds keep the first, except calls listed in one JSON value. */
function dedupe(candidates: Candidate[]): Candidate[] {
	const kept: Candidate[] = [];
	for (const c of candidates) {
		const sameGroup = (k: Candidate) => c.group !== undefined && k.group === c.group;
		const [start, end] = c.core ?? [c.start, c.end];
		const overlaps = (k: Candidate) => start < (k.core?.[1] ?? k.end) && end > (k.core?.[0] ?? k.start);
		if (!kept.some(k => overlaps(k) && !sameGroup(k))) {
			kept.push(c);
		}
	}
	return kept;
}
