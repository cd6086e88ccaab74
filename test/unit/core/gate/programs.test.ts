// The program a start runs: found on PATH (absolute entries only) or against the folder it
// starts in, executable, and handed over as an absolute path; real files in a temp folder.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ProgramRefused, resolveProgram } from '../../../../src/core/gate/programs';

describe('gate: programs', function () {
	if (process.platform === 'win32') {
		return;
	}
	let base: string;
	before(() => {
		base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-prog-')));
		for (const [rel, mode] of [
			['bin1/tool', 0o644],
			['bin2/tool', 0o755],
			['bin2/other', 0o755],
			['work/run.sh', 0o755],
		] as const) {
			fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
			fs.writeFileSync(path.join(base, rel), '#!/bin/sh\n');
			fs.chmodSync(path.join(base, rel), mode);
		}
	});
	after(() => fs.rmSync(base, { recursive: true, force: true }));

	it('finds the first executable on PATH, skipping files that are not executable and relative entries', () => {
		const env = { PATH: ['bin2', path.join(base, 'bin1'), path.join(base, 'bin2')].join(path.delimiter) };
		assert.strictEqual(resolveProgram('tool', { env, cwd: base }), path.join(base, 'bin2/tool'));
		assert.strictEqual(resolveProgram('other', { env, cwd: base }), path.join(base, 'bin2/other'));
	});

	it('resolves a path against the folder it starts in, and refuses what is not there or not executable', () => {
		const cwd = path.join(base, 'work');
		assert.strictEqual(resolveProgram('./run.sh', { cwd, env: {} }), path.join(cwd, 'run.sh'));
		assert.strictEqual(resolveProgram(path.join(base, 'bin2/tool'), { env: {} }), path.join(base, 'bin2/tool'));
		for (const command of ['./missing.sh', path.join(base, 'bin1/tool'), 'nowhere', '']) {
			assert.throws(
				() => resolveProgram(command, { cwd, env: { PATH: path.join(base, 'bin1') } }),
				ProgramRefused,
			);
		}
	});

	it('refuses a folder that does not exist, naming it', () => {
		assert.throws(
			() => resolveProgram('tool', { cwd: path.join(base, 'gone'), env: { PATH: path.join(base, 'bin2') } }),
			(error: Error) => error instanceof ProgramRefused && error.message.includes(path.join(base, 'gone')),
		);
	});
});
