// Runs first (files are sorted): Keel must activate cheaply and leave the engine unloaded
// until something needs it. Also records the figures `npm run bench` prints.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { testConfig } from '../context';
import { requirePart } from '../../support/tierGate';

interface Diagnostics {
	activationMs: number;
	hostLoadMs?: number;
}

describe('Keel activation', () => {
	const config = testConfig();

	it('is not active before its view or a command is used', function () {
		requirePart(
			this,
			'Keel VSIX',
			config.installed.includes('keel.keel')
				? undefined
				: 'dist/keel.vsix was not installed (build it with npm run package)',
		);
		const ext = vscode.extensions.getExtension('keel.keel')!;
		assert.strictEqual(ext.isActive, false, 'Keel must not activate on startup (no "*" activation)');
		const events = (ext.packageJSON.activationEvents ?? []) as string[];
		assert.ok(!events.includes('*') && !events.includes('onStartupFinished'));
	});

	it('activates without loading the engine, then loads it on first use', async function () {
		requirePart(
			this,
			'Keel VSIX',
			config.installed.includes('keel.keel')
				? undefined
				: 'dist/keel.vsix was not installed (build it with npm run package)',
		);
		const ext = vscode.extensions.getExtension('keel.keel')!;
		const api = (await ext.activate()) as { diagnostics(): Diagnostics; view(): unknown };
		const atActivation = api.diagnostics();
		assert.ok(Number.isFinite(atActivation.activationMs), 'activation is measured');
		assert.strictEqual(atActivation.hostLoadMs, undefined, 'the host bundle was loaded during activation');
		api.view(); // first use
		const afterUse = api.diagnostics();
		assert.ok(afterUse.hostLoadMs !== undefined, 'the host bundle is loaded on first use');
		fs.mkdirSync(path.join(config.repoRoot, 'test-results'), { recursive: true });
		fs.writeFileSync(
			path.join(config.repoRoot, 'test-results', 'activation-figures.json'),
			JSON.stringify(afterUse),
		);
	});

	it('registers every Keel command', async () => {
		const commands = await vscode.commands.getCommands(true);
		for (const id of ['keel.newChat', 'keel.stop', 'keel.focusChat', 'keel.askAboutSelection', 'keel.setApiKey']) {
			assert.ok(commands.includes(id), `${id} missing`);
		}
	});

	it('defaults to Ollama on localhost with glm-4.7-flash', () => {
		const keel = vscode.workspace.getConfiguration('keel');
		assert.strictEqual(keel.inspect('model.baseUrl')?.defaultValue, 'http://127.0.0.1:11434/v1');
		assert.strictEqual(keel.inspect('model.name')?.defaultValue, 'glm-4.7-flash');
		assert.strictEqual(keel.inspect('approval.autoApproveReads')?.defaultValue, true);
		assert.strictEqual(keel.inspect('approval.autoApproveWrites')?.defaultValue, false);
		assert.strictEqual(keel.inspect('agent.maxSteps')?.defaultValue, 25);
	});
});
