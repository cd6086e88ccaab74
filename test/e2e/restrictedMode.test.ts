// A folder VS Code has not been told to trust, as `npm start` opens one: Restricted Mode. Keel
// is in the activity bar from the start, its empty chat says that only read tools run and
// offers Manage Workspace Trust, reads still run, and the first write the model attempts is
// refused with the same words and button, once. The rest of the e2e tier trusts its folder
// (--disable-workspace-trust); this window does not.
import * as assert from 'assert';
import { text, toolCalls } from '../support/modelDouble';
import { ask, explainFailure, testId, useKeel, useModelDouble } from './harness';

describe('Keel in Restricted Mode, an untrusted folder (e2e)', function () {
	this.timeout(240_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({ workspaceTrust: true, settings: { 'keel.model.baseUrl': double().openaiBaseUrl } }));

	it('is in the activity bar, and its empty chat says only read tools run, with Manage Workspace Trust', async () => {
		const page = keel.page;
		await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 60_000 });
		await page
			.locator('.part.activitybar a.action-label[aria-label^="Keel"]')
			.first()
			.waitFor({ state: 'visible', timeout: 60_000 });
		const chat = await keel.openKeel();
		const restricted = chat.locator(testId('empty-restricted'));
		await restricted.waitFor().catch(error => explainFailure(chat, error));
		assert.match(
			await restricted.innerText(),
			/Restricted Mode: Keel can read and search it, but it does not change files, run commands or fetch/,
		);
		await keel.screenshot('restricted-empty-chat');
		await restricted.locator(testId('action-manageTrust')).click();
		await page.locator('.workspace-trust-editor').first().waitFor({ timeout: 30_000 });
		await page.keyboard.press('Control+W');
	});

	it('reads run; the first refused write says why with the button, once, and the next refusal only on its card', async () => {
		double().script(
			toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]),
			toolCalls([{ name: 'write_file', arguments: { path: 'notes.md', content: 'one' } }]),
			toolCalls([{ name: 'write_file', arguments: { path: 'notes.md', content: 'two' } }]),
			text('I could read but not write.'),
		);
		const chat = await keel.openKeel();
		await ask(chat, 'Read the README, then write notes.md');
		await chat
			.locator(testId('message-assistant'))
			.filter({ hasText: 'I could read but not write.' })
			.waitFor({ timeout: 60_000 })
			.catch(error => explainFailure(chat, error));
		assert.strictEqual(
			await chat.locator(`${testId('tool-card')}[data-tool-name="read_file"]`).getAttribute('data-status'),
			'succeeded',
		);
		const writes = chat.locator(`${testId('tool-card')}[data-tool-name="write_file"]`);
		assert.deepStrictEqual(await writes.evaluateAll(cards => cards.map(c => c.getAttribute('data-status'))), [
			'denied',
			'denied',
		]);
		assert.deepStrictEqual(
			await writes.locator(testId('tool-policy')).allInnerTexts(),
			Array(2).fill('Refused: this folder is in Restricted Mode (not trusted).'),
			'each card says why in one line; the explanation and its button come once',
		);
		const notices = chat.locator(`${testId('notice')}[data-code="untrusted"]`);
		assert.strictEqual(await notices.count(), 1, 'said once');
		assert.match(
			await notices.innerText(),
			/only read-only tools run\. Trust the folder \(Manage Workspace Trust\)/,
		);
		assert.strictEqual(await notices.locator(testId('action-manageTrust')).count(), 1);
		await keel.screenshot('restricted-refused-write');
	});
});
