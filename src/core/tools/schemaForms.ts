/**
 * The forms a tool's JSON Schema is sent in. Keel validates every call itself (zod, or Ajv
 * against an MCP tool's own schema), so the server needs only what shapes a call: types,
 * properties, what is required, small enums, items. Local servers (llama.cpp, LM Studio ≥ 0.4.20)
 * compile whatever they get into one grammar for every tool at once, and a `maxLength` of
 * 2000 or a nested repetition breaks the whole request. So validation keywords become words in
 * the description (the model still reads "at most 2000 characters"), `$ref`s are inlined, deep
 * nesting and huge enums are told instead of spelled out. Every form is a relaxation of the
 * schema it came from: a call valid under the original is valid under what was sent.
 */
import { isRecord } from '../util/json';

export type JsonSchema = Record<string, unknown>;

export interface FormLimits {
	/** Levels of objects and arrays below the arguments object that are spelled out. */
	maxDepth: number;
	/** Enums longer than this are told in the description, not spelled out. */
	maxEnum: number;
	/** anyOf / oneOf with more branches than this become "one of N shapes". */
	maxBranches: number;
	/** Descriptions are cut to this many characters (their first sentences). */
	maxDescription?: number;
}

/** What every request carries. */
export const WIRE_FORM: FormLimits = { maxDepth: 4, maxEnum: 24, maxBranches: 8 };
/** After a server could not compile the tool schemas: one level, short enums, no alternatives. */
export const SIMPLEST_FORM: FormLimits = { maxDepth: 1, maxEnum: 8, maxBranches: 0, maxDescription: 160 };

/** Kept as they are: they shape the call, and every grammar converter reads them. */
const STRUCTURE = new Set(['type', 'properties', 'required', 'items', 'enum', 'const', 'anyOf', 'oneOf', 'allOf']);
/** Kept: meaning for the model, ignored by grammar converters. */
const MEANING = new Set(['description', 'default', 'nullable']);

export function wireSchema(schema: JsonSchema, limits: FormLimits = WIRE_FORM): JsonSchema {
	const defs = { ...asRecord(schema.definitions), ...asRecord(schema.$defs) };
	return shape(schema, { defs, limits, depth: 0, refs: [] }) as JsonSchema;
}

/** The simplest form that still says what to call and with which fields, for a server that refused the usual one. */
export function simplestSchema(schema: JsonSchema): JsonSchema {
	return wireSchema(schema, SIMPLEST_FORM);
}

interface Walk {
	defs: Record<string, unknown>;
	limits: FormLimits;
	/** Levels of objects and arrays above this node (the arguments object is 0). */
	depth: number;
	/** `$ref`s being inlined above this node: a recursive one is told, not followed. */
	refs: string[];
}

function shape(node: unknown, walk: Walk): JsonSchema {
	if (!isRecord(node)) {
		// `true` (and any other non-object) accepts anything; `false` too, here: Keel's validation says no.
		return {};
	}
	if (typeof node.$ref === 'string') {
		return inlineRef(node, walk);
	}
	const notes: string[] = [];
	const out: JsonSchema = {};
	for (const [key, value] of Object.entries(node)) {
		if (STRUCTURE.has(key) || MEANING.has(key)) {
			out[key] = value;
		} else if (key === 'additionalProperties' && value === false) {
			out[key] = false;
		} else if (key !== 'minimum' && key !== 'maximum') {
			const note = constraintNote(key, value);
			if (note) notes.push(note);
		}
	}
	const range = rangeNote(node.minimum, node.maximum);
	if (range) notes.unshift(range);
	if (out.description === undefined && typeof node.title === 'string') {
		out.description = node.title;
	}
	const type = typeOf(out);
	if (walk.depth >= walk.limits.maxDepth && walk.depth > 0 && nests(out)) {
		return told(out, type === 'object' ? 'object' : 'array', notes, walk);
	}
	const inner = { ...walk, depth: type === 'object' || type === 'array' ? walk.depth + 1 : walk.depth };
	if (isRecord(out.properties)) {
		const properties = Object.entries(out.properties);
		if (properties.length === 0) {
			// No fields: any object (an empty `properties` makes some converters write an invalid rule).
			delete out.properties;
			delete out.additionalProperties;
		} else {
			out.properties = Object.fromEntries(properties.map(([name, sub]) => [name, shape(sub, inner)]));
		}
	}
	if (Array.isArray(out.required)) {
		const known = isRecord(out.properties) ? out.properties : {};
		out.required = out.required.filter(name => typeof name === 'string' && name in known);
		if ((out.required as string[]).length === 0) delete out.required;
	}
	if (Array.isArray(out.items)) {
		// A tuple (draft-04 `items: [...]`): positions differ, so any item is accepted here.
		delete out.items;
	} else if (out.items !== undefined) {
		out.items = shape(out.items, inner);
	}
	for (const key of ['anyOf', 'oneOf'] as const) {
		const branches = out[key];
		if (Array.isArray(branches)) {
			if (branches.length > walk.limits.maxBranches && !isNullable(branches)) {
				delete out[key];
				notes.push(`one of ${branches.length} shapes`);
			} else {
				out[key] = branches.map(b => shape(b, walk));
			}
		}
	}
	if (Array.isArray(out.allOf)) {
		out.allOf = walk.limits.maxBranches > 0 ? out.allOf.map(b => shape(b, walk)) : undefined;
		if (out.allOf === undefined) delete out.allOf;
	}
	if (Array.isArray(out.enum) && pastLimit(out.enum, walk.limits.maxEnum)) {
		const values = out.enum;
		delete out.enum;
		out.type ??= enumType(values);
		notes.push(
			`one of ${values
				.slice(0, 6)
				.map(v => JSON.stringify(v))
				.join(', ')}, … (${values.length} values)`,
		);
	}
	return withNotes(out, notes, walk.limits);
}

/** A level below the limit: its type, and in words what it holds. */
function told(node: JsonSchema, type: string, notes: string[], walk: Walk): JsonSchema {
	const fields = isRecord(node.properties) ? Object.keys(node.properties) : [];
	const holds =
		type === 'object'
			? fields.length > 0
				? `an object with ${fields.slice(0, 8).join(', ')}${fields.length > 8 ? ', …' : ''}`
				: 'an object'
			: 'a list';
	return withNotes(
		{ type, ...(node.description ? { description: node.description } : {}) },
		[holds, ...notes],
		walk.limits,
	);
}

function inlineRef(node: JsonSchema, walk: Walk): JsonSchema {
	const ref = node.$ref as string;
	const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
	const target = name === undefined ? undefined : walk.defs[decodeURIComponent(name)];
	const { $ref: _ref, ...rest } = node;
	if (target === undefined || walk.refs.includes(ref)) {
		// Unresolvable here, or recursive: the model reads what it is; Keel's validation holds it to the real shape.
		const described = typeof rest.description === 'string' ? rest.description : '';
		const what = target === undefined ? '' : 'the same shape as the enclosing one';
		const type = isRecord(target) && target.type ? { type: target.type } : {};
		return withNotes({ ...type, ...(described ? { description: described } : {}) }, [what], walk.limits);
	}
	return shape({ ...(isRecord(target) ? target : {}), ...rest }, { ...walk, refs: [...walk.refs, ref] });
}

/** A validation keyword in words, or nothing when the model gains nothing from it. */
function constraintNote(key: string, value: unknown): string | undefined {
	switch (key) {
		case 'maxLength':
			return `at most ${value} characters`;
		case 'minLength':
			return value === 1 ? 'not empty' : Number(value) > 1 ? `at least ${value} characters` : undefined;
		case 'pattern':
			return typeof value === 'string' && value.length <= 48 ? `matching ${value}` : undefined;
		case 'format':
			return typeof value === 'string' ? `format ${value}` : undefined;
		case 'exclusiveMinimum':
			return typeof value === 'number' ? `> ${value}` : undefined;
		case 'exclusiveMaximum':
			return typeof value === 'number' ? `< ${value}` : undefined;
		case 'multipleOf':
			return `a multiple of ${value}`;
		case 'minItems':
			return Number(value) > 0 ? `at least ${value} items` : undefined;
		case 'maxItems':
			return `at most ${value} items`;
		case 'uniqueItems':
			return value === true ? 'no duplicates' : undefined;
		case 'minProperties':
			return Number(value) > 0 ? `at least ${value} fields` : undefined;
		case 'maxProperties':
			return `at most ${value} fields`;
		default:
			// $schema, $id, $comment, examples, title, readOnly, x-…, if/then/else, not, patternProperties, …
			return undefined;
	}
}

/** "1–5000", "≥ 1", "≤ 100"; a bound at the edge of what JavaScript counts (zod's .int()) says nothing. */
function rangeNote(minimum: unknown, maximum: unknown): string | undefined {
	const said = (n: unknown): n is number => typeof n === 'number' && Math.abs(n) < Number.MAX_SAFE_INTEGER;
	if (said(minimum) && said(maximum)) return `${minimum}–${maximum}`;
	if (said(minimum)) return `≥ ${minimum}`;
	if (said(maximum)) return `≤ ${maximum}`;
	return undefined;
}

function withNotes(node: JsonSchema, notes: string[], limits: FormLimits): JsonSchema {
	const said = notes.filter(Boolean);
	let description = typeof node.description === 'string' ? node.description.trim() : '';
	if (limits.maxDescription !== undefined && description.length > limits.maxDescription) {
		const cut = description.slice(0, limits.maxDescription);
		const sentence = cut.lastIndexOf('. ');
		description = sentence > 40 ? cut.slice(0, sentence + 1) : `${cut.trimEnd()}…`;
	}
	if (said.length > 0) {
		const merged = merge(description, said.join(', '));
		description = merged;
	}
	if (description) {
		node.description = description;
	} else {
		delete node.description;
	}
	return node;
}

function merge(description: string, note: string): string {
	if (!description) return note.charAt(0).toUpperCase() + note.slice(1);
	const end = description.endsWith('.') ? '.' : '';
	const body = end ? description.slice(0, -1) : description;
	// "Number of lines (default 400)" + "1–5000" → "Number of lines (default 400; 1–5000)".
	return body.endsWith(')') ? `${body.slice(0, -1)}; ${note})${end}` : `${body} (${note})${end}`;
}

/** An object with fields, or a list of objects or lists: what a level limit folds. */
function nests(node: JsonSchema): boolean {
	const type = typeOf(node);
	if (type === 'object') return isRecord(node.properties) && Object.keys(node.properties).length > 0;
	if (type !== 'array' || !isRecord(node.items)) return false;
	const inner = typeOf(node.items);
	return inner === 'object' || inner === 'array';
}

function typeOf(node: JsonSchema): string | undefined {
	const type = Array.isArray(node.type) ? node.type.find(t => t !== 'null') : node.type;
	if (typeof type === 'string') return type;
	if (isRecord(node.properties)) return 'object';
	if (node.items !== undefined) return 'array';
	return undefined;
}

function pastLimit(values: unknown[], most: number): boolean {
	return values.length > most || JSON.stringify(values).length > 40 * Math.max(1, most);
}

function enumType(values: unknown[]): string | undefined {
	const types = new Set(values.map(v => (v === null ? 'null' : typeof v)));
	types.delete('null');
	if (types.size !== 1) return undefined;
	const [only] = types;
	return only === 'number' ? 'number' : only === 'boolean' ? 'boolean' : only === 'string' ? 'string' : undefined;
}

/** `anyOf: [X, {type: null}]`: how zod writes an optional nullable field; never "one of 2 shapes". */
function isNullable(branches: unknown[]): boolean {
	return branches.length === 2 && branches.some(b => isRecord(b) && b.type === 'null');
}

function asRecord(value: unknown): Record<string, unknown> {
	return isRecord(value) ? value : {};
}
