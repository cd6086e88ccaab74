/**
 * The page the webview bench loads: the real production bundle (dist/webview.js) and the real
 * stylesheet, with a stand-in for VS Code's `acquireVsCodeApi` that records what the webview
 * posts and stores. Sized like a sidebar.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export function writeBenchPage(repoRoot: string): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-webview-bench-'));
	const dist = path.join(repoRoot, 'dist');
	const media = path.join(repoRoot, 'media');
	const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<link href="file://${media}/main.css" rel="stylesheet">
<script>
window.__bench = { posted: [], setStateBytes: 0, setStateCalls: 0 };
window.acquireVsCodeApi = () => ({
	postMessage: m => window.__bench.posted.push(m),
	getState: () => undefined,
	setState: s => { window.__bench.setStateCalls++; window.__bench.setStateBytes += JSON.stringify(s).length; },
});
</script></head>
<body><div id="root"></div><script src="file://${dist}/webview.js"></script></body></html>`;
	const file = path.join(dir, 'index.html');
	fs.writeFileSync(file, html);
	return file;
}
