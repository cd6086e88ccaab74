// A tier whose real part is missing must fail under CI and skip, saying why, by hand. Runs a
// real mocha on a one-test file in a child process, once with CI set and once without.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const MOCHA = require.resolve('mocha/bin/mocha.js');
const GATE = path.resolve(__dirname, '../../support/tierGate.js');

function runWithout(part: string, env: NodeJS.ProcessEnv): { status: number | null; out: string } {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-tiergate-'));
	const file = path.join(dir, 'needsPart.test.js');
	fs.writeFileSync(
		file,
		`const { requirePart } = require(${JSON.stringify(GATE)});
describe('a suite that needs the ${part}', function () {
	before(function () { requirePart(this, ${JSON.stringify(part)}, 'nothing answers on /var/run/none.sock'); });
	it('uses it', function () {});
});
`,
	);
	const clean = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => k !== 'CI' && k !== 'KEEL_TEST_STRICT'),
	);
	const result = spawnSync(process.execPath, [MOCHA, '--reporter', 'spec', file], {
		env: { ...clean, ...env },
		encoding: 'utf8',
	});
	fs.rmSync(dir, { recursive: true, force: true });
	return { status: result.status, out: result.stdout + result.stderr };
}

describe('tier gate: a missing real part', function () {
	this.timeout(30_000);

	it('fails the run under CI, naming the part and the reason', () => {
		const { status, out } = runWithout('Docker engine', { CI: 'true' });
		assert.notStrictEqual(status, 0, out);
		assert.match(out, /1 failing/);
		assert.match(out, /Docker engine not available: nothing answers on \/var\/run\/none\.sock/);
	});

	it('fails the run under scripts/test.sh (KEEL_TEST_STRICT=1) as well', () => {
		const { status, out } = runWithout('Docker engine', { KEEL_TEST_STRICT: '1' });
		assert.notStrictEqual(status, 0, out);
		assert.match(out, /Docker engine not available/);
	});

	it('skips by hand, and says which part is missing', () => {
		const { status, out } = runWithout('Chromium', {});
		assert.strictEqual(status, 0, out);
		assert.match(out, /1 pending/);
		assert.match(out, /SKIPPED: Chromium not available: nothing answers/);
	});
});
