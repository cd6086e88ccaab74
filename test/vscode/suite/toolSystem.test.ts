// The tool system wired into the real extension: the workspace's .keel/filters.json shapes
// command output, and an edit made in the editor drops the session cache's copy of the file.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { text, toolCalls } from '../../support/modelDouble';
import { useKeelSuite } from '../keelSuite';

describe('tool system in VS Code (filter rule file, result cache)', function () {
	this.timeout(120_000);
	const keel = useKeelSuite();
	const root = () => vscode.workspace.workspaceFolders![0].uri;

	after(async () => {
		for (const name of ['.keel', 'cache-probe.txt']) {
			await vscode.workspace.fs
				.delete(vscode.Uri.joinPath(root(), name), { recursive: true })
				.then(undefined, () => undefined);
		}
	});

	it('a rule in .keel/filters.json filters run_command output and the result names it', async () => {
		const rules = {
			rules: [
				{
					name: 'keep-marked',
					match: { prefix: 'printf' },
					strategy: { type: 'keep_matching', patterns: ['^keep'] },
				},
			],
		};
		await vscode.workspace.fs.writeFile(
			vscode.Uri.joinPath(root(), '.keel', 'filters.json'),
			Buffer.from(JSON.stringify(rules)),
		);
		// Settings changes rebuild the rules too; this makes the new file count without waiting for the watcher.
		await keel.set('filters.disabledRules', ['none']);
		await keel.set('shell.backend', 'terminal');
		await keel.set('approval.autoApproveCommands', true);
		keel.double.script(
			toolCalls([
				{ name: 'run_command', arguments: { command: "printf 'keep 1\\ndrop a\\ndrop b\\nkeep 2\\n'" } },
			]),
			text('{{lastToolResult}}'),
		);
		const outcome = await keel.api.runTurn('run it');
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		const result = keel.toolResults().at(-1)!;
		assert.match(result.content, /^keep 1\nkeep 2\n/);
		assert.doesNotMatch(result.content, /drop a/);
		assert.match(result.content, /rule keep-marked\. Unfiltered: read_output/);
	});

	it('an edit made in the editor drops the cached read: the next read_file sees it', async () => {
		// A file of its own: the other suites read the fixture's files.
		const uri = vscode.Uri.joinPath(root(), 'cache-probe.txt');
		await vscode.workspace.fs.writeFile(uri, Buffer.from('original\n'));
		keel.double.script(
			toolCalls([{ name: 'read_file', arguments: { path: 'cache-probe.txt' } }]),
			toolCalls([{ name: 'read_file', arguments: { path: 'cache-probe.txt' } }]),
			text('read twice'),
		);
		await keel.api.runTurn('read the readme twice');
		const [first, second] = keel.toolResults().slice(-2);
		assert.strictEqual(first.content, second.content);
		const doc = await vscode.workspace.openTextDocument(uri);
		const edit = new vscode.WorkspaceEdit();
		edit.insert(uri, new vscode.Position(0, 0), 'EDITED IN THE EDITOR\n');
		assert.ok(await vscode.workspace.applyEdit(edit));
		assert.ok(await doc.save());
		keel.double.script(toolCalls([{ name: 'read_file', arguments: { path: 'cache-probe.txt' } }]), text('again'));
		await keel.api.runTurn('read it again');
		assert.match(keel.toolResults().at(-1)!.content, /EDITED IN THE EDITOR\n.*original/);
		assert.deepStrictEqual(keel.api.blockedTools(), []);
	});
});
