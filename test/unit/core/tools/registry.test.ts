import * as assert from 'assert';
import { fileTools } from '../../../fakes/readTools';
import { ToolRegistry } from '../../../../src/core/tools/registry';

describe('ToolRegistry', () => {
	const registry = new ToolRegistry(fileTools);

	it('generates JSON Schema from zod for every tool', () => {
		const spec = registry.specs().find(s => s.name === 'read_file')!;
		assert.strictEqual(spec.parameters.type, 'object');
		assert.deepStrictEqual(spec.parameters.required, ['path']);
		assert.ok((spec.parameters.properties as Record<string, unknown>).offset);
		assert.strictEqual(spec.parameters.$schema, undefined);
	});

	it('parses valid arguments and applies defaults', () => {
		const parsed = registry.parse('find_path', '{"glob":"**/*.ts"}');
		assert.ok(parsed.ok);
		assert.deepStrictEqual(parsed.input, { glob: '**/*.ts', maxResults: 200 });
	});

	it('explains invalid JSON, schema violations and unknown tools', () => {
		const badJson = registry.parse('read_file', '{"path": ');
		assert.ok(!badJson.ok && badJson.errorKind === 'invalidArguments' && /not valid JSON/.test(badJson.message));
		const badShape = registry.parse('read_file', '{"path": 3}');
		assert.ok(!badShape.ok && /path: .*string/i.test(badShape.message));
		const unknown = registry.parse('rm_rf', '{}');
		assert.ok(!unknown.ok && unknown.errorKind === 'unknownTool' && /read_file/.test(unknown.message));
	});

	it('refuses to register the same name twice', () => {
		assert.throws(() => new ToolRegistry([...fileTools, fileTools[0]]), /registered twice/);
	});
});
