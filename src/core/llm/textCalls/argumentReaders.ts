import { jsonrepair } from 'jsonrepair';
import { isRecord } from '../../util/json';
import { escapeRegExp, groupEnd, stringEnd, stringValue } from './textScan';

/** What one argument encoding made of the text after a call's name. */
export type ArgsRead =
	| { kind: 'args'; args: Record<string, unknown>; end: number }
	/** The encoding began but never closed (a quote, brace, parenthesis or value cut off). */
	| { kind: 'incomplete'; detail: string };

/** A JSON object at `at` (`{`): repaired when malformed, never completed when cut. */
export function readJsonArgs(text: string, at: number): ArgsRead | undefined {
	const end = groupEnd(text, at);
	if (end === undefined) {
		return { kind: 'incomplete', detail: 'its JSON arguments stop before the closing brace' };
	}
	const value = parseLoose(text.slice(at, end));
	return isRecord(value) ? { kind: 'args', args: value, end } : undefined;
}

/** Python call syntax at `at` (`(`): keyword arguments, positional ones in the schema's order, or one dict. */
export function readPythonArgs(text: string, at: number, properties: string[]): ArgsRead | undefined {
	const end = groupEnd(text, at);
	if (end === undefined) {
		return { kind: 'incomplete', detail: 'its parenthesis never closes' };
	}
	const inner = text.slice(at + 1, end - 1).trim();
	if (inner === '') {
		return { kind: 'args', args: {}, end };
	}
	if (inner.startsWith('{') && groupEnd(inner, 0) === inner.length) {
		const value = parseLoose(inner);
		return isRecord(value) ? { kind: 'args', args: value, end } : undefined;
	}
	const args: Record<string, unknown> = {};
	const positional: unknown[] = [];
	for (const part of splitTopLevel(inner)) {
		const named = /^([A-Za-z_][\w-]*)\s*[=:]\s*([\s\S]+)$/.exec(part);
		const literal = pythonLiteral(named ? named[2] : part);
		if (literal === NOT_A_LITERAL) {
			return undefined; // `read_file(path)`: a name in prose, not a value
		}
		named ? (args[named[1]] = literal) : positional.push(literal);
	}
	if (positional.length > 0) {
		if (Object.keys(args).length > 0 || positional.length > properties.length) {
			return undefined;
		}
		positional.forEach((value, i) => (args[properties[i]] = value));
	}
	return { kind: 'args', args, end };
}

/** `key=value` pairs after the name, every key one of the tool's properties; quoted or bare values. */
export function readKeyValues(text: string, at: number, properties: string[]): ArgsRead | undefined {
	const args: Record<string, unknown> = {};
	let i = at;
	let end = at;
	for (;;) {
		const head = /^[ \t,;:]*(?:\r?\n[ \t]*)?([A-Za-z_][\w-]*)[ \t]*=[ \t]*/.exec(text.slice(i));
		if (!head || !properties.includes(head[1])) {
			break;
		}
		const valueAt = i + head[0].length;
		const quote = text[valueAt];
		if (quote === '"' || quote === "'") {
			const close = stringEnd(text, valueAt);
			if (close === undefined) {
				return { kind: 'incomplete', detail: `the value of ${head[1]} has no closing quote` };
			}
			args[head[1]] = stringValue(text.slice(valueAt, close));
			i = end = close;
		} else {
			const bare = /^[^\s,;()[\]{}<>"'`]+/.exec(text.slice(valueAt));
			if (!bare) {
				break;
			}
			args[head[1]] = bare[0];
			i = end = valueAt + bare[0].length;
		}
	}
	return Object.keys(args).length > 0 ? { kind: 'args', args, end } : undefined;
}

/**
 * Arguments written as XML-ish elements between `from` and `to`: `<parameter=k>v</parameter>`,
 * `<parameter name="k">v</parameter>`, `<k>v</k>` for a property k, and a key element followed
 * by a value element (`<arg_key>k</arg_key><arg_value>v</arg_value>`, any tag names).
 */
export function readXmlArgs(text: string, from: number, to: number, properties: string[]): ArgsRead | undefined {
	const region = text.slice(from, to);
	const keys = properties.map(escapeRegExp).join('|') || '(?!)';
	const opener = new RegExp(
		`<(\\w+)=([\\w.-]+)>|<(\\w+)\\s+name\\s*=\\s*["']([\\w.-]+)["']\\s*>|<(${keys})>|<(\\w+)>\\s*(${keys})\\s*</\\6>\\s*<(\\w+)>`,
		'g',
	);
	const args: Record<string, unknown> = {};
	let end = 0;
	for (let m; (m = opener.exec(region));) {
		const tag = m[1] ?? m[3] ?? m[5] ?? m[8];
		const key = m[2] ?? m[4] ?? m[5] ?? m[7];
		const valueAt = m.index + m[0].length;
		const close = region.indexOf(`</${tag}>`, valueAt);
		const next = m[1] ? region.indexOf(`<${tag}=`, valueAt) : -1;
		const stop = close >= 0 ? close : next >= 0 ? next : to < text.length ? region.length : -1;
		if (stop < 0) {
			return { kind: 'incomplete', detail: `the value of ${key} stops before its closing tag` };
		}
		args[key] = trimValue(region.slice(valueAt, stop));
		end = close >= 0 ? close + tag.length + 3 : stop;
		opener.lastIndex = end;
	}
	return Object.keys(args).length > 0 ? { kind: 'args', args, end: from + end } : undefined;
}

/** `k="v"` attributes of a tag (the tag that names the tool), other than its name, id and type. */
export function readAttributes(tag: string): Record<string, unknown> {
	const args: Record<string, unknown> = {};
	for (const m of tag.matchAll(/([A-Za-z_][\w-]*)\s*=\s*("[^"]*"|'[^']*')/g)) {
		if (!/^(name|id|type|tool|function)$/i.test(m[1])) {
			args[m[1]] = m[2].slice(1, -1);
		}
	}
	return args;
}

/** XML-ish values sit on their own lines; one leading and trailing newline is layout, not content. */
export function trimValue(value: string): string {
	const stripped = value.replace(/^[ \t]*\r?\n/, '').replace(/\r?\n[ \t]*$/, '');
	return stripped.includes('\n') ? stripped : stripped.trim();
}

export function parseLoose(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		try {
			return JSON.parse(jsonrepair(text));
		} catch {
			return undefined;
		}
	}
}

const NOT_A_LITERAL = Symbol('not a literal');

function pythonLiteral(source: string): unknown {
	const text = source.trim();
	if (/^("""|'''|"|')/.test(text) && stringEnd(text, 0) === text.length) {
		return stringValue(text);
	}
	if (/^-?\d+(\.\d+)?$/.test(text)) {
		return Number(text);
	}
	const words: Record<string, unknown> = {
		True: true,
		False: false,
		None: null,
		true: true,
		false: false,
		null: null,
	};
	if (text in words) {
		return words[text];
	}
	if (/^[[{]/.test(text) && groupEnd(text, 0) === text.length) {
		const value = parseLoose(text);
		return value === undefined ? NOT_A_LITERAL : value;
	}
	return NOT_A_LITERAL;
}

function splitTopLevel(inner: string): string[] {
	const parts: string[] = [];
	let from = 0;
	for (let i = 0; i < inner.length; i++) {
		const c = inner[i];
		if (c === '"' || c === "'") {
			i = (stringEnd(inner, i) ?? inner.length) - 1;
		} else if (c === '(' || c === '[' || c === '{') {
			i = (groupEnd(inner, i) ?? inner.length) - 1;
		} else if (c === ',') {
			parts.push(inner.slice(from, i));
			from = i + 1;
		}
	}
	parts.push(inner.slice(from));
	return parts.map(part => part.trim()).filter(Boolean);
}
