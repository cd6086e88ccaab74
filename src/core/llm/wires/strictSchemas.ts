/**
 * Strict tool schemas, for the one request that forces a call: a server that enforces
 * `strict` (OpenAI, vLLM, SGLang) then constrains the arguments to the schema as well as the
 * call. Its rules (OpenAI's structured outputs): every object lists all its fields as required
 * and allows no others, so an optional field is sent as one that may be `null`, and a `null`
 * the model gives for it is read back as the field left out. A schema with a free-form object
 * (no fields listed) cannot be strict: its tool goes without `strict`.
 */
import { isRecord } from '../../util/json';

/** A JSON schema as the wires send it (the shape tools/schemaForms.ts produces). */
type JsonSchema = Record<string, unknown>;

/** The strict form of a schema (from wireSchema), or undefined when it has a free-form object. */
export function strictSchema(schema: JsonSchema): JsonSchema | undefined {
	try {
		return strict(schema) as JsonSchema;
	} catch {
		return undefined;
	}
}

class NotStrict extends Error {}

function strict(node: unknown): unknown {
	if (!isRecord(node)) {
		throw new NotStrict();
	}
	const out: JsonSchema = { ...node };
	for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
		if (Array.isArray(out[key])) {
			out[key === 'oneOf' ? 'anyOf' : key] = (out[key] as unknown[]).map(strict);
			if (key === 'oneOf') delete out.oneOf;
		}
	}
	if (out.items !== undefined) {
		out.items = strict(out.items);
	}
	const type = Array.isArray(out.type) ? out.type : [out.type];
	if (type.includes('object') || isRecord(out.properties)) {
		if (!isRecord(out.properties) || Object.keys(out.properties).length === 0) {
			throw new NotStrict();
		}
		const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
		out.properties = Object.fromEntries(
			Object.entries(out.properties).map(([name, sub]) => [
				name,
				required.has(name) ? strict(sub) : orNull(strict(sub) as JsonSchema),
			]),
		);
		out.required = Object.keys(out.properties as JsonSchema);
		out.additionalProperties = false;
	}
	if (out.type === undefined && out.anyOf === undefined && out.enum === undefined && out.const === undefined) {
		// "Anything" has no strict form.
		throw new NotStrict();
	}
	return out;
}

function orNull(schema: JsonSchema): JsonSchema {
	if (typeof schema.type === 'string') {
		const { enum: values, ...rest } = schema;
		return {
			...rest,
			type: [schema.type, 'null'],
			...(Array.isArray(values) ? { enum: [...values, null] } : {}),
		};
	}
	if (Array.isArray(schema.type)) {
		return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
	}
	const { description, ...rest } = schema;
	return { ...(description ? { description } : {}), anyOf: [rest, { type: 'null' }] };
}

/**
 * Arguments given under a strict schema, read as the tool's own schema means them: a `null`
 * for a field the original left optional is that field left out (at every level).
 */
export function fromStrictArguments(rawArguments: string, original: JsonSchema): string {
	let value: unknown;
	try {
		value = JSON.parse(rawArguments);
	} catch {
		return rawArguments;
	}
	return JSON.stringify(dropNulls(value, original));
}

function dropNulls(value: unknown, schema: unknown): unknown {
	if (Array.isArray(value)) {
		const items = isRecord(schema) ? schema.items : undefined;
		return value.map(item => dropNulls(item, items));
	}
	if (!isRecord(value) || !isRecord(schema)) {
		return value;
	}
	const properties = isRecord(schema.properties) ? schema.properties : {};
	const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
	const out: Record<string, unknown> = {};
	for (const [key, item] of Object.entries(value)) {
		if (item === null && key in properties && !required.has(key)) {
			continue;
		}
		out[key] = dropNulls(item, properties[key]);
	}
	return out;
}
