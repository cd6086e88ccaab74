#!/usr/bin/env node
// The lint tier: ESLint (recommended rules, floating promises, layer rules) and the formatter's
// check, one test each in test-results/lint.json, so the summary line counts them and names the
// one that failed. Both always run, and a failure never stops the tiers after this one.
// Usage: node scripts/lintTier.js
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const resultFile = path.join(root, 'test-results', 'lint.json');
fs.mkdirSync(path.dirname(resultFile), { recursive: true });

const checks = [
	{ title: 'eslint: no lint errors (npm run lint)', tool: 'eslint', args: ['.'] },
	{ title: 'format: the tree is formatted (npm run format:check)', tool: 'prettier', args: ['--check', '.'] },
];

const failedTitles = [];
for (const check of checks) {
	let bin;
	try {
		// The package's own command, found through its manifest (its exports hide the bin path).
		const manifest = require.resolve(`${check.tool}/package.json`, { paths: [root] });
		const command = require(manifest).bin;
		bin = path.join(path.dirname(manifest), typeof command === 'string' ? command : command[check.tool]);
	} catch {
		console.error(`[lint] ${check.tool} is not installed; run npm ci`);
		failedTitles.push(check.title);
		continue;
	}
	const run = spawnSync(process.execPath, [bin, ...check.args], { cwd: root, stdio: 'inherit' });
	console.log(`[lint] ${run.status === 0 ? 'passed' : 'FAILED'}: ${check.title}`);
	if (run.status !== 0) {
		failedTitles.push(check.title);
	}
}
const failed = failedTitles.length;
fs.writeFileSync(
	resultFile,
	JSON.stringify({
		tier: 'lint',
		passed: checks.length - failed,
		failed,
		skipped: 0,
		skippedTitles: [],
		failedTitles,
	}) + '\n',
);
process.exitCode = failed > 0 ? 1 : 0;
