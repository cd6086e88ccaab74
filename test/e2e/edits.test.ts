// Edits the user can see, in real VS Code through Chromium: the write card shows the diff
// before approval, "Open diff" opens VS Code's diff editor on it, and "Always allow" applies
// exactly that change and saves a rule to the workspace settings.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { text, toolCalls } from '../support/modelDouble';
import { testId, useKeel, useModelDouble } from './harness';

describe('Keel edits in VS Code (e2e)', function () {
	this.timeout(180_000);
	const double = useModelDouble();

	const keel = useKeel(() => ({ settings: { 'keel.model.baseUrl': double().openaiBaseUrl } }));

	it('shows the diff on the card, opens it in the diff editor, and "Always allow" applies it and saves the rule', async () => {
		double().script(
			toolCalls([
				{
					name: 'edit_file',
					arguments: {
						path: 'src/app.ts',
						old_string: 'export function greet',
						new_string: '// edited by Keel\nexport function greet',
					},
				},
			]),
			text('Edited.'),
		);
		const chat = await keel.openKeel();
		await chat.locator(testId('prompt-input')).fill('Add a comment to app.ts');
		await chat.locator(testId('send')).click();
		const card = chat.locator(`${testId('tool-card')}[data-status="awaitingApproval"]`);
		await card.waitFor().catch(async error => {
			throw new Error(
				`${(error as Error).message}\nchat shows: ${(await chat.locator('body').innerText()).slice(0, 1500)}`,
			);
		});
		const diff = card.locator(testId('tool-diff'));
		assert.strictEqual(await diff.getAttribute('data-path'), 'src/app.ts');
		assert.match((await diff.locator('.diff-line.added').first().textContent()) ?? '', /^\+\/\/ edited by Keel$/);
		await keel.screenshot('edit-card-diff');

		await card.locator(testId('tool-open-diff')).click();
		await keel.page
			.locator('.tab[aria-label*="Keel: proposed change"], .tab:has-text("Keel: proposed change")')
			.first()
			.waitFor({ timeout: 20_000 });
		// Both sides come from the card's own before/after: the right one has the new line.
		await keel.page
			.locator('.monaco-diff-editor .editor.modified .view-line', { hasText: '// edited by Keel' })
			.first()
			.waitFor({ timeout: 20_000 });
		await keel.page
			.locator('.monaco-diff-editor .editor.original .view-line', { hasText: 'export function greet' })
			.first()
			.waitFor({ timeout: 20_000 });
		await keel.screenshot('edit-diff-editor');

		const always = card.locator(testId('tool-always-allow'));
		assert.match((await always.textContent()) ?? '', /Always allow edit_file\(src\/app\.ts\)/);
		await always.click();
		await chat.locator(`${testId('tool-card')}[data-status="succeeded"]`).waitFor();
		const file = path.join(keel.server.workspace, 'src/app.ts');
		assert.match(fs.readFileSync(file, 'utf8'), /^\/\/ edited by Keel\nexport function greet/);
		const settings = JSON.parse(fs.readFileSync(path.join(keel.server.workspace, '.vscode/settings.json'), 'utf8'));
		assert.deepStrictEqual(settings['keel.permissions.rules'], [
			{ tool: 'edit_file', match: 'src/app.ts', action: 'allow' },
		]);
		await chat.locator(testId('notice')).filter({ hasText: 'Added the permission rule' }).waitFor();
	});
});
