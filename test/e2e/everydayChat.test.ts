// The everyday controls in the chat, in real VS Code through Chromium: `/plan` typed in the
// composer switches the mode control, a turn that edited a file offers "N files changed" and
// "Restore files to here" (which puts the file back), "Rewind the conversation to here"
// removes the turn and puts its prompt back in the composer, and `@` attaches a file as a chip.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Frame } from 'playwright-core';
import { text, toolCalls } from '../support/modelDouble';
import { ask, cleanChat as newCleanChat, explainFailure as explain, testId, useKeel, useModelDouble } from './harness';

describe('Keel everyday controls in the chat (e2e)', function () {
	this.timeout(180_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({ settings: { 'keel.model.baseUrl': double().openaiBaseUrl } }));

	const cleanChat = (): Promise<Frame> => newCleanChat(keel);

	it('typing /plan picks it from the completion list and switches the mode control; choosing Act switches back', async () => {
		const chat = await cleanChat();
		const mode = chat.locator(testId('mode'));
		await chat.locator(`${testId('mode')}[data-mode="act"]`).waitFor();
		const input = chat.locator(testId('prompt-input'));
		await input.fill('/pl');
		const list = chat.locator(testId('slash-completions'));
		await list.locator(`${testId('completion-item')}[data-value="plan"]`).waitFor();
		await keel.screenshot('everyday-slash-completions');
		await input.press('Tab');
		assert.strictEqual(await input.inputValue(), '/plan ');
		await input.press('Enter');
		await chat
			.locator(`${testId('mode')}[data-mode="plan"]`)
			.waitFor()
			.catch(error => explain(chat, error));
		assert.strictEqual(await input.inputValue(), '');
		await chat.locator(testId('notice')).filter({ hasText: 'Mode: Plan' }).first().waitFor();

		// Escape closes the list without sending or clearing the text.
		await input.fill('/ac');
		await list.waitFor();
		await input.press('Escape');
		await list.waitFor({ state: 'detached' });
		assert.strictEqual(await input.inputValue(), '/ac');
		await input.fill('');

		await mode.selectOption('act');
		await chat.locator(`${testId('mode')}[data-mode="act"]`).waitFor();
		assert.strictEqual(double().modelRequests.length, 0, 'commands never reach the model');
	});

	it('a turn that edits a file shows "1 file changed", "Restore files to here" puts the file back, and "Undo restore" undoes that', async () => {
		const file = path.join(keel.server.workspace, 'src/app.ts');
		const original = fs.readFileSync(file, 'utf8');
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
		const chat = await cleanChat();
		await ask(chat, 'Add a comment to app.ts');
		await chat
			.locator(`${testId('tool-card')}[data-status="awaitingApproval"] ${testId('tool-approve')}`)
			.click()
			.catch(error => explain(chat, error));
		await chat.locator(testId('message-assistant')).filter({ hasText: 'Edited.' }).waitFor();
		assert.match(fs.readFileSync(file, 'utf8'), /^\/\/ edited by Keel\n/);

		const changes = chat.locator(testId('turn-changes'));
		// The count comes with the turn's closing snapshot (git), which a loaded machine can slow down.
		await changes.waitFor({ timeout: 60_000 }).catch(error => explain(chat, error));
		assert.strictEqual((await changes.textContent())?.trim(), '1 file changed');
		await keel.screenshot('everyday-turn-changes');
		await changes.click();
		// The turn's diff opens in VS Code with the new line on the right.
		await keel.page.locator('.view-line', { hasText: '// edited by Keel' }).first().waitFor({ timeout: 20_000 });

		await chat.locator(testId('checkpoint-restore')).click();
		await chat
			.locator(testId('notice'))
			.filter({ hasText: /restor/i })
			.first()
			.waitFor({ timeout: 60_000 })
			.catch(error => explain(chat, error));
		assert.strictEqual(fs.readFileSync(file, 'utf8'), original);

		// Restoring is itself undoable, from the same turn.
		await chat
			.locator(testId('checkpoint-undo-restore'))
			.click()
			.catch(error => explain(chat, error));
		await chat
			.locator(testId('notice'))
			.filter({ hasText: /Undid the restore/ })
			.first()
			.waitFor({ timeout: 60_000 })
			.catch(error => explain(chat, error));
		assert.match(fs.readFileSync(file, 'utf8'), /^\/\/ edited by Keel\n/);
		await chat.locator(testId('checkpoint-undo-restore')).waitFor({ state: 'detached' });
	});

	it('"Rewind the conversation to here" removes the turn and everything after it and puts the prompt back in the composer', async () => {
		double().script(text('First answer.'), text('Second answer.'));
		const chat = await cleanChat();
		await ask(chat, 'first question');
		await chat.locator(testId('message-assistant')).filter({ hasText: 'First answer.' }).waitFor();
		await ask(chat, 'second question');
		await chat.locator(testId('message-assistant')).filter({ hasText: 'Second answer.' }).waitFor();
		const users = chat.locator(testId('message-user'));
		assert.strictEqual(await users.count(), 2);

		const rewind = chat.locator(testId('rewind-here'));
		await rewind
			.nth(1)
			.waitFor()
			.catch(error => explain(chat, error));
		await rewind.nth(1).click();
		await chat
			.locator(testId('message-assistant'))
			.filter({ hasText: 'Second answer.' })
			.waitFor({ state: 'detached' });
		assert.strictEqual(await users.count(), 1);
		assert.strictEqual(await users.first().textContent(), 'first question');
		const input = chat.locator(testId('prompt-input'));
		await chat.waitForFunction(
			`document.querySelector('[data-testid="prompt-input"]').value === 'second question'`,
		);
		assert.strictEqual(await input.inputValue(), 'second question');
	});

	it('@ opens the picker; the chosen file shows as a chip with its token cost and is attached when sent', async () => {
		double().script(text('Seen the file.'));
		const chat = await cleanChat();
		const input = chat.locator(testId('prompt-input'));
		await input.fill('Explain @src/ap');
		const picker = chat.locator(testId('mention-picker'));
		await picker
			.locator(`${testId('completion-item')}[data-value="src/app.ts"]`)
			.waitFor()
			.catch(error => explain(chat, error));
		await input.press('ArrowDown');
		await input.press('ArrowUp');
		await input.press('Enter');
		assert.strictEqual(await input.inputValue(), 'Explain @src/app.ts ');
		const chip = chat.locator(`${testId('mention-chip')}[data-value="src/app.ts"]`);
		await chip
			.locator(testId('mention-cost'))
			.filter({ hasText: /^\d+ tokens$/ })
			.waitFor();
		await keel.screenshot('everyday-mention-chip');

		await input.press('Enter');
		await chat.locator(testId('message-assistant')).filter({ hasText: 'Seen the file.' }).waitFor();
		const request = double().modelRequests.at(-1)!;
		const sent = JSON.stringify(request.body.messages);
		assert.match(sent, /export function greet/, 'the file content went with the prompt');
	});
});
