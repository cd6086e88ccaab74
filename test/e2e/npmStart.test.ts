// README's first command, exactly as written: `npm start` from the repository root, no folder,
// no variable of its own. The URL it prints opens the sample project (a copy of sample/ in the
// per-user cache, beside code-server's profile) untrusted, with Keel in the activity bar before
// anything is clicked, and Keel's empty chat says what Restricted Mode allows. Runs on the
// current code-server, and on the oldest in the e2e-oldest tier (KEEL_VSCODE, which `npm start`
// honours too). Prints how long the command took to print its URL and the icon to appear:
// figures, never a verdict.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openWorkbench, screenshot, webviewFrame } from '../support/browser';
import { CODE_SERVER_VERSION, REPO_ROOT, ensureTools } from '../support/codeServer';
import { npmStart, type NpmStart } from '../support/npmStart';
import { testId } from './harness';

describe('npm start with no folder, as README writes it (e2e)', function () {
	this.timeout(420_000);
	let start: NpmStart | undefined;
	let browser: Browser | undefined;
	let page: Page;
	let openedAt = 0;

	before(async function () {
		this.timeout(420_000);
		ensureTools(); // Chromium for the test; `npm start` sets up its code-server itself.
		start = await npmStart();
		browser = await launchBrowser();
		openedAt = Date.now();
		page = await openWorkbench(browser, start.url, 120_000);
	});

	after(async () => {
		await browser?.close().catch(() => undefined);
		await start?.stop();
	});

	afterEach(async function () {
		if (this.currentTest?.state === 'failed' && page)
			await screenshot(page, `failed-${this.currentTest.fullTitle()}`).catch(() => undefined);
	});

	it('opens the sample project untrusted, with Keel in the activity bar before anything is clicked', async () => {
		const icon = page.locator('.part.activitybar a.action-label[aria-label^="Keel"]').first();
		await icon.waitFor({ state: 'visible', timeout: 90_000 });
		const now = Date.now();
		console.log(
			`      code-server ${CODE_SERVER_VERSION}: the Keel icon ${((now - start!.startedAt) / 1000).toFixed(1)} s after npm start ` +
				`(the URL printed at ${(start!.readyMs / 1000).toFixed(1)} s, the icon ${((now - openedAt) / 1000).toFixed(1)} s after opening it)`,
		);
		await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 60_000 });
		await screenshot(page, `npm-start-before-any-click-${CODE_SERVER_VERSION}`);

		// The folder is the per-user copy of sample/, file for file: what README's "Five things" name.
		const keelHome = path.join(start!.home, '.cache', 'keel');
		const sample = fs.realpathSync(path.join(keelHome, 'sample-project'));
		assert.strictEqual(new URL(start!.url).searchParams.get('folder'), sample);
		const files = (dir: string) =>
			(fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
				.filter(file => fs.statSync(path.join(dir, file)).isFile())
				.sort()
				.map(file => [file, fs.readFileSync(path.join(dir, file), 'utf8')]);
		assert.deepStrictEqual(files(sample), files(path.join(REPO_ROOT, 'sample')));
		await page
			.locator('.explorer-folders-view .monaco-list-row', { hasText: 'greeter.config.json' })
			.waitFor({ timeout: 30_000 });
		// Keel was installed into the profile beside it, where no folder `npm start` opens by default is.
		const extensions = fs.readdirSync(path.join(keelHome, 'code-server', 'extensions'));
		assert.ok(
			extensions.some(name => name.startsWith('keel.keel-')),
			`Keel in ${extensions.join(', ')}`,
		);
		// Nothing else of the user's is written but what README names: what any code-server writes
		// (its launcher's logs and heartbeat, VS Code's device id) and npm's own folder.
		const written = (fs.readdirSync(start!.home, { recursive: true, encoding: 'utf8' }) as string[]).filter(
			file =>
				!/^(?:\.cache(?:\/keel|\/Microsoft)?|\.local(?:\/share(?:\/code-server)?)?|\.npm)(?:\/|$)/.test(file),
		);
		assert.deepStrictEqual(written, [], 'written in HOME outside the places README names');
	});

	it("shows the Restricted Mode notice in Keel's empty chat", async () => {
		// An older VS Code asks about trust first; a newcomer who keeps it untrusted says no.
		const no = page.getByRole('button', { name: "No, I don't trust the authors" });
		if (await no.isVisible()) await no.click();
		await page
			.locator('.part.activitybar li.action-item:has(> a.action-label[aria-label^="Keel"])')
			.first()
			.click();
		await page.mouse.move(700, 450); // the icon's tooltip out of the screenshot
		const chat = await webviewFrame(page, testId('empty-restricted'), 90_000);
		const notice = chat.locator(testId('empty-restricted'));
		assert.match(
			await notice.innerText(),
			/Restricted Mode: Keel can read and search it, but it does not change files, run commands or fetch/,
		);
		assert.strictEqual(await notice.locator(testId('action-manageTrust')).count(), 1);
		await screenshot(page, `npm-start-first-view-${CODE_SERVER_VERSION}`);
	});
});
