// Proves the extension-host tier runs inside a real VS Code with the real `vscode` API,
// on the workspace the driver opened, and that Keel (when its VSIX was built) activates.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { testConfig } from '../context';
import { requirePart } from '../../support/tierGate';

describe('extension-host harness', () => {
	const config = testConfig();

	it('runs inside the VS Code the run asked for (code-server 4.X.Y is VS Code 1.X.Y) with the fixture workspace open', () => {
		const expected = config.codeServerVersion?.replace(/^4\./, '1.');
		if (expected) assert.strictEqual(vscode.version, expected);
		else assert.match(vscode.version, /^1\.\d+\./);
		const folders = vscode.workspace.workspaceFolders ?? [];
		assert.strictEqual(folders.length, 1);
		assert.strictEqual(folders[0].uri.fsPath, config.workspace);
	});

	it('reads README.md through vscode.workspace.fs', async () => {
		const root = vscode.workspace.workspaceFolders![0].uri;
		const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, 'README.md'));
		assert.match(Buffer.from(bytes).toString('utf8'), /^# Fixture workspace/);
	});

	it('finds the fixture sources with vscode.workspace.findFiles', async () => {
		const found = await vscode.workspace.findFiles('src/**/*.ts');
		assert.deepStrictEqual(
			found.map(u => vscode.workspace.asRelativePath(u)),
			['src/app.ts'],
		);
	});

	it('sees the user settings.json the driver wrote before launch', () => {
		// startCodeServer writes User/settings.json; Keel's tests set keel.* the same way.
		assert.strictEqual(vscode.workspace.getConfiguration('workbench').get('startupEditor'), 'none');
	});

	it('inherits the environment code-server was started with', () => {
		// The driver sets this only in code-server's environment (runElectron in VS Code's);
		// seeing it here proves env vars reach the extension host, so tests may rely on them.
		assert.strictEqual(process.env.KEEL_VSCODE_TEST_ENV_PROBE, 'inherited');
	});

	it('installed keel.keel from dist/keel.vsix and it activates with an API object', async function () {
		requirePart(
			this,
			'Keel VSIX',
			config.installed.includes('keel.keel')
				? undefined
				: 'dist/keel.vsix was not installed (build it with npm run package)',
		);
		const ext = vscode.extensions.getExtension('keel.keel');
		assert.ok(ext, 'keel.keel is not installed');
		const api = await ext.activate();
		assert.ok(ext.isActive);
		assert.strictEqual(typeof api, 'object');
	});
});
