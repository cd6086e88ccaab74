#!/usr/bin/env node
// Renders the Marketplace icon, media/icon.png (128×128), from media/icon-marketplace.svg with
// the system's Chromium, so the PNG is redrawn from its source rather than edited by hand.
// Usage: node scripts/icon.js
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const root = path.resolve(__dirname, '..');
const svg = fs.readFileSync(path.join(root, 'media/icon-marketplace.svg'), 'utf8');

(async () => {
	const browser = await chromium.launch({
		executablePath: process.env.KEEL_CHROMIUM ?? '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu'],
	});
	try {
		const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
		await page.setContent(`<body style="margin:0">${svg}</body>`);
		await page.locator('svg').screenshot({ path: path.join(root, 'media/icon.png'), omitBackground: true });
	} finally {
		await browser.close();
	}
})();
