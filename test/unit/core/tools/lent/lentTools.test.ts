import * as assert from 'assert';
import * as path from 'path';
import * as z from 'zod';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { createToolset } from '../../../../../src/core/tools/toolset';
import { defaultToolDeps } from '../../../../../src/core/tools/toolDeps';

describe('tools lent to VS Code (package.json languageModelTools)', () => {
	it('declare exactly the schema and description Keel validates with, and only read tools', () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const manifest = require(path.resolve(__dirname, '../../../../../../package.json'));
		const registry = new ToolRegistry(createToolset(defaultToolDeps()));
		const lent = manifest.contributes.languageModelTools as Array<{
			name: string;
			modelDescription: string;
			inputSchema: unknown;
		}>;
		assert.deepStrictEqual(
			lent.map(t => t.name),
			['keel_read_file', 'keel_list_directory', 'keel_find_path', 'keel_grep'],
		);
		for (const tool of lent) {
			const name = tool.name.replace(/^keel_/, '');
			const [spec] = registry.specs(t => t.name === name);
			assert.strictEqual(registry.get(name)!.effect, 'read');
			// Declared whole for other agents: what Keel validates with, not the form its own requests carry.
			const { $schema: _, ...declared } = z.toJSONSchema(registry.get(name)!.input, { io: 'input' });
			assert.deepStrictEqual(tool.inputSchema, declared, `${tool.name}: regenerate the schema in package.json`);
			assert.strictEqual(tool.modelDescription, spec.description);
		}
	});
});
