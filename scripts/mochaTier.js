#!/usr/bin/env node
// Runs one plain-Node test tier with mocha and records its counts in test-results/<tier>.json,
// so scripts/test.sh can print one summary line for every tier.
// Usage: node scripts/mochaTier.js <tier> <glob> [timeoutMs]
const fs = require('fs');
const path = require('path');
const Mocha = require('mocha');
const { globSync } = require('glob');

const [tier, pattern, timeout = '10000'] = process.argv.slice(2);
const root = path.resolve(__dirname, '..');
const files = globSync(pattern, { cwd: root, absolute: true }).sort();
const resultFile = path.join(root, 'test-results', `${tier}.json`);
fs.mkdirSync(path.dirname(resultFile), { recursive: true });
const skippedTitles = [];
const failedTitles = [];
const write = (passed, failed, skipped = 0) =>
	fs.writeFileSync(resultFile, JSON.stringify({ tier, passed, failed, skipped, skippedTitles, failedTitles }) + '\n');

if (files.length === 0) {
	console.error(`[${tier}] no test files match ${pattern}`);
	write(0, 1);
	process.exit(1);
}
write(0, 1); // Until the run ends a crash counts as a failure, never as a pass.
const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: Number(timeout) });
files.forEach(file => mocha.addFile(file));
// Each file's wall time (its top-level suites), so the slowest files of a tier are named at its
// end: where the suite's half hour goes is read off every run, not guessed.
const fileMs = new Map();
const runner = mocha.run(failures => {
	write(runner.stats.passes, runner.stats.failures, runner.stats.pending);
	const slowest = [...fileMs].sort((a, b) => b[1] - a[1]).slice(0, 8);
	console.log(
		`[${tier}] slowest files: ${slowest.map(([f, ms]) => `${path.relative(root, f)} ${Math.round(ms / 1000)} s`).join(', ')}`,
	);
	process.exitCode = failures > 0 ? 1 : 0;
	// Tiers may leave servers or sockets behind on failure; never hang CI on them.
	setTimeout(() => process.exit(process.exitCode), 2000).unref();
});
const suiteStarted = new Map();
runner.on('suite', suite => {
	if (suite.file && suite.parent?.root) suiteStarted.set(suite, Date.now());
});
runner.on('suite end', suite => {
	const t0 = suiteStarted.get(suite);
	if (t0 !== undefined) fileMs.set(suite.file, (fileMs.get(suite.file) ?? 0) + Date.now() - t0);
});
// A skipped test is named in the summary, so nothing is skipped silently.
runner.on('pending', test => skippedTitles.push(test.fullTitle()));
// A failed one too, with the first line of its error: CI keeps only the end of the output.
runner.on('fail', (test, error) =>
	failedTitles.push(
		`${test.fullTitle()}: ${String(error?.message ?? error)
			.split('\n')[0]
			.slice(0, 300)}`,
	),
);
