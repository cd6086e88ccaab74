// Two windows on one workspace, as a user opens them: VS Code gives the second its own storage
// folder, yet both show the workspace's one history. The second window lists the first
// window's conversation but starts its own (the first still has that one open), and a fresh
// window opened once the first has closed resumes it.
import * as assert from 'assert';
import { keelVsixPath } from '../support/codeServer';
import { launchBrowser, openKeelView, openWorkbench, runCommand, webviewFrame } from '../support/browser';
import { strictTiers } from '../support/tierGate';
import { text } from '../support/modelDouble';
import { ask, PROMPT_INPUT, testId, useKeel, useModelDouble } from './harness';

(keelVsixPath() || strictTiers() ? describe : describe.skip)('two windows on one workspace (e2e)', function () {
	this.timeout(300_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({ settings: { 'keel.model.baseUrl': double().openaiBaseUrl } }));

	it("a second window lists the first window's conversation and starts its own; a fresh window resumes it once the first closed", async () => {
		const chat = await keel.openKeel();
		double().script(text('The answer from the first window.'));
		await ask(chat, 'A question in the first window');
		await chat.locator(`${testId('message-assistant')}[data-streaming="false"]`).waitFor();

		const browser = await launchBrowser();
		try {
			const second = await openWorkbench(browser, keel.server.url);
			await openKeelView(second);
			const secondChat = await webviewFrame(second, PROMPT_INPUT, 60_000);
			assert.strictEqual(
				await secondChat.locator(testId('message-user')).count(),
				0,
				'the second window does not write into the conversation the first has open',
			);
			await runCommand(second, 'Keel: Show History');
			await second
				.locator('.quick-input-list .monaco-list-row', { hasText: 'A question in the first window' })
				.first()
				.waitFor({ timeout: 30_000 });
			await second.keyboard.press('Escape');

			await keel.page.close({ runBeforeUnload: true });
			const third = await openWorkbench(browser, keel.server.url);
			await openKeelView(third);
			const thirdChat = await webviewFrame(third, PROMPT_INPUT, 60_000);
			await thirdChat
				.locator(`${testId('message-assistant')} >> text=The answer from the first window.`)
				.waitFor({ timeout: 60_000 });
			assert.deepStrictEqual(await thirdChat.locator(testId('message-user')).allTextContents(), [
				'A question in the first window',
			]);
		} finally {
			await browser.close();
		}
	});
});
