// The webview of another protocol version (Keel updated under a live view): the real webview
// bundle in Chromium talks to the real WebviewChannel; the host's refusal is shown with a
// button that asks the host to reload the window.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { PROTOCOL_REFUSAL_TEXT, WebviewChannel } from '../../src/host/view/webviewChannel';
import { launchBrowser } from '../support/browser';
import { REPO_ROOT } from '../support/codeServer';

// Evaluated in the page; the tests compile without the DOM library.
declare const window: {
	__posted: Array<{ type: string; protocolVersion?: number }>;
	postMessage(message: unknown, origin: string): void;
};

const bundle = path.join(REPO_ROOT, 'dist', 'webview.js');

/** The production bundle and stylesheet, with VS Code's `acquireVsCodeApi` recording what the webview posts. */
function writePage(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-refusal-'));
	const html = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<link href="file://${path.join(REPO_ROOT, 'media', 'main.css')}" rel="stylesheet">
<script>window.__posted = []; window.acquireVsCodeApi = () => ({ postMessage: m => window.__posted.push(m), getState: () => undefined, setState: () => {} });</script>
</head><body><div id="root"></div><script src="file://${bundle}"></script></body></html>`;
	fs.writeFileSync(path.join(dir, 'index.html'), html);
	return path.join(dir, 'index.html');
}

const posted = (page: Page) => page.evaluate(() => window.__posted);

(fs.existsSync(bundle) ? describe : describe.skip)('webview: protocol version mismatch', function () {
	this.timeout(60_000);
	let browser: Browser;

	before(async () => {
		browser = await launchBrowser();
	});
	after(async () => {
		await browser?.close();
	});

	it('shows "reload the window" with a button that asks the host to reload', async () => {
		const page = await browser.newPage();
		await page.goto(`file://${writePage()}`);
		await page.waitForFunction(() => window.__posted.length > 0);
		const ready = (await posted(page)).find(m => m.type === 'ready');
		assert.ok(ready, 'the webview said ready');
		// An older webview: its `ready` carries another version; the real channel answers it.
		const channel = new WebviewChannel();
		const sent: unknown[] = [];
		const opened = channel.open(
			m => sent.push(m),
			(ready.protocolVersion ?? 0) - 1,
			() => ({
				type: 'didSnapshot',
				state: { sessionId: 's', busy: false, items: [], olderCount: 0, modelLabel: 'm' },
			}),
		);
		assert.strictEqual(opened, false);
		for (const message of sent) {
			await page.evaluate(m => window.postMessage(m, '*'), message);
		}
		const banner = page.getByTestId('protocol-refusal');
		await banner.waitFor({ state: 'visible' });
		assert.match(await banner.innerText(), new RegExp(PROTOCOL_REFUSAL_TEXT.replace('.', '\\.')));
		assert.strictEqual(
			await page.getByTestId('prompt-input').count(),
			0,
			'no composer to type into a chat that cannot work',
		);
		await page.getByTestId('reload-window').click();
		assert.ok(
			(await posted(page)).some(m => m.type === 'reloadWindow'),
			'the button asked the host to reload',
		);
		await page.close();
	});
});
