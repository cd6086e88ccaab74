// Runs the extension-host suites with mocha, inside whatever extension host loaded this
// file: code-server's (through runner-extension) or desktop VS Code's (through
// @vscode/test-electron's extensionTestsPath, which calls run()). mocha comes from the
// repo's node_modules because this file is compiled to out/test/vscode/ inside the repo.
import * as fs from 'fs';
import Mocha from 'mocha';
import * as path from 'path';

export interface TestOutcome {
	title: string;
	state: 'passed' | 'failed' | 'pending';
	durationMs?: number;
	error?: string;
}
export interface SuiteResult {
	passed: number;
	failed: number;
	pending: number;
	tests: TestOutcome[];
	failures: { title: string; error: string }[];
}

export function runSuites(files: string[], opts: { timeout?: number; grep?: string } = {}): Promise<SuiteResult> {
	// Mocha's own reporter output would only reach the extension host log; the driver
	// prints from the result instead, so keep the reporter silent.
	const mocha = new Mocha({ ui: 'bdd', timeout: opts.timeout ?? 20_000, color: false, reporter: QuietReporter });
	// A regular expression, so a smoke run can pick several suites ('A|B').
	if (opts.grep) mocha.grep(new RegExp(opts.grep));
	// Sync require (not import()): `require('vscode')` is resolved by the extension host's
	// module interceptor, which only hooks CommonJS loading.
	for (const f of files) mocha.addFile(f);
	const result: SuiteResult = { passed: 0, failed: 0, pending: 0, tests: [], failures: [] };
	return new Promise(resolve => {
		const runner = mocha.run(() => resolve(result));
		runner.on('pass', t => {
			result.passed++;
			result.tests.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration });
		});
		runner.on('pending', t => {
			result.pending++;
			result.tests.push({ title: t.fullTitle(), state: 'pending' });
		});
		// 'fail' also fires for hooks, which are not in 'pass': count every failure once.
		runner.on('fail', (t, err: Error) => {
			const error = String(err?.stack ?? err);
			result.failed++;
			result.tests.push({ title: t.fullTitle(), state: 'failed', durationMs: t.duration, error });
			result.failures.push({ title: t.fullTitle(), error });
		});
	});
}

/** The compiled suite files: out/test/vscode/suite/**\/*.test.js next to this file. */
export function suiteFiles(dir = path.join(__dirname, 'suite')): string[] {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter(f => f.endsWith('.test.js'))
		.map(f => path.join(dir, f))
		.sort();
}

/**
 * Entry point for @vscode/test-electron (extensionTestsPath). Writes the result file named
 * in the run's config, like the runner extension does, and rejects when anything failed.
 */
export async function run(): Promise<void> {
	const configFile = process.env.KEEL_VSCODE_TEST_CONFIG;
	const config = configFile ? JSON.parse(fs.readFileSync(configFile, 'utf8')) : {};
	const result = await runSuites(config.files ?? suiteFiles(), { timeout: config.timeout, grep: config.grep });
	if (config.resultFile) fs.writeFileSync(config.resultFile, JSON.stringify(result, null, 2));
	if (result.failed > 0) throw new Error(`${result.failed} extension-host test(s) failed`);
}

class QuietReporter extends Mocha.reporters.Base {}
