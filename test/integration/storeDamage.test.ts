// Damage that leaves no journal: a disk that changes bytes after Keel closed the file, or a
// power cut that loses writes the disk had acknowledged. No process crash can cause it (a cut
// commit leaves its journal), so it must be found some other way on open, cheaply, and never
// used silently: repaired when it is derived data, reported with what to do otherwise, and the
// file never made worse.
import * as assert from 'assert';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Database } from 'node-sqlite3-wasm';
import type { CanonicalMessage } from '../../src/core/llm/canonical';
import { DamagedStoreError } from '../../src/core/store/database/repair';
import { SessionStore } from '../../src/core/store/sessionStore';
import { rng } from '../support/resilience/scenarios';

const KEPT = 150;

function kept(i: number): CanonicalMessage {
	if (i % 3 === 2) {
		const output = `output${i} ${'line of a file\n'.repeat(30)}`;
		return {
			kind: 'tool_result',
			content: output,
			data: { toolCallId: `c${i}`, name: 'read_file', output, ok: true },
		};
	}
	return i % 3 === 0
		? { kind: 'user', content: `prompt ${i} about keel${i} parsers` }
		: { kind: 'assistant', content: `answer ${i} about widget${i} ${'and more words '.repeat(20)}` };
}

function sha(file: string): string {
	return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** The first page of a table or an index (1-based), from the schema. */
function rootPage(file: string, name: string): number {
	const db = new Database(file, { readOnly: true });
	try {
		return Number(db.get('SELECT rootpage FROM sqlite_schema WHERE name = ?', [name])?.rootpage);
	} finally {
		db.close();
	}
}

/** Writes `bytes` over part of a page, as a failing disk would, and puts the file's time back. */
function damage(file: string, page: number, offset: number, bytes: Buffer): void {
	const { atime, mtime } = fs.statSync(file);
	const fd = fs.openSync(file, 'r+');
	try {
		const pageSize = fs.readFileSync(file).readUInt16BE(16);
		fs.writeSync(fd, bytes, 0, bytes.length, (page - 1) * pageSize + offset);
	} finally {
		fs.closeSync(fd);
	}
	fs.utimesSync(file, atime, mtime);
}

function assertAllKept(store: SessionStore): void {
	assert.strictEqual(store.integrityCheck(), 'ok');
	assert.deepStrictEqual(
		store.load('kept'),
		Array.from({ length: KEPT }, (_, i) => kept(i)),
	);
	for (let i = 0; i < KEPT; i += 3) {
		assert.deepStrictEqual(
			store.search(`keel${i}`).map(hit => hit.sessionId),
			['kept'],
		);
	}
}

describe('session store: damage without a journal is found on open', function () {
	this.timeout(180_000);
	let dir: string;
	let pristine: string;
	before(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-damage-'));
		pristine = path.join(dir, 'pristine.db');
		const store = SessionStore.open(pristine);
		for (let i = 0; i < KEPT; i++) {
			store.append('kept', kept(i));
		}
		store.close(); // Closing seals the file.
	});
	after(() => fs.rmSync(dir, { recursive: true, force: true }));

	/** A copy of the sealed file with its seal, its time kept. */
	function copy(name: string): string {
		const file = path.join(dir, `${name}.db`);
		fs.copyFileSync(pristine, file);
		if (fs.existsSync(`${pristine}.seal`)) {
			fs.copyFileSync(`${pristine}.seal`, `${file}.seal`);
		}
		const { atime, mtime } = fs.statSync(pristine);
		fs.utimesSync(file, atime, mtime);
		return file;
	}

	it('a sealed file nothing touched opens without the full check', () => {
		const store = SessionStore.open(copy('untouched'));
		try {
			assert.strictEqual(store.checked, undefined);
			assertAllKept(store);
		} finally {
			store.close();
		}
	});

	it('a file another window wrote after the seal opens without the full check', () => {
		const file = copy('written');
		const other = new Database(file);
		other.run(`INSERT INTO full_outputs (session_id, ref, text, created_at) VALUES ('kept', 'r', 'x', 0)`);
		other.close();
		const store = SessionStore.open(file);
		try {
			assert.strictEqual(store.checked, undefined);
			assert.strictEqual(store.getFullOutput('kept', 'r'), 'x');
		} finally {
			store.close();
		}
	});

	it('a damaged index (keys changed on disk after the seal) is repaired on open, with nothing lost', () => {
		const file = copy('index');
		// The end of a page holds its cells: a few changed bytes there change keys, not the page's structure.
		damage(file, rootPage(file, 'sqlite_autoindex_events_1'), 4096 - 40, Buffer.from('zzzzzzzz'));
		const store = SessionStore.open(file);
		try {
			assert.match(store.checked ?? '', /bytes changed on disk/);
			assert.ok(store.repaired, 'the index was rebuilt');
			assertAllKept(store);
		} finally {
			store.close();
		}
		const again = SessionStore.open(file);
		try {
			assert.strictEqual(again.checked, undefined, 'the repaired file was sealed: the next open is cheap');
		} finally {
			again.close();
		}
	});

	it('a damaged table is reported with what to do, and the file is left as it was', () => {
		const file = copy('table');
		damage(file, rootPage(file, 'events'), 0, Buffer.alloc(4096, 0x77));
		const before = sha(file);
		assert.throws(
			() => SessionStore.open(file),
			(error: Error) => {
				assert.ok(error instanceof DamagedStoreError, `${error.name}: ${error.message}`);
				assert.ok(
					error.message.includes(fs.realpathSync(file)) || error.message.includes(file),
					'names the file',
				);
				assert.match(error.message, /move the file elsewhere/);
				assert.match(error.message, /\.recover/);
				return true;
			},
		);
		assert.strictEqual(sha(file), before, 'Keel did not change the damaged file');
	});

	it('any page damaged after the seal is never used silently (generated: page, place and bytes)', () => {
		const random = rng(20);
		const pageSize = fs.readFileSync(pristine).readUInt16BE(16);
		const pages = fs.statSync(pristine).size / pageSize;
		const outcomes: Record<string, number> = {};
		for (let trial = 0; trial < 60; trial++) {
			const file = copy(`trial${trial}`);
			const page = 2 + Math.floor(random() * (pages - 1));
			const length = 1 + Math.floor(random() * 600);
			const offset = Math.floor(random() * (pageSize - length));
			const bytes = Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
			if (
				bytes.equals(
					fs
						.readFileSync(file)
						.subarray((page - 1) * pageSize + offset, (page - 1) * pageSize + offset + length),
				)
			) {
				continue;
			}
			damage(file, page, offset, bytes);
			const before = sha(file);
			let store: SessionStore | undefined;
			try {
				store = SessionStore.open(file);
			} catch (error) {
				assert.ok(error instanceof DamagedStoreError, `page ${page}: ${(error as Error).message}`);
				assert.strictEqual(sha(file), before, `page ${page}: the reported file was changed`);
				outcomes.reported = (outcomes.reported ?? 0) + 1;
				continue;
			}
			try {
				assert.ok(
					store.checked,
					`page ${page} (offset ${offset}, ${length} bytes) was damaged and the file opened unchecked`,
				);
				assert.strictEqual(store.integrityCheck(), 'ok', `page ${page}: opened damaged`);
				const outcome = store.repaired ? 'repaired' : 'checked, sound (unused space or text)';
				outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
			} finally {
				store.close();
			}
		}
		console.log(`      damaged pages: ${JSON.stringify(outcomes)}`);
		assert.ok((outcomes.reported ?? 0) > 0 && (outcomes.repaired ?? 0) > 0, JSON.stringify(outcomes));
	});

	it('after a restart, a file left open (no seal) is checked once, and writes lost by the disk are found', () => {
		const file = path.join(dir, 'restart.db');
		const store = SessionStore.open(file);
		for (let i = 0; i < KEPT; i++) {
			store.append('kept', kept(i));
		}
		const before = fs.readFileSync(file);
		for (let i = KEPT; i < KEPT + 30; i++) {
			store.append('kept', kept(i));
		}
		// The machine went down with the window open: no seal. The disk had acknowledged the last
		// commits but kept only some of their pages: every other changed page is back as it was.
		const after = fs.readFileSync(file);
		fs.rmSync(`${file}.seal`, { force: true });
		const pageSize = after.readUInt16BE(16);
		const torn = Buffer.from(after);
		let reverted = 0;
		for (let page = 1; page * pageSize <= before.length; page += 1) {
			const range = [(page - 1) * pageSize, page * pageSize] as const;
			if (page > 1 && !before.subarray(...range).equals(after.subarray(...range)) && reverted++ % 2 === 0) {
				before.copy(torn, range[0], range[0], range[1]);
			}
		}
		assert.ok(reverted > 2, `the last commits changed ${reverted} pages`);
		const lastWrite = fs.statSync(file).mtimeMs;
		fs.writeFileSync(file, torn);
		fs.utimesSync(file, new Date(lastWrite), new Date(lastWrite));
		const hash = sha(file);

		// Without a restart this cannot happen (a killed window leaves a journal): no check.
		const sameBoot = SessionStore.open(file, Date.now, { bootTime: lastWrite - 3_600_000 });
		assert.strictEqual(sameBoot.checked, undefined);
		sameBoot.close();
		fs.rmSync(`${file}.seal`, { force: true });
		fs.utimesSync(file, new Date(lastWrite), new Date(lastWrite));
		assert.strictEqual(sha(file), hash);

		// Started since the last write: the whole file is checked, and the lost writes are found.
		let found: string;
		try {
			const restarted = SessionStore.open(file, Date.now, { bootTime: lastWrite + 120_000 });
			assert.match(restarted.checked ?? '', /before this computer started/);
			found = restarted.repaired ?? 'sound';
			assert.strictEqual(restarted.integrityCheck(), 'ok');
			restarted.close();
		} catch (error) {
			assert.ok(error instanceof DamagedStoreError, (error as Error).message);
			assert.strictEqual(sha(file), hash, 'the reported file was changed');
			found = 'reported';
		}
		assert.notStrictEqual(found, 'sound', 'the torn file was found damaged');
	});
});
