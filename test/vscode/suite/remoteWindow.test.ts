// Where Keel runs in a remote window, inside a real extension host. code-server is one: the
// browser is the user's side and the extension host runs on the server, and VS Code names that
// remote in env.remoteName (the server's authority), as it names ssh-remote, wsl or
// dev-container on the desktop. Nothing here fakes it: the assertions follow what VS Code says.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { useKeelSuite } from '../keelSuite';

describe('Keel in a remote window (extension host)', function () {
	this.timeout(30_000);
	const keel = useKeelSuite();

	it('runs in the workspace extension host, beside the files its tools read and run in', () => {
		const extension = vscode.extensions.getExtension('keel.keel')!;
		assert.strictEqual(extension.extensionKind, vscode.ExtensionKind.Workspace);
		// Not declared: with `extensionKind` written out, code-server's Workspace Trust editor could not
		// be clicked (npm start -- PATH, e2e); a Node `main` without `browser` is a workspace extension.
		assert.strictEqual(extension.packageJSON.extensionKind, undefined);
		assert.strictEqual(extension.packageJSON.browser, undefined);
	});

	// The one turn of this tier against a dead endpoint (retries make it slow): the general advice and the remote one.
	it('explains what to do when no model server answers, and that a loopback address is the remote machine', async () => {
		const remote = vscode.env.remoteName;
		// A web workbench with a Node extension host (code-server) is a remote window by construction.
		if (vscode.env.uiKind === vscode.UIKind.Web) {
			assert.ok(remote, 'a web window names the remote its extension host runs in');
		}
		await keel.set('model.baseUrl', 'http://127.0.0.1:9/v1');
		try {
			const outcome = await keel.api.runTurn('hello?');
			assert.strictEqual(outcome.reason, 'failed');
			const message = keel.api.view().error!.message;
			assert.match(message, /No model server answered at http:\/\/127\.0\.0\.1:9\/v1/);
			if (remote) {
				assert.match(message, /Keel runs in .+, so 127\.0\.0\.1 is that remote machine, not your own/);
				assert.match(message, /set keel\.model\.baseUrl to an address the remote machine can reach/);
			} else {
				assert.doesNotMatch(message, /remote machine/);
			}
		} finally {
			await keel.set('model.baseUrl', keel.double.openaiBaseUrl);
		}
	});
});
