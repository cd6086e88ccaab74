import * as assert from 'assert';
import { filterOutput } from '../../../../src/core/exec/outputFilters';

describe('outputFilters', () => {
	it('strips ANSI colours and carriage-return progress redraws', () => {
		const out = filterOutput(
			'./build.sh',
			'\u001b[32mok\u001b[0m\rDownloading 10%\rDownloading 100%\n[=====>    ] 55%\ndone',
		);
		assert.strictEqual(out.text, 'Downloading 100%\ndone');
		assert.deepStrictEqual(out.applied.slice(0, 2), ['ansi', 'progress']);
	});

	it('collapses repeated lines and reports before → after', () => {
		const out = filterOutput('x', ['start', ...Array(50).fill('retrying…'), 'end'].join('\n'));
		assert.strictEqual(out.text, 'start\nretrying…\n[previous line repeated 49 more times]\nend');
		assert.strictEqual(out.linesBefore, 52);
		assert.strictEqual(out.linesAfter, 4);
	});

	it('keeps a mocha run to its summary and failures', () => {
		const passing = Array.from({ length: 300 }, (_, i) => `    ✔ test ${i}`);
		const raw = [
			'',
			...passing,
			'',
			'  300 passing (2s)',
			'  1 failing',
			'',
			'  1) suite',
			'       does a thing:',
			'     AssertionError: expected 1 to equal 2',
			'      at Context.<anonymous> (test/a.test.js:10:5)',
		].join('\n');
		const out = filterOutput('npx mocha', raw);
		assert.ok(out.applied.includes('mocha'));
		assert.ok(out.linesAfter < 10, out.text);
		assert.match(out.text, /300 passing/);
		assert.match(out.text, /AssertionError: expected 1 to equal 2/);
	});

	it('drops git status hints but keeps the files', () => {
		const raw = [
			'On branch main',
			'Changes not staged for commit:',
			'  (use "git add <file>..." to update what will be committed)',
			'  (use "git restore <file>..." to discard changes)',
			...Array.from({ length: 50 }, (_, i) => `\tmodified:   src/f${i}.ts`),
		].join('\n');
		const out = filterOutput('git status', raw);
		assert.ok(!/use "git/.test(out.text));
		assert.match(out.text, /^unstaged \(50\): M src\/f0\.ts, .*M src\/f49\.ts$/m);
	});
});
