// The file, search and diagnostics tools inside a real VS Code: edits go through WorkspaceEdit (open editors update,
// Undo reverts), the guard sees real symlinks through VscodeWorkspace, and diagnostics come
// from vscode.languages.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ToolContext, ToolDefinition } from '../../../src/core/tools/defineTool';
import { defaultToolDeps } from '../../../src/core/tools/toolDeps';
import { createToolset } from '../../../src/core/tools/toolset';
import { vscodeDiagnostics } from '../../../src/host/tools/hostToolDeps';
import { VscodeWorkspace } from '../../../src/host/tools/vscodeWorkspace';

describe('workspace tools in VS Code', () => {
	const workspace = new VscodeWorkspace();
	const tools = createToolset(defaultToolDeps({ diagnostics: vscodeDiagnostics }));
	const tool = (name: string) => tools.find(t => t.name === name) as ToolDefinition<any>;
	const root = () => vscode.workspace.workspaceFolders![0].uri;
	const context = (): ToolContext => ({ workspace, signal: new AbortController().signal, progress: () => {} });
	const run = async (name: string, input: unknown) => {
		const t = tool(name);
		const parsed = t.input.parse(input);
		const ctx = context();
		const prepared = t.prepare ? await t.prepare(parsed, ctx) : undefined;
		return t.execute(parsed, { ...ctx, prepared });
	};

	it('edit_file updates the open editor through a WorkspaceEdit, saves, and Undo reverts it', async () => {
		const uri = vscode.Uri.joinPath(root(), 'src', 'edit-target.ts');
		await vscode.workspace.fs.writeFile(uri, Buffer.from('export const value = 1;\n'));
		const document = await vscode.workspace.openTextDocument(uri);
		await vscode.window.showTextDocument(document);
		const result = await run('edit_file', {
			path: 'src/edit-target.ts',
			old_string: 'value = 1',
			new_string: 'value = 2',
		});
		assert.ok(result.ok, result.display);
		assert.strictEqual(document.getText(), 'export const value = 2;\n');
		assert.strictEqual(document.isDirty, false);
		assert.strictEqual(fs.readFileSync(uri.fsPath, 'utf8'), 'export const value = 2;\n');
		await vscode.window.showTextDocument(document);
		await vscode.commands.executeCommand('undo');
		assert.strictEqual(document.getText(), 'export const value = 1;\n');
	});

	it('edit_file refuses to overwrite unsaved changes in an open editor', async () => {
		// VS Code in a browser saves after a delay by default: on a busy machine the typing below was
		// saved between the card and the write, and the refusal was for a changed file instead.
		const files = vscode.workspace.getConfiguration('files');
		await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
		try {
			const uri = vscode.Uri.joinPath(root(), 'src', 'dirty.ts');
			await vscode.workspace.fs.writeFile(uri, Buffer.from('a\n'));
			const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
			await editor.edit(b => b.insert(new vscode.Position(0, 0), 'user typing '));
			const result = await run('edit_file', { path: 'src/dirty.ts', old_string: 'a', new_string: 'b' }).catch(
				error => ({ ok: false, display: String(error) }),
			);
			assert.strictEqual(result.ok, false);
			assert.match(result.display, /unsaved changes/);
			assert.strictEqual(editor.document.getText(), 'user typing a\n');
			await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
		} finally {
			await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
		}
	});

	it('write_file creates a new file through a WorkspaceEdit', async () => {
		const result = await run('write_file', { path: 'src/created/new.ts', content: 'export {};\n' });
		assert.ok(result.ok, result.display);
		const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root(), 'src', 'created', 'new.ts'));
		assert.strictEqual(Buffer.from(bytes).toString('utf8'), 'export {};\n');
	});

	it('the guard refuses a symlink that leads out of the workspace', async () => {
		const outside = fs.mkdtempSync(path.join(path.dirname(root().fsPath), 'outside-'));
		fs.writeFileSync(path.join(outside, 'secret.txt'), 'CANARY');
		fs.symlinkSync(outside, path.join(root().fsPath, 'escape'));
		await assert.rejects(
			run('read_file', { path: 'escape/secret.txt' }),
			/leads outside the workspace through a symlink/,
		);
	});

	it('diagnostics lists VS Code problems for a file, structured', async () => {
		const uri = vscode.Uri.joinPath(root(), 'src', 'app.ts');
		const collection = vscode.languages.createDiagnosticCollection('keel-test');
		const diagnostic = new vscode.Diagnostic(
			new vscode.Range(2, 4, 2, 9),
			'Cannot find name "foo".',
			vscode.DiagnosticSeverity.Error,
		);
		diagnostic.source = 'ts';
		diagnostic.code = 2304;
		collection.set(uri, [diagnostic]);
		try {
			const result = await run('diagnostics', { path: 'src/app.ts' });
			assert.ok(result.ok);
			assert.match(result.display, /^src\/app\.ts:3:5 error: Cannot find name "foo"\. \[ts 2304\]/m);
			const all = await run('diagnostics', { severity: 'error' });
			assert.match(all.display, /src\/app\.ts:3:5 error/);
		} finally {
			collection.dispose();
		}
	});
});
