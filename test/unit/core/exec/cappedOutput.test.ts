import * as assert from 'assert';
import { CappedOutput, cappedProgress } from '../../../../src/core/exec/cappedOutput';

describe('CappedOutput', () => {
	it('keeps everything under the cap, across chunk boundaries inside a UTF-8 character', () => {
		const out = new CappedOutput(100);
		const bytes = Buffer.from('héllo wörld');
		out.push(bytes.subarray(0, 2));
		out.push(bytes.subarray(2));
		assert.strictEqual(out.text(), 'héllo wörld');
		assert.strictEqual(out.truncated, false);
	});

	it('keeps the head and the tail of a long output, drops the middle and says how much', () => {
		const out = new CappedOutput(20);
		for (let i = 0; i < 100; i++) {
			out.push(Buffer.from(`${String(i).padStart(3, '0')}\n`));
		}
		assert.strictEqual(out.truncated, true);
		assert.strictEqual(out.totalBytes, 400);
		const text = out.text();
		assert.ok(text.startsWith('000\n001\n00'), text);
		assert.ok(text.endsWith('\n098\n099\n'), text);
		assert.match(text, /\[… 380 bytes of output omitted …\]/);
	});

	it('never streams more than 64 KiB into the card, whatever the output limit', () => {
		let seen = '';
		const progress = cappedProgress(1 << 20, text => (seen += text));
		for (let i = 0; i < 100; i++) {
			progress('x'.repeat(1024));
		}
		assert.strictEqual(seen.replace(/\n\[live output capped.*\n$/, '').length, 64 * 1024);
	});
});

describe('cappedProgress', () => {
	it('forwards live output up to the cap, then says once that the rest is hidden', () => {
		const seen: string[] = [];
		const progress = cappedProgress(10, text => seen.push(text));
		progress('12345');
		progress('67890abc');
		progress('more');
		progress('and more');
		assert.deepStrictEqual(seen, [
			'12345',
			'67890',
			'\n[live output capped here; the result keeps the rest up to the output limit]\n',
		]);
	});

	it('never streams more than 64 KiB into the card, whatever the output limit', () => {
		let seen = '';
		const progress = cappedProgress(1 << 20, text => (seen += text));
		for (let i = 0; i < 100; i++) {
			progress('x'.repeat(1024));
		}
		assert.strictEqual(seen.replace(/\n\[live output capped.*\n$/, '').length, 64 * 1024);
	});
});
