// Keel: Select Model as a user meets it in real VS Code: the quick pick lists the models the
// endpoint reports, picking one updates the status bar and the chat, and the next request uses
// it — on the same endpoint (a remote window once lost a machine-scoped baseUrl after the pick).
import * as assert from 'assert';
import { runCommand } from '../support/browser';
import { text } from '../support/modelDouble';
import { ask, testId, useKeel, useModelDouble } from './harness';

describe('Keel model picker (e2e)', function () {
	this.timeout(180_000);
	const double = useModelDouble({ models: ['glm-4.7-flash', 'qwen3:8b'] });
	const keel = useKeel(() => ({ settings: { 'keel.model.baseUrl': double().openaiBaseUrl } }));

	it("lists the endpoint's models, and the picked one is shown and used", async () => {
		const chat = await keel.openKeel();
		const statusItem = keel.page.locator('.statusbar-item', { hasText: 'glm-4.7-flash' }).first();
		await statusItem.waitFor();
		await runCommand(keel.page, 'Keel: Select Model');
		const row = keel.page.locator('.quick-input-list .monaco-list-row', { hasText: 'qwen3:8b' }).first();
		await row.waitFor();
		assert.strictEqual(
			await keel.page.locator('.quick-input-list .monaco-list-row', { hasText: 'glm-4.7-flash' }).count(),
			1,
			'both reported models are listed',
		);
		await keel.screenshot('select-model');
		await row.click();
		await keel.page.locator('.statusbar-item', { hasText: 'qwen3:8b' }).first().waitFor();
		await chat.locator(testId('model-label')).filter({ hasText: 'qwen3:8b' }).waitFor();
		double().script(text('hello from qwen'));
		await ask(chat, 'which model are you?');
		await chat
			.locator(testId('message-assistant'))
			.filter({ hasText: 'hello from qwen' })
			.waitFor()
			.catch(async error => {
				throw new Error(
					`${(error as Error).message}\nrequests: ${JSON.stringify(double().requests.map(r => [r.path, r.body?.model]))}\nchat: ${(await chat.locator('body').innerText()).slice(0, 800)}`,
				);
			});
		assert.strictEqual(double().modelRequests.at(-1)!.body.model, 'qwen3:8b');
	});
});
