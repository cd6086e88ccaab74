// Edits users can see, and "Always allow", inside the real extension host: the card carries
// the diff before approval, approval writes exactly it through a WorkspaceEdit, and "Always
// allow" writes a rule to the workspace settings that lets the next identical call run.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { text, toolCalls } from '../../support/modelDouble';
import { useKeelSuite } from '../keelSuite';

describe('Keel edits and permissions in the extension host', function () {
	this.timeout(30_000);
	const keel = useKeelSuite();
	const settings = () => vscode.workspace.getConfiguration('keel');
	const root = () => vscode.workspace.workspaceFolders![0].uri;
	const file = () => vscode.Uri.joinPath(root(), 'src', 'perm.ts');

	after(async () => {
		// Leave the shared window as other suites expect it: no extra source file.
		await vscode.workspace.fs.delete(file()).then(undefined, () => undefined);
	});

	it('shows the diff, applies it on "Always allow", saves the rule, and the next call runs without asking', async () => {
		await vscode.workspace.fs.writeFile(file(), Buffer.from('export const mode = "old";\n'));
		await keel.set('permissions.rules', undefined, vscode.ConfigurationTarget.Workspace);
		keel.double.script(
			toolCalls([
				{ name: 'edit_file', arguments: { path: 'src/perm.ts', old_string: '"old"', new_string: '"new"' } },
			]),
			text('done'),
		);
		const turn = keel.api.runTurn('switch mode');
		const pending = await keel.pendingApprovals();
		assert.strictEqual(pending.length, 1);
		const card = keel.toolCards()[0];
		assert.match(card.diffs![0].unified, /-export const mode = "old";\n\+export const mode = "new";/);
		assert.deepStrictEqual(card.suggestedRule, { tool: 'edit_file', match: 'src/perm.ts', action: 'allow' });
		assert.ok(keel.api.decideToolCall(pending[0], true, undefined, true));
		assert.strictEqual((await turn).reason, 'completed');
		assert.strictEqual(
			Buffer.from(await vscode.workspace.fs.readFile(file())).toString(),
			'export const mode = "new";\n',
		);
		const rules = settings().inspect<unknown[]>('permissions.rules')?.workspaceValue;
		const notices = keel.api
			.view()
			.items.filter(i => i.kind === 'notice')
			.map(i => JSON.stringify(i));
		assert.deepStrictEqual(
			rules,
			[{ tool: 'edit_file', match: 'src/perm.ts', action: 'allow' }],
			notices.join('\n'),
		);

		keel.double.reset();
		keel.double.script(
			toolCalls([
				{ name: 'edit_file', arguments: { path: 'src/perm.ts', old_string: '"new"', new_string: '"newer"' } },
			]),
			text('done again'),
		);
		assert.strictEqual((await keel.api.runTurn('again')).reason, 'completed');
		assert.strictEqual(
			Buffer.from(await vscode.workspace.fs.readFile(file())).toString(),
			'export const mode = "newer";\n',
		);
	});

	it('a write to .vscode/ asks even when writes are auto-approved, and offers no "Always allow"', async () => {
		await keel.set('approval.autoApproveWrites', true);
		keel.double.script(
			toolCalls([
				{
					name: 'write_file',
					arguments: {
						path: '.vscode/settings.json',
						content: '{"keel.approval.autoApproveCommands": true}',
					},
				},
			]),
			text('ok'),
		);
		const turn = keel.api.runTurn('configure');
		const pending = await keel.pendingApprovals();
		assert.strictEqual(pending.length, 1, 'the protected write waits for a decision');
		assert.strictEqual(keel.toolCards()[0].suggestedRule, undefined);
		keel.api.decideToolCall(pending[0], false, 'no');
		await turn;
		assert.notStrictEqual(settings().get('approval.autoApproveCommands'), true);
	});

	it('a workspace\'s rules and an "Always allow" never drop the user\'s own deny rules or deny-read globs', async () => {
		await keel.set(
			'permissions.rules',
			[{ tool: 'write_file', match: 'src/blocked/**', action: 'deny' }],
			vscode.ConfigurationTarget.Global,
		);
		await keel.set(
			'permissions.rules',
			[{ tool: 'write_file', match: '**', action: 'allow' }],
			vscode.ConfigurationTarget.Workspace,
		);
		await keel.set('permissions.denyRead', ['**/*.vault'], vscode.ConfigurationTarget.Global);
		await keel.set('permissions.denyRead', [], vscode.ConfigurationTarget.Workspace);
		await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root(), 'src', 'x.vault'), Buffer.from('CANARY_VAULT'));
		try {
			keel.double.script(
				toolCalls([
					{ name: 'write_file', arguments: { path: 'src/blocked/a.ts', content: 'x' } },
					{ name: 'read_file', arguments: { path: 'src/x.vault' } },
				]),
				text('done'),
			);
			assert.strictEqual((await keel.api.runTurn('try')).reason, 'completed');
			const cards = keel.toolCards();
			assert.strictEqual(cards[0].status, 'denied', JSON.stringify(cards[0]));
			assert.match(cards[0].output ?? '', /src\/blocked/);
			assert.strictEqual(cards[1].status, 'failed');
			assert.doesNotMatch(cards[1].output ?? '', /CANARY_VAULT/);
		} finally {
			await vscode.workspace.fs
				.delete(vscode.Uri.joinPath(root(), 'src', 'x.vault'))
				.then(undefined, () => undefined);
			// The suite resets one scope per key; these set two.
			for (const key of ['permissions.rules', 'permissions.denyRead']) {
				await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
				await settings().update(key, undefined, vscode.ConfigurationTarget.Workspace);
			}
		}
	});

	it('"Always allow" with alwaysAllowScope "user" appends to the user rules and leaves the workspace alone', async () => {
		const userDeny = { tool: 'run_command', match: 'git push*', action: 'deny' };
		await keel.set('permissions.rules', [userDeny], vscode.ConfigurationTarget.Global);
		await keel.set('permissions.rules', undefined, vscode.ConfigurationTarget.Workspace);
		await keel.set('permissions.alwaysAllowScope', 'user', vscode.ConfigurationTarget.Global);
		await keel.set('approval.autoApproveWrites', false);
		await vscode.workspace.fs.writeFile(file(), Buffer.from('export const mode = "a";\n'));
		keel.double.script(
			toolCalls([
				{ name: 'edit_file', arguments: { path: 'src/perm.ts', old_string: '"a"', new_string: '"b"' } },
			]),
			text('done'),
		);
		try {
			const turn = keel.api.runTurn('edit');
			const pending = await keel.pendingApprovals();
			assert.ok(keel.api.decideToolCall(pending[0], true, undefined, true));
			assert.strictEqual((await turn).reason, 'completed');
			const rules = settings().inspect<unknown[]>('permissions.rules');
			const notices = keel.api
				.view()
				.items.filter(i => i.kind === 'notice')
				.map(i => JSON.stringify(i));
			assert.deepStrictEqual(
				rules?.globalValue,
				[userDeny, { tool: 'edit_file', match: 'src/perm.ts', action: 'allow' }],
				notices.join('\n'),
			);
			assert.strictEqual(rules?.workspaceValue, undefined);
		} finally {
			await settings().update('permissions.rules', undefined, vscode.ConfigurationTarget.Global);
			await settings().update('permissions.rules', undefined, vscode.ConfigurationTarget.Workspace);
		}
	});
});
