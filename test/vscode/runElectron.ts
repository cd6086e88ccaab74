// The same extension-host suites on desktop VS Code, for machines that can download it:
//   node out/test/vscode/runElectron.js
// Keel is loaded from the repo as the development extension (build dist/ first). Where VS
// Code cannot be downloaded (this project's CI) it prints "skipped" and exits 0; the
// code-server driver (run.ts) is the tier that runs here.
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { REPO_ROOT, copyFixtureWorkspace } from '../support/codeServer';
import type { VscodeTestConfig } from './context';
import { type SuiteResult, suiteFiles } from './index';
import { report, reportError } from './report';

async function main(): Promise<number> {
	let vscodeExecutablePath: string;
	try {
		vscodeExecutablePath = await downloadAndUnzipVSCode({
			version: '1.100.3',
			cachePath: path.join(REPO_ROOT, '.vscode-test'),
			timeout: 15_000,
		});
	} catch (err) {
		console.log(`skipped: cannot download VS Code (${err instanceof Error ? err.message : err})`);
		return 0;
	}
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-electron-'));
	const configFile = path.join(tmp, 'config.json');
	const resultFile = path.join(tmp, 'result.json');
	const workspace = copyFixtureWorkspace(tmp);
	const keelBuilt = fs.existsSync(path.join(REPO_ROOT, 'dist/extension.js'));
	// The multi-root suites need a .code-workspace window (run.js --multi-root); this run opens one folder.
	const config: VscodeTestConfig = {
		index: path.join(__dirname, 'index.js'),
		files: suiteFiles().filter(f => !f.includes(`${path.sep}multiRoot${path.sep}`)),
		resultFile,
		timeout: 20_000,
		repoRoot: REPO_ROOT,
		workspace,
		installed: keelBuilt ? ['keel.keel'] : [],
	};
	fs.writeFileSync(configFile, JSON.stringify(config, null, 2));
	try {
		await runTests({
			vscodeExecutablePath,
			extensionDevelopmentPath: REPO_ROOT,
			extensionTestsPath: path.join(__dirname, 'index.js'),
			extensionTestsEnv: { KEEL_VSCODE_TEST_CONFIG: configFile, KEEL_VSCODE_TEST_ENV_PROBE: 'inherited' },
			launchArgs: [
				workspace,
				'--disable-extensions',
				'--disable-workspace-trust',
				'--user-data-dir',
				path.join(tmp, 'user-data'),
			],
		});
	} catch (err) {
		// A failing suite also rejects here; the result file tells the two apart.
		if (!fs.existsSync(resultFile)) throw err;
	}
	const code = report(JSON.parse(fs.readFileSync(resultFile, 'utf8')) as SuiteResult);
	fs.rmSync(tmp, { recursive: true, force: true });
	return code;
}

main().then(
	code => process.exit(code),
	err => process.exit(reportError(err)),
);
