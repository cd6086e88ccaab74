// Keel's settings as a user finds them in real VS Code: the Settings editor filtered to Keel lists the
// categories in their order, each category's settings in the order declared (not alphabetical),
// tuning knobs only when asked for with @tag:advanced, a description for every value of a
// dropdown, and links from one setting's description to another.
import * as assert from 'assert';
import type { Locator, Page } from 'playwright-core';
import { runCommand } from '../support/browser';
import { CATEGORIES } from '../../src/host/settings/settingsSchema';
import { useKeel } from './harness';

const TOC_ROW = '.settings-toc-container .monaco-list-row';
const SETTING_ROW = '.settings-tree-container .setting-item-contents';

/** The Settings editor's table of contents: each entry's title, without its count. */
async function tableOfContents(page: Page): Promise<string[]> {
	const rows = await page.locator(TOC_ROW).allInnerTexts();
	return rows.map(row => row.split('\n')[0].trim());
}

/** Searches the Settings editor and opens the table of contents down to Keel's categories, as a user would. */
async function search(page: Page, query: string): Promise<void> {
	await page.locator('.settings-editor .settings-header .suggest-input-container').click();
	await page.keyboard.press('ControlOrMeta+a');
	await page.keyboard.type(query);
	await page.locator('.settings-editor .settings-count-widget', { hasText: /\d+ Settings? Found/ }).waitFor();
	for (const folder of ['Extensions', 'Keel']) {
		const row = page.locator(TOC_ROW, { hasText: folder }).first();
		await row.waitFor();
		if ((await row.getAttribute('aria-expanded')) === 'false') await row.click();
	}
}

/**
 * The `keel.*` ids of the setting rows the editor has rendered, top to bottom. The tree is a
 * virtual list that reuses row elements, so their order in the DOM is not their order on screen:
 * each row's index in the list is.
 */
async function shownKeys(page: Page): Promise<string[]> {
	const rows = await page.locator(SETTING_ROW).evaluateAll(items =>
		items.map(item => ({
			key: item.getAttribute('data-key'),
			index: Number(item.closest('.monaco-list-row')?.getAttribute('data-index') ?? -1),
		})),
	);
	return rows
		.filter((row): row is { key: string; index: number } => !!row.key)
		.sort((a, b) => a.index - b.index)
		.map(row => row.key);
}

/** Waits until an element has stood in the same place for two reads in a row (the tree has stopped scrolling). */
async function standsStill(locator: Locator): Promise<void> {
	let last = '';
	for (let read = 0; read < 20; read++) {
		const box = JSON.stringify(await locator.boundingBox({ timeout: 5_000 }).catch(() => null));
		if (box !== 'null' && box === last) return;
		last = box;
		await locator.page().waitForTimeout(150);
	}
}

const plain = (markdown: string) => markdown.replace(/`#([^#`]+)#`/g, '$1').replace(/[`*]/g, '');

describe('Keel settings in the Settings editor (e2e)', function () {
	this.timeout(180_000);
	const keel = useKeel();
	const everyday = CATEGORIES.filter(category => !category.advanced);

	before(async () => {
		await runCommand(keel.page, 'Preferences: Open Settings (UI)');
		await keel.page.locator('.settings-editor').waitFor();
	});

	it('lists Keel under its categories in order, with no tuning knob among them', async () => {
		const page = keel.page;
		await search(page, '@ext:keel.keel');
		await page.locator(TOC_ROW, { hasText: 'Model' }).first().waitFor();
		const toc = await tableOfContents(page);
		await keel.screenshot('settings-editor-keel');
		assert.deepStrictEqual(
			toc.slice(toc.indexOf('Keel') + 1),
			['Model', 'Approvals and permissions', 'Shell and sandbox', 'Recovery', 'Context and tools', 'MCP', 'Chat'],
			`table of contents: ${JSON.stringify(toc)}`,
		);
	});

	it("shows each category's settings in the order they are declared", async () => {
		const page = keel.page;
		for (const category of everyday) {
			await page.locator(TOC_ROW, { hasText: category.title }).first().click();
			const declared = Object.keys(category.settings).map(key => `keel.${key}`);
			await page.locator(`${SETTING_ROW}[data-key="${declared[0]}"]`).waitFor();
			const shown = (await shownKeys(page)).filter(key => declared.includes(key));
			const positions = shown.map(key => declared.indexOf(key));
			assert.ok(
				shown.length >= Math.min(3, declared.length),
				`${category.title}: only ${shown.join(', ')} shown`,
			);
			assert.deepStrictEqual(
				positions,
				[...positions].sort((a, b) => a - b),
				`${category.title} shows ${shown.join(', ')}; declared: ${declared.join(', ')}`,
			);
		}
	});

	it('says what every value of a dropdown does', async () => {
		const page = keel.page;
		await page.locator(TOC_ROW, { hasText: 'Model' }).first().click();
		const spec = CATEGORIES[0].settings['model.provider'];
		const select = page.locator(`${SETTING_ROW}[data-key="keel.model.provider"] select`);
		const dropdown = page.locator('.monaco-select-box-dropdown-container').filter({ visible: true });
		const details = dropdown.locator('.select-box-details-pane');
		// The list closes when the tree moves under it (it is still scrolling to the category, or
		// lays out again on a loaded machine): whenever it is closed, wait for the row to stand still
		// and open it again, by click or from the keyboard as a user could.
		const open = async () => {
			for (let attempt = 0; attempt < 6 && !(await dropdown.isVisible()); attempt++) {
				await standsStill(select);
				if (attempt % 2 === 0) await select.click();
				else await select.press('Enter');
				await dropdown.waitFor({ timeout: 3_000 }).catch(() => undefined);
			}
		};
		// Each value is reached from where the list's focus actually is, not by counting key presses:
		// a key the list took while it was still drawing, or lost when it closed, is pressed again.
		for (const [index, doc] of spec.valueDocs.entries()) {
			const shown = details.filter({ hasText: plain(doc).split(' ').slice(0, 4).join(' ') });
			for (let step = 0; step < 16 && !(await shown.isVisible()); step++) {
				await open();
				const focused = await dropdown
					.locator('.monaco-list-row.focused')
					.first()
					.getAttribute('data-index', { timeout: 1_000 })
					.catch(() => null);
				if (focused !== null && Number(focused) !== index)
					await page.keyboard.press(Number(focused) > index ? 'ArrowUp' : 'ArrowDown');
				await shown.waitFor({ timeout: 1_000 }).catch(() => undefined);
			}
			await shown.waitFor({ timeout: 5_000 });
		}
		await keel.screenshot('settings-editor-provider-values');
		await page.keyboard.press('Escape');
	});

	it('links a description to the setting it names', async () => {
		const page = keel.page;
		const link = page
			.locator(`${SETTING_ROW}[data-key="keel.agent.compactAt"]`)
			.locator('.setting-item-description a', { hasText: 'Model: Context Window' });
		const target = page.locator(
			'.settings-tree-container .monaco-list-row.focused [data-key="keel.model.contextWindow"]',
		);
		// A click that lands while the tree is still scrolling to the category reaches whatever row
		// passes under the pointer: go to the category and follow the link again, as a user would.
		for (let attempt = 0; attempt < 3 && !(await target.isVisible()); attempt++) {
			await page.locator(TOC_ROW, { hasText: 'Context and tools' }).first().click();
			await standsStill(link);
			await link.click();
			await target.waitFor({ timeout: 8_000 }).catch(() => undefined);
		}
		await target.waitFor({ timeout: 5_000 });
	});

	it('shows the tuning knobs, and only those, when asked for with @tag:advanced', async () => {
		const page = keel.page;
		await search(page, '@ext:keel.keel @tag:advanced');
		await page.locator(TOC_ROW, { hasText: 'Advanced' }).first().waitFor();
		const toc = await tableOfContents(page);
		assert.deepStrictEqual(
			toc.slice(toc.indexOf('Keel') + 1),
			['Advanced'],
			`table of contents: ${JSON.stringify(toc)}`,
		);
		const advanced = CATEGORIES.filter(category => category.advanced).flatMap(category =>
			Object.keys(category.settings).map(key => `keel.${key}`),
		);
		const shown = await shownKeys(page);
		assert.ok(shown.length > 0 && shown.every(key => advanced.includes(key)), `shown: ${shown.join(', ')}`);
	});
});
