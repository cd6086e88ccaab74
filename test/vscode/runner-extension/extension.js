// Test-only extension. code-server has no --extensionTestsPath, so this extension stands in
// for VS Code's test loader: once the extension host has started it loads the compiled
// runner (out/test/vscode/index.js, which brings mocha from the repo's node_modules), runs
// the suite files listed in the run's config, and writes the result where the driver
// (out/test/vscode/run.js) waits for it. Plain JS so it needs no build step.
'use strict';
const fs = require('fs');
const vscode = require('vscode');

function configFile() {
	// The extension host inherits code-server's environment (verified); the setting is a
	// fallback for hosts that do not (e.g. a remote host started by someone else).
	return (
		process.env.KEEL_VSCODE_TEST_CONFIG ||
		vscode.workspace.getConfiguration('keelTestRunner').get('configFile') ||
		''
	);
}

function writeResult(file, result) {
	// Write then rename: the driver polls for the file and must never read half of it.
	fs.writeFileSync(file + '.tmp', JSON.stringify(result, null, 2));
	fs.renameSync(file + '.tmp', file);
}

async function runAll(file) {
	const activatedAt = Date.now();
	const config = JSON.parse(fs.readFileSync(file, 'utf8'));
	// Suites read their context (workspace, installed VSIXes) through this variable.
	process.env.KEEL_VSCODE_TEST_CONFIG = file;
	let result;
	try {
		const { runSuites } = require(config.index);
		result = await runSuites(config.files, { timeout: config.timeout, grep: config.grep });
	} catch (err) {
		result = {
			passed: 0,
			failed: 1,
			pending: 0,
			tests: [],
			failures: [{ title: 'test runner', error: String((err && err.stack) || err) }],
		};
	}
	writeResult(config.resultFile, { ...result, activatedAt, finishedAt: Date.now() });
}

exports.activate = function activate(context) {
	require('./lmFixtures').registerLmFixtures(context);
	const file = configFile();
	if (!file) return; // installed outside a test run: stay inert
	// Not awaited: activation must return promptly; the result file is the only output.
	runAll(file).catch(err => console.error('[keel-test-runner]', err));
};

exports.deactivate = function deactivate() {};
