import { isRecord, tryParseJson } from '../../util/json';
import { jsonrepair } from 'jsonrepair';
import { scanOutsideStrings } from './jsonScan';

export interface RepairResult {
	/** Canonical JSON text of the arguments after repair. */
	json: string;
	value: unknown;
	/** What was fixed, for the inline notice; empty when the input was already fine. */
	fixes: string[];
}

type Schema = {
	type?: string | string[];
	properties?: Record<string, Schema>;
	items?: Schema;
	anyOf?: Schema[];
	required?: string[];
};

/**
 * Makes near-valid JSON arguments valid: trailing commas, single quotes, unquoted keys,
 * Python literals, a string cut off at the end (jsonrepair), doubly encoded JSON, and values
 * the schema wants as object/array/number/boolean but that arrived as strings.
 * Returns undefined when nothing sensible can be made of the text.
 */
export function repairArguments(raw: string, schema?: Record<string, unknown>): RepairResult | undefined {
	const fixes: string[] = [];
	let text = stripFences(raw.trim());
	if (text !== raw.trim()) {
		fixes.push('removed a code fence');
	}
	if (text === '') {
		return { json: '{}', value: {}, fixes };
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		try {
			text = jsonrepair(text);
			value = JSON.parse(text);
			fixes.push('repaired malformed JSON');
		} catch {
			return undefined;
		}
	}
	// Doubly encoded: "{\"path\":\"a\"}" — a JSON string that holds the object.
	for (let depth = 0; typeof value === 'string' && depth < 2; depth++) {
		const inner = tryParseJson(value);
		if (inner === undefined) {
			break;
		}
		value = inner;
		fixes.push('decoded doubly encoded JSON');
	}
	// A lone call wrapped in an array (ollama#17638).
	if (Array.isArray(value) && value.length === 1 && isRecord(value[0]) && schema?.type === 'object') {
		value = value[0];
		fixes.push('unwrapped an array');
	}
	if (!isRecord(value)) {
		return undefined;
	}
	value = coerce(value, schema as Schema | undefined, fixes);
	return { json: JSON.stringify(value), value, fixes: [...new Set(fixes)] };
}

/** Follows the schema one level at a time and converts strings to what it asks for. */
function coerce(value: unknown, schema: Schema | undefined, fixes: string[]): unknown {
	if (!schema) {
		return value;
	}
	const types = Array.isArray(schema.type)
		? schema.type
		: schema.type
			? [schema.type]
			: (schema.anyOf ?? []).flatMap(s => (s.type ? [s.type].flat() : []));
	if (typeof value === 'string' && !types.includes('string')) {
		if (types.includes('object') || types.includes('array')) {
			const inner = tryParseJson(value);
			if (inner !== undefined && (isRecord(inner) || Array.isArray(inner))) {
				fixes.push('parsed a JSON-encoded string');
				return coerce(inner, schema, fixes);
			}
		}
		if (
			(types.includes('number') || types.includes('integer')) &&
			value.trim() !== '' &&
			Number.isFinite(Number(value))
		) {
			fixes.push('converted a string to a number');
			return Number(value);
		}
		if (types.includes('boolean') && /^(true|false|yes|no)$/i.test(value.trim())) {
			fixes.push('converted a string to a boolean');
			return /^(true|yes)$/i.test(value.trim());
		}
		if (types.includes('array')) {
			// "a.ts, b.ts" for ["a.ts", "b.ts"]; a lone value for a one-item list.
			fixes.push('split a string into a list');
			return value
				.split(',')
				.map(item => item.trim())
				.filter(Boolean)
				.map(item => coerce(item, schema.items, fixes));
		}
	}
	if (isRecord(value) && schema.properties) {
		const out: Record<string, unknown> = renameNearMisses(value, schema.properties, fixes);
		for (const [key, sub] of Object.entries(schema.properties)) {
			if (key in out) {
				out[key] = coerce(out[key], sub, fixes);
			}
		}
		return out;
	}
	if (Array.isArray(value) && schema.items) {
		return value.map(item => coerce(item, schema.items, fixes));
	}
	return value;
}

const ALIASES: Record<string, string[]> = {
	path: [
		'file',
		'filename',
		'filepath',
		'file_path',
		'file_name',
		'path_name',
		'pathname',
		'target_file',
		'target',
		'dir',
		'directory',
		'folder',
	],
	command: ['cmd', 'shell', 'shell_command', 'bash', 'script', 'commandline', 'command_line'],
	content: ['contents', 'text', 'body', 'data', 'file_content', 'file_contents', 'new_content'],
	query: ['q', 'search', 'search_query', 'term', 'pattern'],
	pattern: ['regex', 'query', 'search', 'glob'],
	url: ['uri', 'link', 'href', 'address'],
};

/**
 * Keys that are near misses of the schema's (`file_path`, `filename`, `filepath` for `path`)
 * are renamed when exactly one missing property fits; anything ambiguous stays as sent.
 */
function renameNearMisses(
	value: Record<string, unknown>,
	properties: Record<string, Schema>,
	fixes: string[],
): Record<string, unknown> {
	const out: Record<string, unknown> = { ...value };
	const norm = (key: string) => key.toLowerCase().replace(/[\s_-]/g, '');
	for (const key of Object.keys(value)) {
		if (key in properties) {
			continue;
		}
		const missing = Object.keys(properties).filter(p => !(p in out));
		const fits = missing.filter(
			p =>
				norm(p) === norm(key) ||
				(ALIASES[p] ?? []).some(alias => norm(alias) === norm(key)) ||
				(norm(key).endsWith(norm(p)) && norm(p).length >= 3),
		);
		if (fits.length === 1) {
			out[fits[0]] = out[key];
			delete out[key];
			fixes.push(`renamed "${key}" to "${fits[0]}"`);
		}
	}
	return out;
}

function stripFences(text: string): string {
	const fence = /^```[a-z]*\s*\n?([\s\S]*?)\n?```$/i.exec(text);
	return fence ? fence[1].trim() : text;
}

/**
 * `{"path":"a"}{"path":"b"}`: two calls' arguments in one string (Ollama streams every
 * parallel call with index 0). Returns each object's text, or undefined when it is not that.
 */
export function splitConcatenated(raw: string): string[] | undefined {
	const text = raw.trim();
	if (!text.startsWith('{') || tryParseJson(text) !== undefined) {
		return undefined;
	}
	const parts: string[] = [];
	let depth = 0;
	let start = 0;
	let lastEnd = 0;
	let stray = false;
	scanOutsideStrings(text, (c, i) => {
		if (c === '{') {
			if (depth++ === 0) {
				// Only whitespace or a comma may sit between the objects.
				if (text.slice(lastEnd, i).replace(/[\s,]/g, '')) {
					stray = true;
					return false;
				}
				start = i;
			}
		} else if (c === '}' && --depth === 0) {
			parts.push(text.slice(start, i + 1));
			lastEnd = i + 1;
		}
		return true;
	});
	if (stray) {
		return undefined;
	}
	return depth === 0 &&
		!text.slice(lastEnd).trim() &&
		parts.length >= 2 &&
		parts.every(part => isRecord(tryParseJson(part)))
		? parts
		: undefined;
}
