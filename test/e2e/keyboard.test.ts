// Keel from the keyboard alone: Ctrl+Alt+K (a key VS Code leaves free) opens the chat with the
// caret in the composer, as Keel: Focus Chat does from anywhere; Tab reaches Allow, Deny and
// Stop, and after each the keyboard is back in the composer, ready for the next message.
import * as assert from 'assert';
import type { Frame, Page } from 'playwright-core';
import { runCommand } from '../support/browser';
import { text, toolCalls } from '../support/modelDouble';
import { explainFailure, testId, useKeel, useModelDouble } from './harness';

/** The element the keyboard would type into: the webview document has focus and this is its active element. */
async function focused(chat: Frame): Promise<string | undefined> {
	return chat.evaluate(
		`document.hasFocus() ? (document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName) : undefined`,
	) as Promise<string | undefined>;
}

async function until(chat: Frame, what: string, probe: () => Promise<boolean>): Promise<void> {
	for (let i = 0; !(await probe()); i++) {
		assert.ok(i < 100, `gave up waiting for ${what}; focus is on ${await focused(chat)}`);
		await chat.waitForTimeout(100);
	}
}

/** Presses Tab until `testid` has the focus, as a keyboard user would. */
async function tabTo(page: Page, chat: Frame, testid: string): Promise<void> {
	for (let i = 0; (await focused(chat)) !== testid; i++) {
		assert.ok(i < 40, `Tab never reached ${testid}; focus is on ${await focused(chat)}`);
		await page.keyboard.press('Tab');
	}
}

describe('Keel from the keyboard (e2e)', function () {
	this.timeout(240_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({ settings: { 'keel.model.baseUrl': double().openaiBaseUrl } }));

	it('Ctrl+Alt+K opens the chat with the caret in the composer, and typing goes there', async () => {
		const page = keel.page;
		await page.locator('.part.activitybar a.action-label[aria-label^="Keel"]').first().waitFor({ timeout: 60_000 });
		await page.locator('.monaco-workbench').click({ position: { x: 700, y: 300 } });
		await page.keyboard.press('Control+Alt+K');
		const chat = await keel.webview();
		await until(chat, 'the composer to have the caret', async () => (await focused(chat)) === 'prompt-input');
		await page.keyboard.type('hello from the keyboard');
		assert.strictEqual(await chat.locator(testId('prompt-input')).inputValue(), 'hello from the keyboard');
		await chat.locator(testId('prompt-input')).fill('');
	});

	it('Keel: Focus Chat from the palette puts the caret in the composer', async () => {
		const page = keel.page;
		await runCommand(page, 'View: Focus Active Editor Group');
		await runCommand(page, 'Keel: Focus Chat');
		const chat = await keel.webview();
		await until(chat, 'the composer to have the caret', async () => (await focused(chat)) === 'prompt-input');
	});

	it('Allow and Deny reached with Tab and pressed with Enter give the keyboard back to the composer', async () => {
		const page = keel.page;
		double().script(
			toolCalls([{ name: 'write_file', arguments: { path: 'a.md', content: 'a' } }]),
			toolCalls([{ name: 'write_file', arguments: { path: 'b.md', content: 'b' } }]),
			text('One written, one not.'),
		);
		const chat = await keel.openKeel();
		await chat.locator(testId('prompt-input')).focus();
		await page.keyboard.type('write a.md and b.md');
		await page.keyboard.press('Enter');
		await chat.locator(testId('tool-approve')).waitFor();
		await tabTo(page, chat, 'tool-approve');
		await page.keyboard.press('Enter');
		await until(
			chat,
			'focus back in the composer after Allow',
			async () => (await focused(chat)) === 'prompt-input',
		);
		// The second card asks, and the first no longer does (its Deny must not be the one Tab reaches).
		const waiting = chat.locator(`${testId('tool-card')}[data-status="awaitingApproval"]`);
		await waiting.filter({ hasText: 'b.md' }).waitFor();
		await until(chat, 'only the second card waiting', async () => (await waiting.count()) === 1);
		await tabTo(page, chat, 'tool-deny');
		await page.keyboard.press('Enter');
		await until(
			chat,
			'focus back in the composer after Deny',
			async () => (await focused(chat)) === 'prompt-input',
		);
		await chat
			.locator(testId('message-assistant'))
			.filter({ hasText: 'One written, one not.' })
			.waitFor()
			.catch(error => explainFailure(chat, error));
	});

	it('Stop reached with Tab gives the keyboard back to the composer', async () => {
		const page = keel.page;
		double().script(
			text('A very slow answer that streams word by word for quite a while.', { chunks: 12, delayMs: 700 }),
		);
		const chat = await keel.openKeel();
		await chat.locator(testId('prompt-input')).focus();
		await page.keyboard.type('say something slowly');
		await page.keyboard.press('Enter');
		await chat.locator(testId('stop')).waitFor();
		await tabTo(page, chat, 'stop');
		await page.keyboard.press('Enter');
		await chat.locator(testId('send')).waitFor();
		await until(
			chat,
			'focus back in the composer after Stop',
			async () => (await focused(chat)) === 'prompt-input',
		);
	});
});
