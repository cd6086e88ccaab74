import * as assert from 'assert';
import * as fs from 'fs';
import {
	bootTime,
	holderRecord,
	holderState,
	parseHolder,
	type LockHolder,
} from '../../../../../src/core/store/database/lockHolder';

const onLinux = fs.existsSync('/proc/self/stat');

/** Another live process's record as it would have written it: the test runner's parent. */
function parentRecord(): LockHolder {
	const stat = onLinux ? fs.readFileSync(`/proc/${process.ppid}/stat`, 'utf8') : '';
	const start = onLinux ? stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] : undefined;
	return { ...holderRecord('parent-token'), pid: process.ppid, start };
}

describe('lock holder: is the process that holds a store lock still there', () => {
	it('this process: alive while it holds the token, gone for a token of an earlier process with the same pid', () => {
		const mine = holderRecord('t1');
		assert.strictEqual(
			holderState(mine, token => token === 't1'),
			'alive',
		);
		assert.strictEqual(
			holderState(mine, () => false),
			'dead',
		);
	});

	it('another live process is alive; a pid nobody has is gone', () => {
		assert.strictEqual(
			holderState(parentRecord(), () => false),
			'alive',
		);
		assert.strictEqual(
			holderState({ ...parentRecord(), pid: 2 ** 22 + 12_345 }, () => false),
			'dead',
		);
	});

	(onLinux ? it : it.skip)('a live pid that started after the holder did is a reused pid: the holder is gone', () => {
		assert.strictEqual(
			holderState({ ...parentRecord(), start: '1' }, () => false),
			'dead',
		);
	});

	it('a lock taken before this machine started is gone, whoever took it', () => {
		const booted = bootTime();
		assert.strictEqual(
			holderState({ ...parentRecord(), at: booted - 3_600_000 }, () => true, booted),
			'dead',
		);
	});

	it('a holder on another machine or in another pid namespace cannot be checked from here', () => {
		assert.strictEqual(
			holderState({ ...parentRecord(), host: 'another-host' }, () => false),
			'unknown',
		);
		if (onLinux) {
			assert.strictEqual(
				holderState({ ...parentRecord(), ns: 'pid:[1]' }, () => false),
				'unknown',
			);
		}
	});

	it('reads only a whole record: a half-written or foreign file is no holder', () => {
		const record = holderRecord('t');
		assert.deepStrictEqual(parseHolder(JSON.stringify(record)), record);
		for (const text of [
			'',
			'{"pid":1',
			'null',
			'{"pid":"1","host":"h","token":"t","at":1}',
			JSON.stringify({ pid: 1 }),
		]) {
			assert.strictEqual(parseHolder(text), undefined, text);
		}
	});
});
