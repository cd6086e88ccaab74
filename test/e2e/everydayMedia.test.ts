// Images, Explorer drops and URL mentions in the chat, in real VS Code through Chromium: a real
// PNG pasted (a ClipboardEvent) or dropped (a DragEvent) shows as a chip with its size, is
// refused with what to do when the model is not known to read images, and once it is, reaches
// the model as an `image_url` part; a uri-list drop attaches the file as a mention; an address
// typed after `@` is offered and goes through the network guard.
import * as assert from 'assert';
import * as path from 'path';
import type { Frame } from 'playwright-core';
import { text } from '../support/modelDouble';
import {
	cleanChat as newCleanChat,
	explainFailure as explain,
	freshChat,
	testId,
	useKeel,
	useModelDouble,
} from './harness';

// A real 1×1 PNG (signature, IHDR, IDAT, IEND with valid CRCs).
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** Dispatches a paste (ClipboardEvent) or a drop (DragEvent) carrying `png` as a file, or a uri-list, in the chat. */
async function transfer(
	chat: Frame,
	how: 'paste' | 'drop',
	payload: { png?: string; name?: string; uriList?: string },
): Promise<void> {
	// Runs in the webview (a DOM the test's own types do not describe, hence the text).
	await chat.evaluate(`(() => {
		const payload = ${JSON.stringify(payload)};
		const data = new DataTransfer();
		if (payload.png) {
			const bytes = Uint8Array.from(atob(payload.png), c => c.charCodeAt(0));
			data.items.add(new File([bytes], payload.name || 'image.png', { type: 'image/png' }));
		}
		if (payload.uriList) {
			data.setData('application/vnd.code.uri-list', payload.uriList);
		}
		const input = document.querySelector('[data-testid="prompt-input"]');
		input.dispatchEvent(${how === 'paste' ? `new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })` : `new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true })`});
	})()`);
}

/** Waits (bounded) until the composer holds `value`: a textarea's value is no attribute a locator can wait on. */
async function composerValue(chat: Frame, value: string): Promise<void> {
	const input = chat.locator('[data-testid="prompt-input"]');
	for (let i = 0; (await input.inputValue()) !== value; i++) {
		assert.ok(
			i < 150,
			`the composer holds ${JSON.stringify(await input.inputValue())}, not ${JSON.stringify(value)}`,
		);
		await chat.waitForTimeout(200);
	}
}

describe('Keel images, Explorer drops and URL mentions in the chat (e2e)', function () {
	this.timeout(180_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({ settings: { 'keel.model.baseUrl': double().openaiBaseUrl } }));

	const cleanChat = (): Promise<Frame> => newCleanChat(keel);

	it('a pasted image shows as a removable chip with its size; a model not known to read images refuses it, saying what to do, and nothing is sent', async () => {
		const chat = await cleanChat();
		await transfer(chat, 'paste', { png: PNG, name: 'shot.png' });
		const chip = chat.locator(`${testId('image-chip')}[data-name="shot.png"]`);
		await chip.waitFor().catch(error => explain(chat, error));
		assert.strictEqual(
			(await chip.locator(testId('image-size')).textContent())?.trim(),
			`${Buffer.from(PNG, 'base64').length} B`,
		);
		await chip.locator(testId('image-remove')).click();
		await chip.waitFor({ state: 'detached' });

		await transfer(chat, 'drop', { png: PNG, name: 'dropped.png' });
		await chat.locator(`${testId('image-chip')}[data-name="dropped.png"]`).waitFor();
		await chat.locator(testId('prompt-input')).fill('What is in this picture?');
		await keel.screenshot('everyday-image-chip');
		await chat.locator(testId('send')).click();
		// The default ("auto") treats an OpenAI-compatible model as text-only.
		await chat
			.locator(testId('notice'))
			.filter({ hasText: /not known to accept images.*keel\.model\.supportsImages/ })
			.first()
			.waitFor()
			.catch(error => explain(chat, error));
		assert.strictEqual(double().modelRequests.length, 0, 'nothing reached the model');
		// The text and the image are back in the composer to send again.
		await chat.locator(`${testId('image-chip')}[data-name="dropped.png"]`).waitFor();
		await composerValue(chat, 'What is in this picture?');
	});

	it('a file dropped from the Explorer (a uri-list) is attached as a mention chip with its token cost', async () => {
		const chat = await cleanChat();
		const file = path.join(keel.server.workspace, 'src/app.ts');
		await chat.locator(testId('prompt-input')).fill('Explain');
		await transfer(chat, 'drop', { uriList: `file://${file}` });
		await composerValue(chat, 'Explain @src/app.ts ').catch(error => explain(chat, error));
		const chip = chat.locator(`${testId('mention-chip')}[data-value="src/app.ts"]`);
		await chip
			.locator(testId('mention-cost'))
			.filter({ hasText: /^\d+ tokens$/ })
			.waitFor();
		// Outside the workspace: refused with the reason, nothing added.
		await transfer(chat, 'drop', { uriList: 'file:///etc/hostname' });
		await chat
			.locator(testId('notice'))
			.filter({ hasText: /Not attached: .*hostname \(outside the workspace\)/ })
			.first()
			.waitFor()
			.catch(error => explain(chat, error));
		assert.strictEqual(await chat.locator(testId('prompt-input')).inputValue(), 'Explain @src/app.ts ');
	});

	it('an address typed after @ is offered as a URL mention and fetched through the network guard (a private address is refused)', async () => {
		const chat = await cleanChat();
		const input = chat.locator(testId('prompt-input'));
		// Loopback over https on the standard port: checkUrl passes it on to the address check, which refuses it.
		const url = 'https://127.0.0.1/page';
		await input.fill(`Summarise @${url}`);
		const picker = chat.locator(testId('mention-picker'));
		await picker
			.locator(`${testId('completion-item')}[data-value="${url}"]`)
			.waitFor()
			.catch(error => explain(chat, error));
		await input.press('Enter');
		assert.strictEqual(await input.inputValue(), `Summarise @${url} `);
		const chip = chat.locator(`${testId('mention-chip')}[data-value="${url}"]`);
		await chip
			.locator(testId('mention-cost'))
			.filter({ hasText: 'not attached' })
			.waitFor()
			.catch(error => explain(chat, error));
		assert.match(
			String(await chip.getAttribute('title')),
			/127\.0\.0\.1 is a loopback address; only public addresses can be fetched/,
		);
	});
});

describe('Keel images sent to a model that reads them (e2e)', function () {
	this.timeout(180_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({
		settings: { 'keel.model.baseUrl': double().openaiBaseUrl, 'keel.model.supportsImages': 'yes' },
	}));

	it('with keel.model.supportsImages "yes" the image reaches the model as an image_url data URL part, and stays with the session after a reload', async () => {
		const chat = await freshChat(keel);
		await transfer(chat, 'paste', { png: PNG, name: 'shot.png' });
		await chat.locator(`${testId('image-chip')}[data-name="shot.png"]`).waitFor();
		await chat.locator(testId('prompt-input')).fill('Describe the image');
		double().script(text('A single pixel.'));
		await chat.locator(testId('send')).click();
		await chat
			.locator(testId('message-assistant'))
			.filter({ hasText: 'A single pixel.' })
			.waitFor()
			.catch(async error => {
				throw new Error(
					`${(error as Error).message}\nchat shows: ${(await chat.locator('body').innerText()).slice(0, 1500)}`,
				);
			});
		const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } };
		const sent = double()
			.modelRequests.at(-1)!
			.body.messages.find((m: { role: string }) => m.role === 'user');
		assert.deepStrictEqual(sent.content, [{ type: 'text', text: 'Describe the image' }, image]);
		await chat.locator(`${testId('message-image')}[data-name="shot.png"]`).waitFor();
		assert.strictEqual(await chat.locator(testId('image-chip')).count(), 0, 'the composer is empty after sending');
		await keel.screenshot('everyday-image-sent');

		// A reload resumes the stored session: the image is still named under its message, and goes with the history.
		await keel.page.reload();
		const again = await keel.openKeel();
		await again.locator(`${testId('message-image')}[data-name="shot.png"]`).waitFor();
		double().script(text('Still one pixel.'));
		await again.locator(testId('prompt-input')).fill('And now?');
		await again.locator(testId('send')).click();
		await again.locator(testId('message-assistant')).filter({ hasText: 'Still one pixel.' }).waitFor();
		const history = double()
			.modelRequests.at(-1)!
			.body.messages.filter((m: { role: string }) => m.role === 'user');
		assert.deepStrictEqual(
			history[0].content,
			[{ type: 'text', text: 'Describe the image' }, image],
			'the stored image is sent again with the history',
		);
	});
});
