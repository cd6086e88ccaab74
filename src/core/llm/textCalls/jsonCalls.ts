import { parseLoose } from './argumentReaders';
import { isRecord } from '../../util/json';
import type { Candidate, OfferedTool } from './candidate';
import { widenOverMarkup } from './textScan';
import { matchToolName } from './toolNames';

/** Fields that describe a call rather than carry its arguments. */
const NOT_ARGUMENTS = /^(type|id|index|call_id|tool_call_id|kind)$/i;

/**
 * The calls inside one balanced JSON value, whatever its shape: a string field naming an offered
 * tool (under any key) with its arguments in the sibling that holds an object (or a JSON string
 * of one) or, failing that, in the other fields; `{"tool_name": {…}}`; calls nested under
 * `function`, or listed in an array. Only names of offered tools count. Undefined when the span
 * is not JSON at all.
 */
export function jsonCallsAt(
	text: string,
	span: [number, number],
	tools: readonly OfferedTool[],
): Candidate[] | undefined {
	const value = parseLoose(text.slice(span[0], span[1]));
	// Brackets around something that is not JSON (`[read_file(path="a")]`): not this reader's.
	if (!isRecord(value) && !(Array.isArray(value) && value.length > 0 && value.every(isRecord))) {
		return undefined;
	}
	const [start, end] = widenOverMarkup(text, span[0], span[1]);
	return callsIn(value, tools, 0).map(call => ({
		name: call.name,
		args: call.args,
		start,
		end,
		core: span,
		wrapped: start < span[0] || end > span[1],
		group: span[0],
		...(call.loose ? { loose: true } : {}),
	}));
}

interface JsonCall {
	name: string;
	args: Record<string, unknown>;
	/** The arguments were the object's other scalar fields, not a field holding them: a weaker sign of a call. */
	loose?: boolean;
}

function callsIn(value: unknown, tools: readonly OfferedTool[], depth: number): JsonCall[] {
	if (depth > 4) {
		return [];
	}
	if (Array.isArray(value)) {
		return value.flatMap(item => callsIn(item, tools, depth + 1));
	}
	if (!isRecord(value)) {
		return [];
	}
	const names = tools.map(tool => tool.name);
	for (const [key, field] of Object.entries(value)) {
		const name = typeof field === 'string' ? matchToolName(field, names) : undefined;
		if (name) {
			return [argumentsBeside(value, key, name, tools)];
		}
	}
	for (const [key, field] of Object.entries(value)) {
		const name = matchToolName(key, names);
		const args = objectOf(field);
		if (name && args) {
			return [{ name, args }];
		}
	}
	return Object.values(value).flatMap(field => callsIn(field, tools, depth + 1));
}

/** The arguments of a call named in `nameKey`: the sibling object that fits the schema best, or the other fields. */
function argumentsBeside(
	record: Record<string, unknown>,
	nameKey: string,
	name: string,
	tools: readonly OfferedTool[],
): JsonCall {
	const properties = Object.keys(
		(tools.find(t => t.name === name)?.parameters.properties as object | undefined) ?? {},
	);
	const objects = Object.entries(record)
		.filter(([key]) => key !== nameKey)
		.map(([, field]) => objectOf(field))
		.filter((args): args is Record<string, unknown> => args !== undefined);
	if (objects.length > 0) {
		const fit = (args: Record<string, unknown>) => Object.keys(args).filter(key => properties.includes(key)).length;
		return { name, args: objects.reduce((best, args) => (fit(args) > fit(best) ? args : best)) };
	}
	const flat = Object.fromEntries(
		Object.entries(record).filter(([key]) => key !== nameKey && !NOT_ARGUMENTS.test(key)),
	);
	return { name, args: flat, loose: true };
}

/** An object, or a string holding the JSON of one (arguments encoded twice). */
function objectOf(field: unknown): Record<string, unknown> | undefined {
	if (isRecord(field)) {
		return field;
	}
	if (typeof field === 'string' && field.trim().startsWith('{')) {
		const inner = parseLoose(field);
		return isRecord(inner) ? inner : undefined;
	}
	return undefined;
}
