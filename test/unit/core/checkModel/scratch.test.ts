// A Check Model run stopped as a trial starts (Ctrl+C twice) removes its scratch folder while the
// trial is still laying out the task's files: whenever the removal lands, nothing is written after
// it, so the folder stays gone.
import * as assert from 'assert';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ScratchFolder, SCRATCH_PREFIX } from '../../../../src/core/checkModel/scratch';

describe('Check Model scratch folder', () => {
	let parent: string;
	beforeEach(() => (parent = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-scratch-test-'))));
	afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

	it('stays removed when it is disposed at any point of a reset', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 120 }),
				fc.integer({ min: 0, max: 8 }),
				fc.integer({ min: 0, max: 300 }),
				async (fileCount, depth, ticks) => {
					const scratch = await ScratchFolder.create(parent);
					const files: Record<string, string> = {};
					for (let i = 0; i < fileCount; i++) files[`${'d/'.repeat(i % (depth + 1))}f${i}.txt`] = `${i}\n`;
					const resetting = scratch.reset(files, { 'o/secret.txt': 'x' }).catch(() => undefined);
					// The removal lands after some number of turns of the event loop: before, during or after the reset.
					for (let t = 0; t < ticks; t++)
						await new Promise(resolve => (t % 2 ? setImmediate(resolve) : fs.stat(parent, resolve)));
					await scratch.dispose();
					await resetting;
					await new Promise(resolve => setTimeout(resolve, 5));
					assert.deepStrictEqual(
						fs.readdirSync(parent).filter(name => name.startsWith(SCRATCH_PREFIX)),
						[],
						`left after ${ticks} ticks of a ${fileCount}-file reset`,
					);
				},
			),
			{ numRuns: 60 },
		);
	});

	it('lays out the files when nothing removes it', async () => {
		const scratch = await ScratchFolder.create(parent);
		await scratch.reset({ 'a/b.txt': 'b' }, { 'o.txt': 'o' });
		assert.strictEqual(fs.readFileSync(path.join(scratch.workspace, 'a', 'b.txt'), 'utf8'), 'b');
		assert.strictEqual(fs.readFileSync(path.join(scratch.outside, 'o.txt'), 'utf8'), 'o');
		await scratch.dispose();
		assert.strictEqual(fs.existsSync(scratch.root), false);
	});
});
