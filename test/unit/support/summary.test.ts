// The closing summary of scripts/test.sh: skipped tests are named, and a tier that never wrote
// a result counts as a failure instead of silently adding nothing. Runs the real script on a
// results folder of its own.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const SCRIPT = path.resolve(__dirname, '../../../../scripts/summary.js');

function summary(results: Record<string, unknown>, tiers: string[]): { status: number | null; lines: string[] } {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-summary-'));
	fs.mkdirSync(path.join(root, 'scripts'));
	fs.mkdirSync(path.join(root, 'test-results'));
	fs.copyFileSync(SCRIPT, path.join(root, 'scripts', 'summary.js'));
	for (const [tier, result] of Object.entries(results)) {
		fs.writeFileSync(path.join(root, 'test-results', `${tier}.json`), JSON.stringify(result));
	}
	const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'summary.js'), ...tiers], { encoding: 'utf8' });
	fs.rmSync(root, { recursive: true, force: true });
	return { status: run.status, lines: run.stdout.trim().split('\n') };
}

describe('test summary (scripts/summary.js)', () => {
	it('adds the tiers up and names every skipped test', () => {
		const { status, lines } = summary(
			{
				unit: { tier: 'unit', passed: 5, failed: 0, skipped: 1, skippedTitles: ['parser handles CRLF'] },
				e2e: { tier: 'e2e', passed: 2, failed: 0, skipped: 0 },
			},
			['unit', 'e2e'],
		);
		assert.strictEqual(status, 0);
		assert.ok(lines.includes('skipped: [unit] parser handles CRLF'), lines.join('\n'));
		assert.strictEqual(lines.at(-1), '7 passed, 0 failed, 1 skipped');
	});

	it('counts a named tier without a result as a failure and says it did not run', () => {
		const { status, lines } = summary({ unit: { tier: 'unit', passed: 5, failed: 0, skipped: 0 } }, [
			'unit',
			'vscode',
		]);
		assert.strictEqual(status, 1);
		assert.ok(
			lines.some(line => /^vscode\s+did not run/.test(line)),
			lines.join('\n'),
		);
		assert.strictEqual(lines.at(-1), '5 passed, 1 failed, 0 skipped');
	});
});
