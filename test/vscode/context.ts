// What a suite running inside the extension host may know about its run. The driver
// (run.ts / runElectron.ts) writes it as JSON and points KEEL_VSCODE_TEST_CONFIG at it;
// the extension host inherits that variable from code-server (verified on 1.100.3 and 1.139.1).
import * as fs from 'fs';

export interface VscodeTestConfig {
	/** Absolute path of out/test/vscode/index.js, loaded by the runner extension. */
	index: string;
	/** Compiled suite files to run. */
	files: string[];
	/** Where the runner writes its SuiteResult JSON. */
	resultFile: string;
	timeout?: number;
	grep?: string;
	repoRoot: string;
	/** The workspace folder the window was opened on (a temp copy of test/fixtures/workspace). */
	workspace: string;
	/** The code-server version the run started (4.X.Y ships VS Code 1.X.Y). */
	codeServerVersion?: string;
	/** code-server's --user-data-dir (User/settings.json, User/mcp.json live there). */
	userDataDir?: string;
	/** COPILOT_HOME of the extension host: its mcp-config.json is the Copilot user MCP file (VS Code 1.140). */
	copilotHome?: string;
	/** Extension ids installed from VSIX for this run, e.g. ["keel-test.keel-test-runner", "keel.keel"]. */
	installed: string[];
}

export function testConfig(): VscodeTestConfig {
	const file = process.env.KEEL_VSCODE_TEST_CONFIG;
	if (!file) throw new Error('KEEL_VSCODE_TEST_CONFIG is not set: run the suites through out/test/vscode/run.js');
	return JSON.parse(fs.readFileSync(file, 'utf8')) as VscodeTestConfig;
}
