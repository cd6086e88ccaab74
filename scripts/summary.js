#!/usr/bin/env node
// Sums test-results/*.json into the one closing line CI reads: "N passed, N failed, N skipped",
// after naming every skipped test. Tiers named as arguments must have a result: one that never
// ran (its set-up failed, its runner crashed before writing) counts as a failure, not as nothing.
// Usage: node scripts/summary.js [tier …]
const fs = require('fs');
const path = require('path');

const dir = path.join(__dirname, '..', 'test-results');
let passed = 0;
let failed = 0;
let skipped = 0;
const skippedTitles = [];
const seen = new Set();
const failedTitles = [];
for (const file of fs.existsSync(dir)
	? fs
			.readdirSync(dir)
			.filter(f => f.endsWith('.json'))
			.sort()
	: []) {
	try {
		const result = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
		if (typeof result.passed !== 'number' || typeof result.failed !== 'number') {
			continue;
		}
		const tier = result.tier ?? file.replace(/\.json$/, '');
		seen.add(tier);
		const tierSkipped = typeof result.skipped === 'number' ? result.skipped : 0;
		console.log(`${tier.padEnd(12)} ${result.passed} passed, ${result.failed} failed, ${tierSkipped} skipped`);
		passed += result.passed;
		failed += result.failed;
		skipped += tierSkipped;
		for (const title of result.skippedTitles ?? []) {
			skippedTitles.push(`[${tier}] ${title}`);
		}
		for (const title of result.failedTitles ?? []) {
			failedTitles.push(`[${tier}] ${title}`);
		}
	} catch {
		console.log(`${file}: unreadable result, counted as a failure`);
		failed += 1;
	}
}
for (const tier of process.argv.slice(2).filter(name => !seen.has(name))) {
	console.log(`${tier.padEnd(12)} did not run (no test-results/${tier}.json), counted as a failure`);
	failed += 1;
}
if (passed + failed === 0) {
	failed = 1; // No results at all is a failure, never "0 passed, 0 failed".
}
for (const title of skippedTitles) {
	console.log(`skipped: ${title}`);
}
for (const title of failedTitles) {
	console.log(`failed: ${title}`);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 ? 1 : 0;
