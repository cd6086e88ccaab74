import * as assert from 'assert';
import { findPathTool, listDirectoryTool, readFileTool } from '../../../../fakes/readTools';
import type { ToolContext } from '../../../../../src/core/tools/defineTool';
import { normalizeWorkspacePath } from '../../../../../src/core/gate/paths/paths';
import { InMemoryWorkspace } from '../../../../fakes/inMemoryWorkspace';

function context(files: Record<string, string | Uint8Array>): ToolContext {
	return { workspace: new InMemoryWorkspace(files), signal: new AbortController().signal, progress: () => {} };
}

describe('file tools', () => {
	const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');

	it('read_file numbers lines and pages with offset/limit', async () => {
		const result = await readFileTool.execute({ path: 'a.txt', offset: 3, limit: 2 }, context({ 'a.txt': lines }));
		assert.ok(result.ok);
		assert.strictEqual(result.display.split('\n')[0], '3  line 3');
		assert.match(result.display, /4 {2}line 4\n\[6 more lines; call again with offset 5\]/);
		assert.strictEqual(result.hasMore, true);
	});

	it('read_file says what to do for missing files, folders and binaries', async () => {
		const ctx = context({ 'src/x.ts': 'x', 'img.png': new Uint8Array([137, 80, 0, 1]) });
		assert.match(
			(await readFileTool.execute({ path: 'nope.ts' }, ctx)).display,
			/File not found: nope.ts.*find_path/,
		);
		assert.match((await readFileTool.execute({ path: 'src' }, ctx)).display, /is a directory.*list_directory/);
		const binary = await readFileTool.execute({ path: 'img.png' }, ctx);
		assert.ok(binary.ok && /binary file \(4 bytes\)/.test(binary.display));
	});

	it('list_directory shows folders first with a slash', async () => {
		const result = await listDirectoryTool.execute(
			{ path: '.' },
			context({ 'b.txt': '', 'src/a.ts': '', 'a.txt': '' }),
		);
		assert.strictEqual(result.display, 'src/\na.txt\nb.txt');
		assert.strictEqual(result.count, 3);
	});

	it('find_path matches globs, reports nothing found as a result, caps results', async () => {
		const ctx = context({ 'src/a.ts': '', 'src/b.ts': '', 'README.md': '' });
		assert.strictEqual(
			(await findPathTool.execute({ glob: '**/*.ts', maxResults: 200 }, ctx)).display,
			'src/a.ts\nsrc/b.ts',
		);
		const none = await findPathTool.execute({ glob: '**/*.py', maxResults: 200 }, ctx);
		assert.ok(none.ok && none.count === 0);
		const capped = await findPathTool.execute({ glob: '**/*.ts', maxResults: 1 }, ctx);
		assert.ok(capped.hasMore && /narrow the glob/.test(capped.display));
	});

	it('normalizeWorkspacePath refuses escapes and odd inputs', () => {
		for (const bad of [
			'../x',
			'a/../../x',
			'/etc/passwd',
			'~/.ssh/id_rsa',
			'C:\\Windows',
			'a\0b',
			'%2e%2e/x',
			'file:///etc/passwd',
		]) {
			assert.strictEqual(normalizeWorkspacePath(bad).ok, false, bad);
		}
		assert.deepStrictEqual(normalizeWorkspacePath('./src//a/../b.ts'), { ok: true, path: 'src/b.ts' });
		assert.deepStrictEqual(normalizeWorkspacePath('.'), { ok: true, path: '' });
	});
});
