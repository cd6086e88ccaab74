// The chat with a long conversation, as a user meets it in real VS Code: it follows new output
// only while they are at the bottom, pages older items in when they scroll up, folds repeated
// cards, copies code and answers, and works from the keyboard alone.
import * as assert from 'assert';
import type { Frame } from 'playwright-core';
import { text, textThenTools, toolCalls } from '../support/modelDouble';
import { ask, freshChat, testId, useKeel, useModelDouble, type KeelE2E } from './harness';

// Page-side code runs in the webview; the Node program has no DOM types.
declare const document: any, navigator: any, CompositionEvent: any, KeyboardEvent: any;

const MESSAGES = testId('messages');

/** Pixels between the bottom of the conversation and the bottom of its viewport. */
function distanceFromBottom(chat: Frame): Promise<number> {
	return chat.locator(MESSAGES).evaluate(el => el.scrollHeight - el.scrollTop - el.clientHeight);
}

async function wheelUp(keel: KeelE2E, chat: Frame, times = 3): Promise<void> {
	await chat.locator(MESSAGES).hover();
	for (let i = 0; i < times; i++) {
		await keel.page.mouse.wheel(0, -400);
		await keel.page.waitForTimeout(50);
	}
}

const paragraphs = (count: number) =>
	Array.from(
		{ length: count },
		(_, i) => `Paragraph ${i + 1}: the agent keeps explaining what it found in the workspace, at some length.`,
	).join('\n\n');

describe('Keel chat with long conversations (e2e)', function () {
	this.timeout(240_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({
		settings: { 'keel.model.baseUrl': double().openaiBaseUrl, 'keel.agent.maxSteps': 200 },
	}));

	beforeEach(async () => {
		double().reset();
		await freshChat(keel);
	});

	it('names the model and endpoint in an empty chat', async () => {
		const chat = await keel.webview();
		const empty = chat.locator(testId('empty-state'));
		await empty.waitFor();
		assert.strictEqual(await empty.locator(testId('empty-model')).textContent(), 'glm-4.7-flash');
		assert.strictEqual(await empty.locator(testId('empty-endpoint')).textContent(), double().openaiBaseUrl);
		assert.match((await empty.textContent()) ?? '', /Keel: Select Model/);
	});

	it('follows a streaming answer at the bottom, stays put when scrolled up, and jumps back to the latest', async () => {
		double().script(text(paragraphs(60), { chunks: 90, delayMs: 60 }));
		const chat = await keel.webview();
		await ask(chat, 'Explain everything');
		await chat.locator(`${testId('message-assistant')} >> text=Paragraph 25`).waitFor();
		assert.ok((await distanceFromBottom(chat)) < 60, 'while at the bottom, new output stays in view');

		await wheelUp(keel, chat);
		await chat.locator(testId('jump-to-latest')).waitFor();
		const scrolledTo = await chat.locator(MESSAGES).evaluate(el => el.scrollTop);
		await chat.locator(`${testId('message-assistant')} >> text=Paragraph 45`).waitFor();
		const after = await chat.locator(MESSAGES).evaluate(el => el.scrollTop);
		assert.ok(
			Math.abs(after - scrolledTo) < 5,
			`the view stayed where the user scrolled (${scrolledTo} → ${after})`,
		);
		assert.ok((await distanceFromBottom(chat)) > 200, 'new output arrived below without pulling the view down');

		await chat.locator(testId('jump-to-latest')).click();
		await chat.locator(`${testId('message-assistant')}[data-streaming="false"]`).waitFor();
		await keel.page.waitForTimeout(300);
		assert.ok((await distanceFromBottom(chat)) < 60, 'jump to latest brings back the end and follows it');
		assert.strictEqual(await chat.locator(testId('jump-to-latest')).count(), 0);
	});

	it('shows the newest page of a long session and pages older items in when the user scrolls up', async () => {
		const rounds = 60; // 1 prompt + 2 items per round + the answer: more than one page
		double().script(
			...Array.from({ length: rounds }, (_, i) =>
				textThenTools(`Round ${i + 1}.`, [
					{ name: 'read_file', arguments: { path: 'README.md', offset: 1, limit: i + 1 } },
				]),
			),
			text('All rounds done.'),
		);
		let chat = await keel.webview();
		await ask(chat, 'The very first prompt');
		await chat
			.locator(`${testId('message-assistant')}[data-streaming="false"] >> text=All rounds done.`)
			.waitFor({ timeout: 120_000 });

		// Hide and show the chat: the webview reloads and gets only the newest page.
		await keel.page.keyboard.press('Control+Shift+E');
		await keel.page.waitForTimeout(500);
		chat = await keel.openKeel();
		await chat.locator(`${testId('message-assistant')} >> text=All rounds done.`).waitFor();
		assert.strictEqual(
			await chat.locator(testId('message-user')).count(),
			0,
			'the first prompt is in an older page, not sent on open',
		);
		const nodes = await chat.evaluate(() => document.getElementsByTagName('*').length);
		assert.ok(nodes < 3000, `only what is near the viewport is in the DOM (${nodes} nodes)`);

		for (let i = 0; i < 40 && (await chat.locator(testId('message-user')).count()) === 0; i++) {
			await wheelUp(keel, chat, 5);
		}
		assert.strictEqual(await chat.locator(testId('message-user')).textContent(), 'The very first prompt');
		assert.strictEqual(await chat.locator(testId('load-older')).count(), 0, 'nothing older is left to load');
	});

	it('folds identical finished cards into a group that expands to the cards', async () => {
		const reads = [1, 2, 3, 4].map(limit => ({
			name: 'read_file',
			arguments: { path: 'README.md', offset: 1, limit },
		}));
		double().script(toolCalls(reads), text('Read them all.'));
		const chat = await keel.webview();
		await ask(chat, 'Read the README four ways');
		await chat.locator(`${testId('message-assistant')}[data-streaming="false"]`).waitFor();
		const group = chat.locator(testId('card-group'));
		await group.waitFor();
		assert.strictEqual(await group.getAttribute('data-count'), '4');
		assert.match((await group.locator(testId('card-group-toggle')).textContent()) ?? '', /Read 4 files/);
		assert.strictEqual(await group.locator(testId('tool-card')).count(), 0, 'folded until asked');
		await group.locator(testId('card-group-toggle')).click();
		await group.locator(testId('tool-card')).nth(3).waitFor();
		assert.deepStrictEqual(
			await group.locator(testId('tool-title')).allTextContents(),
			reads.map(r => `Read README.md (lines 1–${r.arguments.limit})`),
		);
		assert.strictEqual(await group.locator(testId('card-group-toggle')).getAttribute('aria-expanded'), 'true');
	});

	it('copies a code block and a whole answer to the clipboard', async () => {
		await keel.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
		double().script(text('Run this:\n\n```bash\nnpm run build && npm test\n```\n\nThen check the output.'));
		const chat = await keel.webview();
		await ask(chat, 'How do I build?');
		await chat.locator(`${testId('message-assistant')}[data-streaming="false"]`).waitFor();
		await chat.locator(testId('copy-code')).click();
		await waitForClipboard(keel, 'npm run build && npm test');
		await chat.locator(testId('copy-answer')).click();
		await waitForClipboard(keel, 'Run this:\n\n```bash\nnpm run build && npm test\n```\n\nThen check the output.');
	});

	it('does not send on Enter while an IME composition is open; Up recalls the last prompt', async () => {
		double().script(text('こんにちは'));
		const chat = await keel.webview();
		const input = chat.locator(testId('prompt-input'));
		await input.fill('にほんご');
		// What a Japanese IME does on Enter to pick a candidate: the keydown comes inside a composition.
		await input.evaluate(el => {
			el.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true, data: '' }));
			el.dispatchEvent(
				new KeyboardEvent('keydown', {
					key: 'Enter',
					code: 'Enter',
					keyCode: 229,
					isComposing: true,
					bubbles: true,
					cancelable: true,
				}),
			);
			el.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true, data: 'にほんご' }));
		});
		await keel.page.waitForTimeout(300);
		assert.strictEqual(
			await chat.locator(testId('message-user')).count(),
			0,
			'Enter during composition picked the candidate, not sent',
		);
		assert.strictEqual(await input.inputValue(), 'にほんご');
		await input.press('Enter');
		await chat.locator(`${testId('message-assistant')}[data-streaming="false"]`).waitFor();
		assert.strictEqual(await chat.locator(testId('message-user')).textContent(), 'にほんご');
		assert.strictEqual(await input.inputValue(), '');
		await input.press('ArrowUp');
		assert.strictEqual(await input.inputValue(), 'にほんご');
	});

	it('shows grouped reads, a highlighted answer, the context meter and an edit waiting for approval (README screenshot)', async () => {
		const reads = ['README.md', 'package.json', 'src/app.ts'].map(path => ({
			name: 'read_file',
			arguments: { path },
		}));
		double().script(
			toolCalls(reads),
			textThenTools(
				'`greet` has no doc comment. I will add one:\n\n```ts\n/** Says hello to `name`. */\nexport function greet(name: string): string {\n\treturn `Hello, ${name}!`;\n}\n```',
				[
					{
						name: 'edit_file',
						arguments: {
							path: 'src/app.ts',
							old_string: 'export function greet',
							new_string: '/** Says hello to `name`. */\nexport function greet',
						},
					},
				],
			),
			text('Done.'),
		);
		const chat = await keel.webview();
		await ask(chat, 'Document the greet function in src/app.ts');
		await chat.locator(`${testId('tool-card')}[data-status="awaitingApproval"]`).waitFor();
		await chat.locator(testId('card-group')).waitFor();
		await chat.locator(testId('context-meter')).waitFor();
		await chat.locator('.hljs-keyword').first().waitFor();
		// Toasts from earlier tests (e.g. a truncation warning) are not part of the picture.
		const toastClose = keel.page.locator('.notification-toast .codicon-notifications-clear');
		while ((await toastClose.count()) > 0) {
			await toastClose
				.first()
				.click()
				.catch(() => undefined);
			await keel.page.waitForTimeout(200);
		}
		await keel.page.mouse.move(700, 450);
		await keel.screenshot('chat-readme');
		await chat.locator(testId('tool-deny')).click();
		await chat.locator(`${testId('message-assistant')}[data-streaming="false"] >> text=Done.`).waitFor();
	});
});

async function waitForClipboard(keel: KeelE2E, expected: string): Promise<void> {
	let seen = '';
	for (let i = 0; i < 50; i++) {
		seen = await keel.page
			.evaluate(() => navigator.clipboard.readText())
			.catch(error => `(unreadable: ${(error as Error).message})`);
		if (seen === expected) {
			return;
		}
		await keel.page.waitForTimeout(100);
	}
	assert.strictEqual(seen, expected);
}

describe('Keel chat from the keyboard alone (e2e)', function () {
	this.timeout(180_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({
		settings: { 'keel.model.baseUrl': double().openaiBaseUrl, 'keel.approval.autoApproveReads': false },
	}));

	beforeEach(async () => {
		double().reset();
		await freshChat(keel);
	});

	/** Shift+Tab from the prompt box until `target` has focus, as a keyboard user would. */
	async function tabBackTo(chat: Frame, target: string): Promise<void> {
		for (let i = 0; i < 12; i++) {
			if ((await chat.evaluate(() => document.activeElement?.getAttribute('data-testid'))) === target) {
				return;
			}
			await chat.page().keyboard.press('Shift+Tab');
		}
		assert.fail(`${target} is not reachable with Shift+Tab from the prompt box`);
	}

	for (const [decision, button, status] of [
		['approves', 'tool-approve', 'succeeded'],
		['denies', 'tool-deny', 'denied'],
	] as const) {
		it(`${decision} a tool call with the keyboard`, async () => {
			double().script(toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]), text('Done.'));
			const chat = await keel.webview();
			const input = chat.locator(testId('prompt-input'));
			await input.focus();
			await chat.page().keyboard.type('Read the README');
			// Send is enabled once the chat has loaded; before that Enter keeps the text unsent.
			await chat.locator(`${testId('send')}:not([disabled])`).waitFor();
			await chat.page().keyboard.press('Enter');
			await chat.locator(`${testId('tool-card')}[data-status="awaitingApproval"]`).waitFor();
			await input.focus();
			await tabBackTo(chat, button);
			await chat.page().keyboard.press('Enter');
			await chat.locator(`${testId('tool-card')}[data-status="${status}"]`).waitFor();
			await chat.locator(`${testId('message-assistant')}[data-streaming="false"]`).waitFor();
		});
	}

	it('stops a running turn with Escape', async () => {
		double().script(text(paragraphs(40), { chunks: 80, delayMs: 100 }));
		const chat = await keel.webview();
		await ask(chat, 'Talk for a while');
		await chat.locator(testId('message-assistant')).waitFor();
		await chat.locator(testId('prompt-input')).press('Escape');
		await chat.locator(testId('send')).waitFor();
		assert.strictEqual(await chat.locator(testId('error-banner')).count(), 0, 'a stop is not an error');
	});
});
