// The forms a tool schema is sent in, proved on generated schemas: whatever keywords a schema
// carries, what Keel sends compiles under the converter rules real servers enforce (the model
// double's grammar), accepts every call the declared schema accepts, and still tells the model
// what the declared schema asks for.
import * as assert from 'assert';
import * as fc from 'fast-check';
import { Ajv } from 'ajv';
import { simplestSchema, wireSchema } from '../../../../src/core/tools/schemaForms';
import { fromStrictArguments, strictSchema } from '../../../../src/core/llm/wires/strictSchemas';
import { grammarRefusal } from '../../../support/modelDouble/behaviour/grammar';
import { toolSchema, validValue, type Schema } from '../../../support/toolSchemas';

const asTool = (name: string, parameters: Schema) => ({
	type: 'function',
	function: { name, description: name, parameters },
});

const ajv = new Ajv({ strict: false, validateFormats: false, addUsedSchema: false });

function validator(schema: Schema) {
	try {
		return ajv.compile(schema);
	} catch {
		return undefined;
	}
}

function walk(node: unknown, visit: (node: Schema) => void): void {
	if (Array.isArray(node)) return node.forEach(n => walk(n, visit));
	if (!node || typeof node !== 'object') return;
	visit(node as Schema);
	Object.values(node).forEach(n => walk(n, visit));
}

describe('tool schemas in the form every server can compile', function () {
	// Hundreds of generated schemas each: seconds on a quiet machine, more on a shared one.
	this.timeout(240_000);
	it('the generated schemas themselves are refused by the converter rules often (the generator bites)', () => {
		const refused = fc
			.sample(toolSchema, { numRuns: 300, seed: 7 })
			.filter(schema => grammarRefusal([asTool('t', schema)], 'llamacpp') !== undefined).length;
		assert.ok(refused > 100, `only ${refused} of 300 generated schemas are refused as declared`);
	});

	it('what is sent compiles under llama.cpp and LM Studio rules, whatever the declared schema carries', () => {
		fc.assert(
			fc.property(toolSchema, schema => {
				for (const form of [wireSchema(schema), simplestSchema(schema)]) {
					const tools = [asTool('t', form)];
					assert.strictEqual(grammarRefusal(tools, 'llamacpp'), undefined, JSON.stringify(form));
					assert.strictEqual(grammarRefusal(tools, 'lmstudio'), undefined, JSON.stringify(form));
					walk(form, node => {
						for (const keyword of [
							'maxLength',
							'minLength',
							'pattern',
							'format',
							'maxItems',
							'$ref',
							'$defs',
							'$schema',
						]) {
							assert.ok(
								!(keyword in node) || typeof node[keyword] === 'object',
								`${keyword} left in ${JSON.stringify(node)}`,
							);
						}
					});
				}
			}),
			{ numRuns: 400 },
		);
	});

	it('is a relaxation: a call the declared schema accepts is accepted by what was sent', () => {
		fc.assert(
			fc.property(toolSchema, schema => {
				const declared = validator(schema);
				const value = validValue(schema, schema.$defs ?? {});
				if (!declared || !declared(value)) return; // a pattern JavaScript cannot read, or a sampler gap
				for (const form of [wireSchema(schema), simplestSchema(schema)]) {
					const sent = validator(form)!;
					assert.ok(
						sent(value),
						`${JSON.stringify(value)} refused by ${JSON.stringify(form)}: ${JSON.stringify(sent.errors)}`,
					);
				}
			}),
			{ numRuns: 150 },
		);
	});

	it('keeps what the model needs: fields, what is required, short enums, and the limits in words', () => {
		fc.assert(
			fc.property(toolSchema, schema => {
				const form = wireSchema(schema);
				assert.deepStrictEqual(
					Object.keys(form.properties ?? {}).sort(),
					Object.keys(schema.properties).sort(),
				);
				assert.deepStrictEqual(form.required ?? [], schema.required);
				for (const [name, declared] of Object.entries(schema.properties as Record<string, Schema>)) {
					const sent = (form.properties as Record<string, Schema>)[name];
					if (declared.type === 'string' && typeof declared.maxLength === 'number') {
						assert.match(sent.description, new RegExp(`at most ${declared.maxLength} characters`, 'i'));
					}
					if (Array.isArray(declared.enum) && declared.enum.length <= 24) {
						assert.deepStrictEqual(sent.enum, declared.enum);
					}
					if (Array.isArray(declared.enum) && declared.enum.length > 24) {
						assert.match(sent.description, new RegExp(`\\(${declared.enum.length} values\\)`));
					}
				}
			}),
			{ numRuns: 300 },
		);
	});

	it('says what a declared schema meant where it cannot spell it out', () => {
		const form = wireSchema({
			type: 'object',
			properties: {
				to: { type: 'string', format: 'email', description: 'Recipient.' },
				body: { type: 'string', maxLength: 65_536 },
				tags: { type: 'array', items: { type: 'string' }, maxItems: 50 },
				tree: { $ref: '#/$defs/Node' },
				none: { type: 'object', properties: {}, additionalProperties: false },
			},
			$defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } },
			required: ['to', 'missing'],
		});
		assert.deepStrictEqual(form, {
			type: 'object',
			properties: {
				to: { type: 'string', description: 'Recipient (format email).' },
				body: { type: 'string', description: 'At most 65536 characters' },
				tags: { type: 'array', items: { type: 'string' }, description: 'At most 50 items' },
				tree: {
					type: 'object',
					properties: { child: { type: 'object', description: 'The same shape as the enclosing one' } },
				},
				none: { type: 'object' },
			},
			required: ['to'],
		});
	});

	it('the simplest form keeps one level: nested objects are named, not spelled out', () => {
		const form = simplestSchema({
			type: 'object',
			properties: {
				sort: {
					type: 'object',
					properties: { field: { type: 'string' }, direction: { enum: ['asc', 'desc'] } },
				},
				labels: { type: 'array', items: { type: 'string' } },
				state: { anyOf: [{ const: 'open' }, { const: 'closed' }, { const: 'all' }] },
			},
		});
		assert.deepStrictEqual(form.properties, {
			sort: { type: 'object', description: 'An object with field, direction' },
			labels: { type: 'array', items: { type: 'string' } },
			state: { description: 'One of 3 shapes' },
		});
	});

	it('strict form: every field required, optional ones nullable; a null given back is the field left out', () => {
		fc.assert(
			fc.property(toolSchema, schema => {
				const form = wireSchema(schema);
				const strict = strictSchema(form);
				if (!strict) return;
				walk(strict, node => {
					if (node.properties && typeof node.properties === 'object' && !('$ref' in node)) {
						assert.strictEqual(node.additionalProperties, false);
						assert.deepStrictEqual([...node.required].sort(), Object.keys(node.properties).sort());
					}
				});
				const value = validValue(form) as Record<string, unknown>;
				const nulls = { ...value };
				for (const name of Object.keys(form.properties ?? {})) {
					if (!(name in nulls)) nulls[name] = null;
				}
				const back = JSON.parse(fromStrictArguments(JSON.stringify(nulls), form));
				assert.deepStrictEqual(back, value);
			}),
			{ numRuns: 300 },
		);
	});
});
