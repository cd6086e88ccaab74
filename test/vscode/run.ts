// Driver for the extension-host tier on code-server (no desktop VS Code download needed):
//   node out/test/vscode/run.js [--grep PATTERN]
// Packages runner-extension, installs it (and dist/keel.vsix when built) into a fresh
// code-server, opens Chromium on the fixture workspace (the extension host only starts when
// a browser connects), waits for the runner's result file, prints it, and writes
// test-results/vscode.json. Exit code 1 when a test failed or the run did not finish.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser } from 'playwright-core';
import { launchBrowser, openWorkbench, screenshot } from '../support/browser';
import {
	CODE_SERVER_VERSION,
	type CodeServer,
	REPO_ROOT,
	ensureTools,
	keelVsixPath,
	startCodeServer,
} from '../support/codeServer';
import type { VscodeTestConfig } from './context';
import { suiteFiles, type SuiteResult } from './index';
import { report, reportError } from './report';

// --multi-root: the window opens a .code-workspace with two folders and runs suite/multiRoot only.
const multiRoot = process.argv.includes('--multi-root');
const RESULT_NAME = multiRoot ? 'vscode-multiroot' : process.env.KEEL_TIER || 'vscode';
const TIMEOUT_MS = Number(process.env.KEEL_VSCODE_TEST_TIMEOUT ?? 180_000);
const RUNNER_DIR = path.join(REPO_ROOT, 'test/vscode/runner-extension');

function packageRunner(): string {
	const out = path.join(REPO_ROOT, '.vscode-test/vsix/keel-test-runner.vsix');
	fs.mkdirSync(path.dirname(out), { recursive: true });
	execFileSync(
		path.join(REPO_ROOT, 'node_modules/.bin/vsce'),
		['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', out],
		{ cwd: RUNNER_DIR, stdio: ['ignore', 'ignore', 'inherit'] },
	);
	return out;
}

async function waitForFile(file: string, timeoutMs: number, alive: () => boolean): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline && alive()) {
		if (fs.existsSync(file)) return true;
		await new Promise(r => setTimeout(r, 250));
	}
	return fs.existsSync(file);
}

/**
 * Two folders that share the basename "app" (one/app, a copy of the fixture, and two/app),
 * opened through a .code-workspace file: the tools name them "app" and "app-2".
 */
function multiRootWorkspace(parent: string): string {
	const first = path.join(parent, 'one', 'app');
	const second = path.join(parent, 'two', 'app');
	fs.cpSync(path.join(REPO_ROOT, 'test/fixtures/workspace'), first, { recursive: true });
	fs.mkdirSync(path.join(second, 'docs'), { recursive: true });
	fs.writeFileSync(path.join(second, 'docs', 'second.md'), '# Second folder\nMARKER_SECOND_FOLDER\n');
	const file = path.join(parent, 'keel-test.code-workspace');
	fs.writeFileSync(
		file,
		JSON.stringify({ folders: [{ path: 'one/app' }, { path: 'two/app' }], settings: {} }, null, 2),
	);
	return file;
}

async function main(): Promise<number> {
	const grepAt = process.argv.indexOf('--grep');
	const grep = grepAt > 0 ? process.argv[grepAt + 1] : undefined;
	ensureTools();
	const files = suiteFiles().filter(f => f.includes(`${path.sep}multiRoot${path.sep}`) === multiRoot);
	if (files.length === 0) throw new Error('no compiled suites in out/test/vscode/suite: run `tsc -p .` first');
	const keel = keelVsixPath();
	console.log(keel ? `Keel VSIX: ${keel}` : 'dist/keel.vsix not built: running without Keel');
	const vsix = [packageRunner(), ...(keel ? [keel] : [])];

	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-vscode-'));
	const configFile = path.join(tmp, 'config.json');
	const resultFile = path.join(tmp, 'result.json');
	// Present from the start, as on a machine where Copilot CLI or VS Code 1.140 made it: a watcher needs the folder.
	const copilotHome = path.join(tmp, 'copilot');
	fs.mkdirSync(copilotHome);
	let server: CodeServer | undefined;
	let browser: Browser | undefined;
	const t0 = Date.now();
	try {
		server = await startCodeServer({
			vsix,
			// COPILOT_HOME: the Copilot user folder Keel reads MCP servers from, a temporary one (never the machine's ~/.copilot).
			env: {
				KEEL_VSCODE_TEST_CONFIG: configFile,
				KEEL_VSCODE_TEST_ENV_PROBE: 'inherited',
				COPILOT_HOME: copilotHome,
			},
			...(multiRoot ? { workspace: multiRootWorkspace(tmp) } : {}),
			settings: { 'keelTestRunner.configFile': configFile },
		});
		const config: VscodeTestConfig = {
			index: path.join(__dirname, 'index.js'),
			files,
			resultFile,
			grep,
			timeout: 20_000,
			repoRoot: REPO_ROOT,
			workspace: server.workspace,
			userDataDir: server.userDataDir,
			copilotHome,
			codeServerVersion: process.env.KEEL_CODE_SERVER_ENTRY ? undefined : CODE_SERVER_VERSION,
			installed: ['keel-test.keel-test-runner', ...(keel ? ['keel.keel'] : [])],
		};
		fs.writeFileSync(configFile, JSON.stringify(config, null, 2));
		console.log(`code-server ${CODE_SERVER_VERSION} answered in ${Date.now() - t0} ms (install + start)`);
		browser = await launchBrowser();
		const page = await openWorkbench(browser, server.url);
		const workbenchAt = Date.now();
		console.log(`workbench rendered at ${workbenchAt - t0} ms`);
		const alive = () => browser?.isConnected() ?? false;
		if (!(await waitForFile(resultFile, TIMEOUT_MS, alive))) {
			await screenshot(page, 'vscode-timeout').catch(() => undefined);
			const tail = fs.readFileSync(server.logFile, 'utf8').split('\n').slice(-30).join('\n');
			throw new Error(
				`no result after ${TIMEOUT_MS} ms (screenshot: test-results/vscode-timeout.png; KEEL_KEEP_TMP=1 keeps ${path.dirname(server.logFile)})\n--- code-server log ---\n${tail}`,
			);
		}
		const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as SuiteResult & {
			activatedAt: number;
			finishedAt: number;
		};
		console.log(
			`extension host ran the runner at ${result.activatedAt - t0} ms; suites took ${result.finishedAt - result.activatedAt} ms\n`,
		);
		return report(result, RESULT_NAME);
	} finally {
		await browser?.close().catch(() => undefined);
		await server?.dispose();
		fs.rmSync(tmp, { recursive: true, force: true });
	}
}

main().then(
	code => process.exit(code),
	err => process.exit(reportError(err, RESULT_NAME)),
);
