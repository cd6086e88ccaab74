// Generated tool schemas with every keyword a grammar converter chokes on: string and list
// bounds from 1 to half a million (llama.cpp#26596, #25746, #27087, #27859), patterns with
// lookaheads, shorthand classes, no anchors or no valid syntax at all (lmstudio#2168,
// lidge-jun/opencodex#2135, email-mcp#58), formats, `$ref`s to `$defs` (resolvable, recursive,
// dangling), huge enums, deep nesting, empty objects (#25923), and many tools at once
// (#25895). Each pattern comes with a value it accepts, so a valid argument can be built for
// any generated schema.

import * as fc from 'fast-check';
import type * as z from 'zod';
import { jsonSchemaInput } from '../../src/core/tools/sources/mcpTools';
import { ok, type ToolDefinition } from '../../src/core/tools/defineTool';

export type Schema = Record<string, any>;

/** Patterns seen in real tool schemas, each with a string it matches. */
export const PATTERNS: Array<[pattern: string, example: string]> = [
	['^[a-z][a-z0-9-]{0,30}$', 'tag-1'],
	['\\S', 'x'],
	['^\\d{4}-\\d{2}-\\d{2}$', '2026-11-28'],
	[
		"^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
		'ann@example.com',
	],
	['^(?=.*[0-9])[a-z0-9]{3,}$', 'ab1'],
	['[A-Z]{2}\\d+', 'AB12'],
	['^out_[A-Za-z0-9_-]+$', 'out_abc'],
	['^(?:https?)://', 'https://'],
	// Python's named group: no JavaScript (or Ajv) can read it; llama.cpp calls it invalid. Last, and rare.
	['^(?P<year>\\d{4})$', '2026'],
];

const FORMATS = ['uri', 'email', 'date-time', 'date', 'uuid', 'hostname', 'ipv4', 'regex'];
const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,11}$/);
const bound = fc.oneof(
	fc.integer({ min: 1, max: 100 }),
	fc.constantFrom(1999, 2000, 2001, 2048, 5000, 10_000, 65_536, 524_288),
);
const description = fc.option(fc.lorem({ maxCount: 12 }), { nil: undefined });

const stringSchema: fc.Arbitrary<Schema> = fc
	.record(
		{
			maxLength: bound,
			minLength: fc.integer({ min: 0, max: 3000 }),
			pattern: fc.oneof(
				{ weight: 30, arbitrary: fc.integer({ min: 0, max: PATTERNS.length - 2 }) },
				{ weight: 1, arbitrary: fc.constant(PATTERNS.length - 1) },
			),
			format: fc.constantFrom(...FORMATS),
			description,
		},
		{ requiredKeys: [] },
	)
	.map(({ pattern, ...rest }) => {
		const out: Schema = { type: 'string', ...clean(rest) };
		if (pattern !== undefined) {
			out.pattern = PATTERNS[pattern][0];
			delete out.maxLength;
			delete out.minLength;
			delete out.format;
		}
		if (out.minLength !== undefined && out.maxLength !== undefined && out.minLength > out.maxLength) {
			out.minLength = out.maxLength;
		}
		return out;
	});

const scalar: fc.Arbitrary<Schema> = fc.oneof(
	stringSchema,
	fc
		.record(
			{ minimum: fc.integer({ min: -5, max: 10 }), maximum: fc.integer({ min: 11, max: 100_000 }), description },
			{ requiredKeys: [] },
		)
		.map(r => ({ type: 'integer', ...clean(r) })),
	fc.constant({ type: 'boolean' }),
	fc
		.uniqueArray(fc.stringMatching(/^[a-z]{1,10}$/), { minLength: 1, maxLength: 400 })
		.map(values => ({ type: 'string', enum: values })),
);

/** Any schema node: scalars, objects, lists and alternatives, nested up to a few levels. */
export const schemaNode: fc.Arbitrary<Schema> = fc.letrec<{ node: Schema }>(tie => ({
	node: fc.oneof(
		{ depthSize: 'small', withCrossShrink: true },
		scalar,
		fc
			.record(
				{
					properties: fc.dictionary(key, tie('node'), { maxKeys: 5 }),
					additionalProperties: fc.boolean(),
					description,
				},
				{ requiredKeys: ['properties'] },
			)
			.map(r => ({ type: 'object', ...clean(r), required: Object.keys(r.properties).slice(0, 2) })),
		fc
			.record(
				{ items: tie('node'), maxItems: bound, minItems: fc.integer({ min: 0, max: 3 }) },
				{ requiredKeys: ['items'] },
			)
			.map(r => ({ type: 'array', ...clean(r) })),
		fc.array(tie('node'), { minLength: 2, maxLength: 12 }).map(branches => ({ anyOf: branches })),
	),
})).node;

/** An arguments object: properties (some through `$ref`), maybe `$defs`, a recursive or dangling ref, or none at all. */
export const toolSchema: fc.Arbitrary<Schema> = fc
	.record({
		properties: fc.dictionary(key, schemaNode, { minKeys: 0, maxKeys: 6 }),
		defs: fc.dictionary(fc.stringMatching(/^[A-Z][a-z]{2,8}$/), schemaNode, { maxKeys: 2 }),
		ref: fc.constantFrom('none', 'none', 'def', 'def', 'recursive', 'recursive', 'dangling'),
		schemaKey: fc.boolean(),
	})
	.map(({ properties, defs, ref, schemaKey }) => {
		const schema: Schema = {
			type: 'object',
			properties: { ...properties },
			required: Object.keys(properties).slice(0, 3),
			additionalProperties: false,
			...(schemaKey ? { $schema: 'http://json-schema.org/draft-07/schema#' } : {}),
		};
		const names = Object.keys(defs);
		if (names.length > 0) {
			schema.$defs = defs;
			if (ref === 'def') schema.properties.viaRef = { $ref: `#/$defs/${names[0]}` };
		}
		if (ref === 'recursive') {
			schema.$defs = {
				...schema.$defs,
				Node: {
					type: 'object',
					properties: { child: { $ref: '#/$defs/Node' }, label: { type: 'string', maxLength: 5000 } },
				},
			};
			schema.properties.tree = { $ref: '#/$defs/Node' };
		}
		if (ref === 'dangling') schema.properties.other = { $ref: '#/definitions/Missing' };
		return schema;
	});

/** A named tool schema: what an MCP server lists. */
export const namedSchemas = (min: number, max: number) =>
	fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9_]{2,20}$/), toolSchema), {
		minLength: min,
		maxLength: max,
		selector: ([name]) => name,
	});

/**
 * A tool from a source (an MCP server) with this JSON Schema: Keel validates its arguments with
 * Ajv against the schema as declared, and the request carries what toolSpec makes of it.
 */
export function sourcedTool(name: string, schema: Schema, source = 'mcp:gen'): ToolDefinition<Record<string, unknown>> {
	return {
		name,
		description: `Operate on ${name.replace(/_/g, ' ')} through the ${source} server.`,
		input: jsonSchemaInput(schema) as z.ZodType<Record<string, unknown>>,
		parameters: schema,
		source,
		effect: 'read',
		describe: () => name,
		async execute() {
			return ok(`${name} ran`);
		},
	};
}

/** A value the schema accepts (for the properties it requires), built from its own bounds and examples. */
export function validValue(schema: Schema, defs: Record<string, Schema> = {}, depth = 0): unknown {
	if (schema.$ref) {
		const name = String(schema.$ref).split('/').pop()!;
		return defs[name] && depth < 6 ? validValue(defs[name], defs, depth + 1) : {};
	}
	if (schema.anyOf) return validValue(schema.anyOf[0], defs, depth + 1);
	if (schema.enum) return schema.enum[0];
	switch (schema.type) {
		case 'string': {
			if (schema.pattern) return PATTERNS.find(([p]) => p === schema.pattern)?.[1] ?? '';
			return 'a'.repeat(Math.max(schema.minLength ?? 0, Math.min(1, schema.maxLength ?? 1)));
		}
		case 'integer':
			return Math.max(schema.minimum ?? 0, 0);
		case 'boolean':
			return true;
		case 'array':
			return Array.from({ length: schema.minItems ?? 0 }, () => validValue(schema.items, defs, depth + 1));
		case 'object': {
			const out: Record<string, unknown> = {};
			for (const name of schema.required ?? []) {
				out[name] = validValue(schema.properties[name], defs, depth + 1);
			}
			return out;
		}
		default:
			return {};
	}
}

function clean<T extends object>(record: T): Partial<T> {
	return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Partial<T>;
}
