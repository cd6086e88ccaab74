// A multi-root workspace opened from a .code-workspace file in a real VS Code: two folders with
// the same basename ("app"), named "app" and "app-2" by the tools. Tool calls read, search and
// write in the second folder through VscodeWorkspace, and the guard refuses a path without a folder.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolContext, ToolDefinition } from '../../../../src/core/tools/defineTool';
import { defaultToolDeps } from '../../../../src/core/tools/toolDeps';
import { createToolset } from '../../../../src/core/tools/toolset';
import { vscodeDiagnostics } from '../../../../src/host/tools/hostToolDeps';
import { VscodeWorkspace } from '../../../../src/host/tools/vscodeWorkspace';

describe('multi-root workspace in VS Code', () => {
	const workspace = new VscodeWorkspace();
	const tools = createToolset(defaultToolDeps({ diagnostics: vscodeDiagnostics }));
	const context = (): ToolContext => ({ workspace, signal: new AbortController().signal, progress: () => {} });
	const run = async (name: string, input: unknown) => {
		const t = tools.find(tool => tool.name === name) as ToolDefinition<any>;
		const parsed = t.input.parse(input);
		const prepared = t.prepare ? await t.prepare(parsed, context()).catch(error => ({ error })) : undefined;
		if (prepared && 'error' in prepared) {
			return { ok: false, display: String((prepared as { error: Error }).error.message) };
		}
		return t.execute(parsed, { ...context(), prepared });
	};

	it('the window has two folders from the .code-workspace file, both called "app"', () => {
		const folders = vscode.workspace.workspaceFolders ?? [];
		assert.strictEqual(folders.length, 2);
		assert.deepStrictEqual(
			folders.map(f => f.name),
			['app', 'app'],
		);
		assert.ok(vscode.workspace.workspaceFile?.path.endsWith('.code-workspace'));
		assert.deepStrictEqual(
			workspace.folders().map(f => f.name),
			['app', 'app-2'],
		);
	});

	it('read_file reads a file in the second folder as app-2/…', async () => {
		const result = await run('read_file', { path: 'app-2/docs/second.md' });
		assert.ok(result.ok, result.display);
		assert.match(result.display, /MARKER_SECOND_FOLDER/);
	});

	it('list_directory at the root shows the folders; grep and find_path cover both', async () => {
		assert.strictEqual((await run('list_directory', { path: '.' })).display, 'app/\napp-2/');
		const grep = await run('grep', { pattern: 'MARKER_SECOND_FOLDER' });
		assert.match(grep.display, /^app-2\/docs\/second\.md$/m);
		const find = await run('find_path', { glob: '**/*.md' });
		assert.match(find.display, /^app-2\/docs\/second\.md$/m);
	});

	it('write_file writes into the second folder through a WorkspaceEdit', async () => {
		const result = await run('write_file', { path: 'app-2/docs/new.md', content: 'written by a tool\n' });
		assert.ok(result.ok, result.display);
		const second = vscode.workspace.workspaceFolders![1].uri;
		const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(second, 'docs', 'new.md'));
		assert.strictEqual(Buffer.from(bytes).toString('utf8'), 'written by a tool\n');
		const first = vscode.workspace.workspaceFolders![0].uri;
		await assert.rejects(
			Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.joinPath(first, 'docs', 'new.md'))),
			'the first folder is untouched',
		);
	});

	it('a path that names no folder is refused with the folders to use', async () => {
		const result = await run('read_file', { path: 'docs/second.md' });
		assert.strictEqual(result.ok, false);
		assert.match(result.display, /every path starts with a folder's name: app\/, app-2\//);
	});
});
