// Prints a SuiteResult and writes test-results/<tier>.json (KEEL_TIER, default vscode); shared by
// both drivers so the code-server tier and the desktop (test-electron) tier report the same way.
import * as fs from 'fs';
import * as path from 'path';
import { RESULTS_DIR } from '../support/browser';
import type { SuiteResult } from './index';

/** Returns the process exit code: 1 when anything failed or nothing ran. */
export function report(result: SuiteResult): number {
  for (const t of result.tests) {
    const mark = t.state === 'passed' ? '✓' : t.state === 'failed' ? '✗' : '-';
    console.log(`  ${mark} ${t.title}${t.durationMs !== undefined ? ` (${t.durationMs} ms)` : ''}`);
  }
  for (const f of result.failures) console.log(`\n✗ ${f.title}\n${f.error}`);
  console.log(`\n${result.passed} passed, ${result.failed} failed, ${result.pending} pending`);
  writeSummary({ passed: result.passed, failed: result.failed, skipped: result.pending, skippedTitles: result.tests.filter(t => t.state !== 'passed' && t.state !== 'failed').map(t => t.title), tests: result.tests });
  return result.failed > 0 || result.passed === 0 ? 1 : 0;
}

/** For runs that never produced a result (crash, timeout): still leave a summary behind. */
export function reportError(err: unknown): number {
  console.error(`vscode tier: ${err instanceof Error ? err.message : err}`);
  writeSummary({ passed: 0, failed: 1, error: String(err) });
  return 1;
}

function writeSummary(summary: object): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const tier = process.env.KEEL_TIER || 'vscode';
  fs.writeFileSync(path.join(RESULTS_DIR, `${tier}.json`), JSON.stringify({ tier, ...summary }, null, 2));
}
