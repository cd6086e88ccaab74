// Drives code-server's workbench with Debian's Chromium through playwright-core (never
// `playwright install`: it downloads a browser, and there is no internet here).
// Opening the workbench is also what starts the extension host: code-server only spawns
// it when a browser window connects.
import * as fs from 'fs';
import * as path from 'path';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { REPO_ROOT } from './codeServer';

export const CHROMIUM = process.env.KEEL_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
	'--disable-dev-shm-usage',
];
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

export function launchBrowser(): Promise<Browser> {
	return chromium.launch({
		executablePath: CHROMIUM,
		headless: process.env.KEEL_HEADED !== '1',
		args: CHROMIUM_ARGS,
	});
}

/** Opens the workbench URL (from CodeServer.url) and waits until the workbench has rendered. */
export async function openWorkbench(browser: Browser, url: string, timeoutMs = 60_000): Promise<Page> {
	const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
	const page = await context.newPage();
	await page.goto(url);
	// The activity bar is laid out once the workbench has restored its parts. Extension
	// containers (Keel's) join it a moment later, when the server's extension scan arrives.
	await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: timeoutMs });
	return page;
}

/**
 * Shows Keel's sidebar: clicks its activity-bar item (container id `keel`, title "Keel");
 * falls back to the command palette when the item is not there (e.g. hidden by overflow).
 */
export async function openKeelView(page: Page, timeoutMs = 30_000): Promise<void> {
	const item = page.locator('.part.activitybar li.action-item:has(> a.action-label[aria-label^="Keel"])').first();
	try {
		// A current VS Code shows an extension's commands in the palette only once it is active, so
		// the activity bar item (there as soon as the extension is scanned) is the way in.
		await item.waitFor({ state: 'visible', timeout: timeoutMs });
		// Clicking an already-active item collapses the sidebar, so click only when inactive.
		if ((await item.getAttribute('aria-selected')) !== 'true') await item.click();
		await page.mouse.move(700, 450); // park the pointer so the item's tooltip stays out of screenshots
	} catch {
		await runCommand(page, 'Keel: Focus Chat');
	}
	const title = page.locator('.part.sidebar .composite.title', { hasText: /keel/i }).first();
	// After a reload VS Code may restore the Keel view just as we click its item, and that
	// click collapses the sidebar again; Focus Chat only ever opens it.
	const shown = await title.waitFor({ timeout: 5_000 }).then(
		() => true,
		() => false,
	);
	if (!shown) await runCommand(page, 'Keel: Focus Chat');
	await title.waitFor({ timeout: timeoutMs });
}

/** Runs a command by its palette title, e.g. "Keel: Focus Chat". */
export async function runCommand(page: Page, title: string, timeoutMs = 15_000): Promise<void> {
	await page
		.locator('.monaco-workbench')
		.click({ position: { x: 700, y: 5 } })
		.catch(() => undefined);
	await page.keyboard.press('F1');
	const input = page.locator('.quick-input-widget input.input');
	await input.waitFor({ state: 'visible', timeout: timeoutMs });
	await input.fill(`>${title}`);
	const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
	await row.waitFor({ state: 'visible', timeout: timeoutMs });
	await row.click();
}

/**
 * Finds the frame that holds `selector`. A webview view lives two iframes deep
 * (workbench → iframe.webview → #active-frame) and the inner frame is replaced when the
 * view reloads, so search all frames on every poll instead of caching a frame chain.
 */
export async function webviewFrame(page: Page, selector: string, timeoutMs = 30_000): Promise<Frame> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		for (const frame of page.frames()) {
			if (frame === page.mainFrame()) continue;
			// A frame may detach between listing and querying; that is a miss, not an error.
			const found = await frame.$(selector).catch(() => null);
			if (found) return frame;
		}
		await page.waitForTimeout(200);
	}
	throw new Error(`no frame contains ${selector} after ${timeoutMs} ms (${page.frames().length} frames)`);
}

/** Saves a full-window PNG to test-results/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
	fs.mkdirSync(RESULTS_DIR, { recursive: true });
	const file = path.join(RESULTS_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
	await page.screenshot({ path: file });
	return file;
}
