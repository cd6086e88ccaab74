// Prints a SuiteResult and writes test-results/<tier>.json (KEEL_TIER, default vscode); shared by
// both drivers so the code-server tier and the desktop (test-electron) tier report the same way.
import * as fs from 'fs';
import * as path from 'path';
import { RESULTS_DIR } from '../support/browser';
import type { SuiteResult } from './index';

/** Returns the process exit code: 1 when anything failed or nothing ran. */
export function report(result: SuiteResult, name = defaultName()): number {
	for (const t of result.tests) {
		const mark = t.state === 'passed' ? '✓' : t.state === 'failed' ? '✗' : '-';
		console.log(`  ${mark} ${t.title}${t.durationMs !== undefined ? ` (${t.durationMs} ms)` : ''}`);
	}
	for (const f of result.failures) console.log(`\n✗ ${f.title}\n${f.error}`);
	console.log(`\n${result.passed} passed, ${result.failed} failed, ${result.pending} pending`);
	writeSummary(name, {
		passed: result.passed,
		failed: result.failed,
		skipped: result.pending,
		skippedTitles: result.tests.filter(t => t.state !== 'passed' && t.state !== 'failed').map(t => t.title),
		failedTitles: result.failures.map(f => `${f.title}: ${String(f.error).split('\n')[0].slice(0, 300)}`),
		tests: result.tests,
	});
	return result.failed > 0 || result.passed === 0 ? 1 : 0;
}

/** For runs that never produced a result (crash, timeout): still leave a summary behind. */
export function reportError(err: unknown, name = defaultName()): number {
	console.error(`${name} tier: ${err instanceof Error ? err.message : err}`);
	writeSummary(name, {
		passed: 0,
		failed: 1,
		error: String(err),
		failedTitles: [`the tier did not finish: ${String(err).split('\n')[0]}`],
	});
	return 1;
}

/** KEEL_TIER names the run (the smoke run on the oldest VS Code writes vscode-oldest). */
function defaultName(): string {
	return process.env.KEEL_TIER || 'vscode';
}

function writeSummary(name: string, summary: object): void {
	fs.mkdirSync(RESULTS_DIR, { recursive: true });
	fs.writeFileSync(path.join(RESULTS_DIR, `${name}.json`), JSON.stringify({ tier: name, ...summary }, null, 2));
}
