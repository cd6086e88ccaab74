import { randomBytes } from 'crypto';
import * as vscode from 'vscode';

/** One Keel webview: its bundle in dist/, its stylesheet in media/, the tab or view title. */
export interface WebviewShell {
	script: string;
	style: string;
	title: string;
	/** Images from the extension and data: URLs (the chat shows pasted images); off for views that show none. */
	images?: boolean;
}

/** The chat view's webview. */
export const CHAT_WEBVIEW: WebviewShell = { script: 'webview.js', style: 'main.css', title: 'Keel', images: true };

/**
 * The HTML every Keel webview starts from: a strict CSP (nothing remote, scripts only with this
 * load's nonce), and resources only from the extension's own dist/ and media/.
 */
export function renderWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, shell: WebviewShell): string {
	const nonce = randomBytes(16).toString('base64');
	const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', shell.script));
	const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', shell.style));
	const csp = [
		"default-src 'none'",
		`style-src ${webview.cspSource}`,
		`font-src ${webview.cspSource}`,
		...(shell.images ? [`img-src ${webview.cspSource} data:`] : []),
		`script-src 'nonce-${nonce}'`,
	].join('; ');
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${style}" rel="stylesheet">
<title>${shell.title}</title>
</head>
<body>
<div id="root"></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}

/** Scripts on, command links off, and nothing loaded from outside the extension's dist/ and media/. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
	return {
		enableScripts: true,
		enableCommandUris: false,
		localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
	};
}
