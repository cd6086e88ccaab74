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
	hostBuildMs?: number;
	hostCodeCache?: string;
	loaded: Array<{ file: string; bytes: number }>;
	built: string[];
}

/** What `npm run bench -- activation` prints: each step's time and what it loaded. */
export interface ActivationFigures {
	steps: Array<{ step: string; ms: number; loaded: Array<{ file: string; bytes: number }>; built: string[] }>;
	hostBuildMs?: number;
}

const names = (d: Diagnostics) => d.loaded.map(f => f.file);

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

	it('activates with the shim alone, loads the host on first use, and builds the heavy features only when used', async function () {
		requirePart(
			this,
			'Keel VSIX',
			config.installed.includes('keel.keel')
				? undefined
				: 'dist/keel.vsix was not installed (build it with npm run package)',
		);
		const ext = vscode.extensions.getExtension('keel.keel')!;
		const api = (await ext.activate()) as {
			diagnostics(): Diagnostics;
			modes(): unknown;
			view(): unknown;
		};
		const atActivation = api.diagnostics();
		assert.ok(Number.isFinite(atActivation.activationMs), 'activation is measured');
		assert.strictEqual(atActivation.hostLoadMs, undefined, 'the host bundle was loaded during activation');
		assert.deepStrictEqual(names(atActivation), ['extension.js'], 'activation loads the shim alone');

		// A first use that needs no conversation (a palette command, the API): the host, and nothing heavy.
		let started = performance.now();
		api.modes();
		const firstUseMs = performance.now() - started;
		const afterUse = api.diagnostics();
		assert.ok(afterUse.hostLoadMs !== undefined, 'the host bundle is loaded on first use');
		// A fresh profile: V8 compiles the bundle, and keeps the code for the next start (e2e/hostCodeCache).
		assert.strictEqual(afterUse.hostCodeCache, 'absent');
		assert.deepStrictEqual(names(afterUse), ['extension.js', 'host.js'], 'no vendor package is loaded yet');
		assert.deepStrictEqual(afterUse.built, [], 'no lazy feature is built yet');

		// The first conversation: the session store (SQLite) and the tool registry; still no MCP client,
		// bash parser, sandbox engine or VS Code tools.
		started = performance.now();
		api.view();
		const conversationMs = performance.now() - started;
		const afterView = api.diagnostics();
		assert.ok(names(afterView).includes('vendor/sqlite.js'), 'the conversation is read from the session store');
		for (const lazy of [
			'vendor/mcp-sdk.js',
			'vendor/web-tree-sitter.js',
			'vendor/dockerode.js',
			'vendor/openai-sdk.js',
		]) {
			assert.ok(!names(afterView).includes(lazy), `${lazy} is loaded before anything used it`);
		}
		assert.ok(afterView.built.includes('tools'), afterView.built.join(', '));
		assert.ok(!afterView.built.includes('vscode tools'), 'VS Code tools are bridged on the first turn, not before');

		const figures: ActivationFigures = {
			steps: [
				{ step: 'activate()', ms: atActivation.activationMs, loaded: atActivation.loaded, built: [] },
				{ step: 'first use (host, no chat)', ms: firstUseMs, loaded: afterUse.loaded, built: afterUse.built },
				{ step: 'first conversation', ms: conversationMs, loaded: afterView.loaded, built: afterView.built },
			],
			hostBuildMs: afterUse.hostBuildMs,
		};
		fs.mkdirSync(path.join(config.repoRoot, 'test-results'), { recursive: true });
		fs.writeFileSync(
			path.join(config.repoRoot, 'test-results', 'activation-figures.json'),
			JSON.stringify(figures),
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
