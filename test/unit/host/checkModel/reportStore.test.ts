// Kept Check Model reports: newest first, found by id, never a path outside their folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CheckReport } from '../../../../src/core/checkModel/types';
import { ReportStore } from '../../../../src/host/checkModel/reportStore';

const report = (id: string, startedAt: string) => ({ version: 1, id, model: 'm', startedAt }) as unknown as CheckReport;

describe('Check Model report store', () => {
	let dir: string;
	beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-reports-'))));
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	it('lists newest first, skips what is not a report, and keeps the newest 60', async () => {
		const store = new ReportStore(dir);
		for (let i = 0; i < 62; i++) {
			await store.save(report(`m@h-${i}`, new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString()));
		}
		fs.writeFileSync(path.join(dir, 'broken.json'), '{');
		const all = await store.list();
		assert.equal(all.length, 60);
		assert.equal(all[0].id, 'm@h-61');
		assert.equal(all.at(-1)!.id, 'm@h-2');
		assert.equal((await store.get('m@h-30'))?.id, 'm@h-30');
		assert.equal(await store.get('m@h-0'), undefined, 'the oldest went');
	});

	it('refuses an id that is not a plain name', async () => {
		const store = new ReportStore(path.join(dir, 'reports'));
		fs.writeFileSync(path.join(dir, 'secret.json'), JSON.stringify({ version: 1, id: '../secret' }));
		assert.equal(await store.get('../secret'), undefined);
	});
});
