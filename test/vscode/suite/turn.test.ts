// A whole turn inside the real extension host: Keel's API runs the loop against a model
// double, and the tools read the fixture workspace through the real vscode.workspace.fs.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { text, toolCalls } from '../../support/modelDouble';
import { useKeelSuite } from '../keelSuite';

describe('Keel turn in the extension host', function () {
	this.timeout(30_000);
	const keel = useKeelSuite();

	it('reads, lists and finds files of the real workspace and answers from them', async () => {
		keel.double.script(
			toolCalls([
				{ name: 'read_file', arguments: { path: 'README.md' } },
				{ name: 'list_directory', arguments: { path: 'src' } },
				{ name: 'find_path', arguments: { glob: '**/app.ts' } },
			]),
			text('Found: {{lastToolResult}}'),
		);
		const outcome = await keel.api.runTurn('What is in this workspace?');
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		const results = keel.toolResults();
		assert.strictEqual(results.length, 3);
		assert.ok(
			results.every(r => r.ok),
			JSON.stringify(results),
		);
		assert.match(results[0].content, /1 {2}# Fixture workspace/);
		// Other suites may add files to src/ in this shared window; app.ts must be listed.
		assert.ok(results[1].content.split('\n').includes('app.ts'), results[1].content);
		assert.strictEqual(results[2].content, 'src/app.ts');
		assert.deepStrictEqual([keel.last().kind, keel.last().content], ['assistant', 'Found: src/app.ts']);
		assert.deepStrictEqual(
			keel.toolCards().map(call => call.status),
			['succeeded', 'succeeded', 'succeeded'],
		);
	});

	it('waits for approval when reads are not auto-approved, and a denial reaches the model', async () => {
		await keel.set('approval.autoApproveReads', false);
		keel.double.script(
			toolCalls([{ name: 'read_file', arguments: { path: 'src/app.ts' } }]),
			text('{{lastToolResult}}'),
		);
		const turn = keel.api.runTurn('read app.ts');
		const pending = await keel.pendingApprovals();
		assert.strictEqual(pending.length, 1, 'the read waits for a decision');
		assert.strictEqual(keel.toolCards()[0].title, 'Read src/app.ts');
		assert.strictEqual(keel.api.decideToolCall('not-a-real-id', true), false);
		assert.ok(keel.api.decideToolCall(pending[0], false, 'private file'));
		const outcome = await turn;
		assert.strictEqual(outcome.reason, 'completed');
		assert.match(keel.last().content, /The user denied this call; it did not run\. Reason: private file/);
		await keel.set('approval.autoApproveReads', undefined);
	});

	it('refuses to read outside the workspace folder', async () => {
		keel.double.script(
			toolCalls([{ name: 'read_file', arguments: { path: '../../../etc/passwd' } }]),
			text('{{lastToolResult}}'),
		);
		await keel.api.runTurn('read the password file');
		const [result] = keel.toolResults();
		assert.strictEqual(result.ok, false);
		assert.match(result.content, /leaves the workspace|outside/i);
	});

	it('asks about the editor selection with its file, lines and code', async () => {
		keel.double.script(text('It exports the answer.'));
		const root = vscode.workspace.workspaceFolders![0].uri;
		const editor = await vscode.window.showTextDocument(vscode.Uri.joinPath(root, 'src/app.ts'));
		const lastLine = editor.document.lineCount - 1;
		editor.selection = new vscode.Selection(0, 0, lastLine, editor.document.lineAt(lastLine).text.length);
		await vscode.commands.executeCommand('keel.askAboutSelection', 'What does this do?');
		for (let i = 0; i < 200 && keel.last()?.kind !== 'assistant'; i++) {
			await new Promise(resolve => setTimeout(resolve, 25));
		}
		const [user, answer] = keel.api.transcript();
		assert.match(user.content, /^What does this do\?\n\nFrom src\/app\.ts, lines 1–\d+:\n```typescript\n/);
		assert.ok(user.content.includes(editor.document.getText(editor.selection)));
		assert.strictEqual(answer.content, 'It exports the answer.');
		await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
	});
});
