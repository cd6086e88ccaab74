/**
 * Bundle sizes against the budget: host under 1 MB minified, activation shim tiny, the chat's
 * webview, and the Check Model report's own bundle (its chart library loads with it, never with the chat).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import { printTable } from './table';

export const title = 'Bundle sizes (production build)';

const BUDGETS: Record<string, number> = {
	'extension.js': 50 * 1024,
	'host.js': 1024 * 1024,
	'webview.js': 1024 * 1024,
	'checkModel.js': 512 * 1024,
};

export async function run(): Promise<void> {
	const dist = path.join(__dirname, '..', '..', 'dist');
	const rows = Object.entries(BUDGETS).map(([file, budget]) => {
		const bytes = fs.readFileSync(path.join(dist, file));
		const gzip = zlib.gzipSync(bytes).length;
		return [file, kb(bytes.length), kb(gzip), kb(budget), `${((bytes.length / budget) * 100).toFixed(0)}%`];
	});
	const highlighter = path.join(dist, 'highlight.js');
	if (fs.existsSync(highlighter)) {
		const bytes = fs.readFileSync(highlighter);
		rows.push([
			'highlight.js (webview, lazy)',
			kb(bytes.length),
			kb(zlib.gzipSync(bytes).length),
			'-',
			'loaded on the first code block',
		]);
	}
	const vendorDir = path.join(dist, 'vendor');
	for (const file of fs.existsSync(vendorDir)
		? fs
				.readdirSync(vendorDir)
				.filter(file => file.endsWith('.js'))
				.sort()
		: []) {
		const bytes = fs.readFileSync(path.join(vendorDir, file));
		rows.push([
			`vendor/${file} (lazy)`,
			kb(bytes.length),
			kb(zlib.gzipSync(bytes).length),
			'-',
			'loaded on first use',
		]);
	}
	printTable(['bundle', 'minified KB', 'gzip KB', 'budget KB', 'of budget'], rows);
	const vsix = path.join(dist, 'keel.vsix');
	if (fs.existsSync(vsix)) {
		console.log(`\nVSIX: ${kb(fs.statSync(vsix).size)} KB`);
	}
}

function kb(bytes: number): string {
	return (bytes / 1024).toFixed(1);
}
