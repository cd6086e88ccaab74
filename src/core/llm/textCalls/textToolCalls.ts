import { parseLoose, trimValue } from './argumentReaders';
import { DIALECT_WRAPPERS, findDialectCalls, type DialectName } from './textDialects';
import { matchToolName } from './toolNames';

export { matchToolName };

export interface TextToolCall {
	name: string;
	/** JSON text of the arguments (values from XML dialects are strings until schema coercion). */
	rawArguments: string;
	dialect: 'json' | 'tool_call' | 'qwen-xml' | 'glm-xml' | 'gemma' | DialectName;
}

export interface TextCallParse {
	calls: TextToolCall[];
	/** The text with the calls taken out: what the model meant to say around them. */
	prose: string;
}

/** A dialect call with where it sits in the text. */
export interface DialectMatch {
	call: TextToolCall;
	start: number;
	end: number;
}

/**
 * Small models often write their tool call into the message text. Recognises the dialects
 * seen in the wild (competitors.md §3): bare or fenced JSON `{"name":…,"arguments"|"parameters":…}`,
 * `<tool_call>{…}</tool_call>`, Qwen-coder `<function=NAME><parameter=KEY>…`, GLM
 * `<tool_call>NAME<arg_key>…</arg_key><arg_value>…</arg_value>` and Gemma `call:NAME{…}`.
 * Only names among `toolNames` count (after case/separator matching); anything else stays text.
 * These are the fast paths; the general extractor (callExtractor.ts) reads every other shape.
 */
export function parseTextToolCalls(text: string, toolNames: readonly string[]): TextCallParse {
	const matches = dialectMatches(text, toolNames);
	// A JSON call followed by more prose is an example in an explanation, not a call: models
	// that call in text end their message with the call.
	const lastEnd = Math.max(0, ...matches.map(m => m.end));
	const kept = text.slice(lastEnd).trim() !== '' ? matches.filter(m => m.call.dialect !== 'json') : matches;
	let prose = '';
	let at = 0;
	for (const { start, end } of [...kept].sort((a, b) => a.start - b.start)) {
		if (start >= at) {
			prose += text.slice(at, start);
			at = end;
		}
	}
	prose += text.slice(at);
	if (kept.length > 0) {
		prose = prose.replace(DIALECT_WRAPPERS, '');
	}
	const calls = [...kept].sort((a, b) => a.start - b.start).map(m => m.call);
	return { calls, prose: prose.replace(/\n{3,}/g, '\n\n').trim() };
}

/** Every dialect call in the text, with its span; overlapping finds keep the first (token dialects first). */
export function dialectMatches(text: string, toolNames: readonly string[]): DialectMatch[] {
	const found: DialectMatch[] = [];
	const overlaps = (start: number, end: number) => found.some(m => start < m.end && end > m.start);
	const take = (start: number, end: number, call: TextToolCall | undefined) => {
		const name = call && matchToolName(call.name, toolNames);
		if (call && name && !overlaps(start, end)) {
			found.push({ call: { ...call, name }, start, end });
		}
	};
	// Token dialects first: their JSON must not be taken for a bare JSON call.
	for (const d of findDialectCalls(text)) {
		const name = matchToolName(d.name, toolNames);
		// Several calls of one Mistral list share its span.
		const sameSpan = found.some(m => m.start === d.start && m.end === d.end);
		if (name && (sameSpan || !overlaps(d.start, d.end))) {
			found.push({
				call: { name, rawArguments: d.rawArguments, dialect: d.dialect },
				start: d.start,
				end: d.end,
			});
		}
	}
	for (const m of text.matchAll(/<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g)) {
		const body = m[1].trim();
		const call = body.startsWith('{')
			? jsonCall(body, 'tool_call')
			: body.includes('<function=')
				? qwenCall(body)
				: glmCall(body);
		take(m.index!, m.index! + m[0].length, call);
	}
	for (const m of text.matchAll(/<function=([\w.-]+)>([\s\S]*?)(?:<\/function>|$)/g)) {
		take(m.index!, m.index! + m[0].length, qwenCall(m[0]));
	}
	for (const m of text.matchAll(/```(?:json|tool_call|tool)?\s*\n([\s\S]*?)```/g)) {
		take(m.index!, m.index! + m[0].length, jsonCall(m[1].trim(), 'json'));
	}
	for (const m of text.matchAll(/call:([\w.-]+)\s*(\{[\s\S]*?\})(?=\s*(?:$|\n|<))/g)) {
		const args = parseLoose(m[2].replace(/<(?:escape|\|"\|)>/g, '"'));
		take(
			m.index!,
			m.index! + m[0].length,
			args ? { name: m[1], rawArguments: JSON.stringify(args), dialect: 'gemma' } : undefined,
		);
	}
	for (const [start, end] of balancedObjects(text)) {
		take(start, end, jsonCall(text.slice(start, end), 'json'));
	}
	return found;
}

function jsonCall(body: string, dialect: TextToolCall['dialect']): TextToolCall | undefined {
	let value = parseLoose(body) as Record<string, unknown> | unknown[] | undefined;
	if (Array.isArray(value) && value.length === 1) {
		value = value[0] as Record<string, unknown>;
	}
	if (!value || Array.isArray(value) || typeof value !== 'object') {
		return undefined;
	}
	const fn = (value.function && typeof value.function === 'object' ? value.function : value) as Record<
		string,
		unknown
	>;
	const name = fn.name ?? value.tool ?? value.tool_name;
	const args =
		fn.arguments ??
		fn.parameters ??
		fn.input ??
		fn.args ??
		(value.arguments === undefined && name ? {} : undefined);
	if (typeof name !== 'string' || args === undefined) {
		return undefined;
	}
	return { name, rawArguments: typeof args === 'string' ? args : JSON.stringify(args), dialect };
}

function qwenCall(body: string): TextToolCall | undefined {
	const head = /<function=([\w.-]+)>/.exec(body);
	if (!head) {
		return undefined;
	}
	const args: Record<string, string> = {};
	for (const m of body.matchAll(
		/<parameter=([\w.-]+)>([\s\S]*?)(?=<\/parameter>|<parameter=|<\/function>|<\/tool_call>|$)/g,
	)) {
		args[m[1]] = trimValue(m[2]);
	}
	return { name: head[1], rawArguments: JSON.stringify(args), dialect: 'qwen-xml' };
}

function glmCall(body: string): TextToolCall | undefined {
	const name = /^([\w.-]+)/.exec(body.trim())?.[1];
	if (!name) {
		return undefined;
	}
	const args: Record<string, string> = {};
	for (const m of body.matchAll(/<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)(?:<\/arg_value>|$)/g)) {
		args[m[1].trim()] = trimValue(m[2]);
	}
	return { name, rawArguments: JSON.stringify(args), dialect: 'glm-xml' };
}

/** Top-level `{…}` spans, respecting strings, so prose braces don't confuse the JSON scan. */
function balancedObjects(text: string): Array<[number, number]> {
	const out: Array<[number, number]> = [];
	let depth = 0;
	let start = -1;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			if (c === '\\') {
				i++;
			} else if (c === '"') {
				inString = false;
			}
		} else if (c === '"' && depth > 0) {
			inString = true;
		} else if (c === '{') {
			if (depth++ === 0) {
				start = i;
			}
		} else if (c === '}' && depth > 0 && --depth === 0) {
			out.push([start, i + 1]);
		}
	}
	return out;
}
