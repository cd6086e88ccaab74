import * as assert from 'assert';
import { repairArguments } from '../../../../../src/core/llm/textCalls/argumentRepair';

const schema = {
	type: 'object',
	properties: {
		path: { type: 'string' },
		offset: { type: 'integer' },
		options: { type: 'object', properties: { deep: { type: 'boolean' } } },
		paths: { type: 'array', items: { type: 'string' } },
	},
};

describe('repairArguments', () => {
	const cases: Array<[string, string, unknown]> = [
		['trailing comma', '{"path": "a.ts",}', { path: 'a.ts' }],
		['single quotes', "{'path': 'a.ts'}", { path: 'a.ts' }],
		['unquoted keys', '{path: "a.ts"}', { path: 'a.ts' }],
		['Python literals', '{"path": "a.ts", "options": {"deep": True}}', { path: 'a.ts', options: { deep: true } }],
		['string cut off at the end', '{"path": "src/app.ts', { path: 'src/app.ts' }],
		['doubly encoded JSON', JSON.stringify(JSON.stringify({ path: 'a.ts' })), { path: 'a.ts' }],
		[
			'object as a JSON string',
			'{"path": "a", "options": "{\\"deep\\": false}"}',
			{ path: 'a', options: { deep: false } },
		],
		['array as a JSON string', '{"paths": "[\\"a\\", \\"b\\"]"}', { paths: ['a', 'b'] }],
		['number as a string', '{"path": "a", "offset": "5"}', { path: 'a', offset: 5 }],
		['fenced', '```json\n{"path": "a"}\n```', { path: 'a' }],
		['array-wrapped (ollama#17638)', '[{"path": "a"}]', { path: 'a' }],
		['empty', '', {}],
	];
	for (const [name, raw, expected] of cases) {
		it(`repairs ${name}`, () => {
			const result = repairArguments(raw, schema);
			assert.ok(result, 'repaired');
			assert.deepStrictEqual(result.value, expected);
			assert.deepStrictEqual(JSON.parse(result.json), expected);
		});
	}

	it('leaves valid JSON alone and reports no fixes', () => {
		const result = repairArguments('{"path":"a"}', schema);
		assert.deepStrictEqual(result?.fixes, []);
	});

	it('keeps a string where the schema wants a string', () => {
		assert.deepStrictEqual(repairArguments('{"path": "5"}', schema)?.value, { path: '5' });
	});

	it('gives up on text that is not arguments at all', () => {
		assert.strictEqual(repairArguments('ls -R', schema), undefined);
	});
});
