// The context meter shows how fast a local model was served: the prompt tokens the server took
// from its cache (from the double's real usage fields), those it read anew, and the time to the
// first token, in real VS Code driven in Chromium.
import * as assert from 'assert';
import { text } from '../support/modelDouble';
import { ask, freshChat, testId, useKeel, useModelDouble } from './harness';

describe('Keel context meter: cached prompt tokens and time to first token (e2e)', function () {
	this.timeout(240_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({ settings: { 'keel.model.baseUrl': double().openaiBaseUrl } }));

	beforeEach(async () => {
		double().reset();
		await freshChat(keel);
	});

	it('shows the cached and new prompt tokens the server reported, and the time to the first token', async () => {
		double().script(
			text('Hello from the cache.', { usage: { promptTokens: 2400, cachedTokens: 2100 }, headerDelayMs: 300 }),
		);
		const chat = await keel.webview();
		await ask(chat, 'Say hello');
		await chat.locator(`${testId('message-assistant')}[data-streaming="false"]`).waitFor();
		const speed = chat.locator(testId('context-speed'));
		await speed.waitFor();
		assert.match((await speed.textContent()) ?? '', /^2\.1k cached · 300 new · \d+\.\d s$/);
		const title = (await chat.locator(testId('context-meter')).getAttribute('title')) ?? '';
		assert.match(
			title,
			/last request: 2\.1k prompt tokens from the server's cache, 300 read anew, first token after/,
		);
		const seconds = Number(/(\d+\.\d) s$/.exec((await speed.textContent()) ?? '')?.[1]);
		assert.ok(seconds >= 0.3, `the time to first token counts the server's wait (${seconds} s)`);
	});
});
