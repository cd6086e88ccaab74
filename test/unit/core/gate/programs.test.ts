// The program a start runs, found as execvp finds it (a name with a slash from the working
// folder, otherwise along PATH, relative entries from the working folder too), executable, and
// named twice: the path found (what starts) and the real file behind it; real files in a temp folder.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ProgramRefused, resolveExecutable } from '../../../../src/core/gate/programs';

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
			['work/bin/local', 0o755],
		] as const) {
			fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
			fs.writeFileSync(path.join(base, rel), '#!/bin/sh\n');
			fs.chmodSync(path.join(base, rel), mode);
		}
		fs.symlinkSync(path.join(base, 'bin2/other'), path.join(base, 'bin1/alias'));
	});
	after(() => fs.rmSync(base, { recursive: true, force: true }));

	it('finds the first executable on PATH, skipping files that are not executable', () => {
		const search = [path.join(base, 'bin1'), path.join(base, 'bin2')].join(path.delimiter);
		assert.deepStrictEqual(resolveExecutable('tool', base, search), {
			found: path.join(base, 'bin2/tool'),
			real: path.join(base, 'bin2/tool'),
		});
	});

	it('names the link it starts and the real file behind it', () => {
		assert.deepStrictEqual(resolveExecutable('alias', base, path.join(base, 'bin1')), {
			found: path.join(base, 'bin1/alias'),
			real: path.join(base, 'bin2/other'),
		});
	});

	it('starts relative PATH entries and names with a slash from the working folder', () => {
		const cwd = path.join(base, 'work');
		assert.strictEqual(resolveExecutable('local', cwd, 'bin').found, path.join(cwd, 'bin/local'));
		assert.strictEqual(resolveExecutable('./run.sh', cwd, '').found, path.join(cwd, 'run.sh'));
	});

	it('refuses what is missing or not executable, naming the PATH it searched', () => {
		for (const command of ['./missing.sh', path.join(base, 'bin1/tool'), 'nowhere']) {
			assert.throws(
				() => resolveExecutable(command, path.join(base, 'work'), path.join(base, 'bin1')),
				(error: Error) => error instanceof ProgramRefused && error.message.includes(command),
			);
		}
	});
});
