import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Database } from 'node-sqlite3-wasm';
import { DamagedStoreError } from '../../src/core/store/database/repair';
import { SessionStore } from '../../src/core/store/sessionStore';
import { keptMessage } from './crash/damageChild';

const CHILD = path.join(__dirname, 'crash', 'damageChild.js');
const KEPT = 120;

/** Runs the child that leaves a commit cut short (see damageChild.ts); it must die by SIGKILL. */
function leaveCutCommit(file: string, mode: 'commit' | 'spill', cut = 0): void {
	const run = spawnSync(process.execPath, [CHILD, file, String(KEPT), mode, String(cut)], { encoding: 'utf8' });
	assert.strictEqual(run.signal, 'SIGKILL', `the writer was not killed mid-commit: ${run.stderr}`);
	assert.ok(fs.existsSync(`${file}-journal`), 'the killed writer left its journal');
}

/** The pages (0-based) a commit changed, in the order SQLite writes them (ascending). */
function changedPages(before: Buffer, after: Buffer, pageSize: number): number[] {
	const pages: number[] = [];
	for (let page = 0; page * pageSize < after.length; page++) {
		if (
			!before
				.subarray(page * pageSize, (page + 1) * pageSize)
				.equals(after.subarray(page * pageSize, (page + 1) * pageSize))
		) {
			pages.push(page);
		}
	}
	return pages;
}

/** The file as a kill after `written` of the commit's page writes leaves it. */
function cutAfter(before: Buffer, after: Buffer, pages: number[], written: number): Buffer {
	const pageSize = after.readUInt16BE(16);
	const last = written > 0 ? (pages[written - 1] + 1) * pageSize : 0;
	const file = Buffer.concat([before, Buffer.alloc(Math.max(0, last - before.length))]);
	for (const page of pages.slice(0, written)) {
		after.copy(file, page * pageSize, page * pageSize, (page + 1) * pageSize);
	}
	return file;
}

/** Marks the file as schema 3, the last one an earlier build (whose VFS ignored hot journals) wrote. */
function asEarlierBuildLeftIt(file: Buffer): Buffer {
	file.writeUInt32BE(3, 60); // PRAGMA user_version lives at offset 60 of the header
	return file;
}

/** Every acknowledged message is there, in order, and the history search finds each one. */
function assertKept(store: SessionStore): void {
	assert.strictEqual(store.integrityCheck(), 'ok');
	assert.deepStrictEqual(
		store.load('kept'),
		Array.from({ length: KEPT }, (_, i) => keptMessage(i)),
	);
	for (let i = 0; i < KEPT; i++) {
		const word = i % 2 === 0 ? `keel${i}` : `widget${i}`;
		assert.deepStrictEqual(
			store.search(word).map(hit => hit.sessionId),
			['kept'],
			`search for ${word}`,
		);
	}
}

function sha(file: string): string {
	return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

describe('session store after a writer killed mid-commit (real damaged files)', function () {
	this.timeout(120_000);
	let dir: string;
	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-repair-'));
	});
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	describe('a commit cut after any number of its page writes', () => {
		let before: Buffer;
		let after: Buffer;
		let journal: Buffer;
		let pages: number[];
		beforeEach(() => {
			const source = path.join(dir, 'source.db');
			leaveCutCommit(source, 'commit');
			before = fs.readFileSync(`${source}.before`);
			after = fs.readFileSync(source);
			journal = fs.readFileSync(`${source}-journal`);
			pages = changedPages(before, after, after.readUInt16BE(16));
			assert.ok(pages.length >= 4, `one append changes several pages (${pages.length})`);
		});

		it('is rolled back from its journal on open: nothing to repair, no acknowledged message lost, the cut one absent', () => {
			for (let written = 0; written <= pages.length; written++) {
				const file = path.join(dir, `cut${written}.db`);
				fs.writeFileSync(file, cutAfter(before, after, pages, written));
				fs.writeFileSync(`${file}-journal`, journal);
				const store = SessionStore.open(file);
				try {
					assert.strictEqual(
						store.repaired,
						undefined,
						`after ${written} page writes the journal alone restores the file`,
					);
					assertKept(store);
					assert.strictEqual(
						fs.existsSync(`${file}-journal`),
						false,
						'the hot journal was played back and deleted',
					);
				} finally {
					store.close();
				}
			}
		});

		it('left damaged by a build that ignored the journal, is repaired on open (indexes and search index rebuilt from the events)', () => {
			const found: string[] = [];
			for (let written = 1; written < pages.length; written++) {
				const file = path.join(dir, `old${written}.db`);
				fs.writeFileSync(file, asEarlierBuildLeftIt(cutAfter(before, after, pages, written)));
				const store = SessionStore.open(file);
				try {
					found.push(store.repaired ?? '');
					assertKept(store);
				} finally {
					store.close();
				}
			}
			// The damage seen in the field is among them, and each was repaired, not just passed over.
			assert.ok(
				found.some(text => text.includes('wrong # of entries in index sqlite_autoindex_events_1')),
				found.join('\n'),
			);
			assert.ok(
				found.some(text => /FTS5|fts5/.test(text)),
				`a damaged search index was rebuilt: ${found.join('\n')}`,
			);
		});
	});

	it('a real writer killed with new pages already in the file is rolled back on open', () => {
		const file = path.join(dir, 'sessions.db');
		leaveCutCommit(file, 'spill', 60);
		const store = SessionStore.open(file);
		try {
			assert.strictEqual(store.repaired, undefined);
			assertKept(store);
			assert.strictEqual(store.get('cut'), undefined, 'the uncommitted session is gone');
		} finally {
			store.close();
		}
	});

	it('a file damaged beyond its indexes is reported with what to do, and left unchanged', () => {
		const file = path.join(dir, 'sessions.db');
		leaveCutCommit(file, 'spill', 60);
		// An earlier build: its VFS ignored the hot journal, and its next commit overwrote it.
		fs.rmSync(`${file}.lock`, { recursive: true, force: true });
		const old = new Database(file);
		old.run(`INSERT INTO full_outputs (session_id, ref, text, created_at) VALUES ('kept', 'r', 'x', 0)`);
		old.close();
		fs.writeFileSync(file, asEarlierBuildLeftIt(fs.readFileSync(file)));
		assert.strictEqual(fs.existsSync(`${file}-journal`), false);
		const hash = sha(file);
		assert.throws(
			() => SessionStore.open(file),
			(error: Error) => {
				assert.ok(error instanceof DamagedStoreError, `${error.name}: ${error.message}`);
				assert.ok(error.message.includes(file), 'names the file');
				assert.match(error.message, /could not be repaired/);
				assert.match(error.message, /move the file elsewhere/);
				assert.match(error.message, /\.recover/);
				return true;
			},
		);
		assert.strictEqual(sha(file), hash, 'the damaged file was not changed');
	});

	it('a file that is not a database at all is reported, not replaced', () => {
		const file = path.join(dir, 'sessions.db');
		fs.writeFileSync(file, Buffer.alloc(8192, 0x5a));
		assert.throws(
			() => SessionStore.open(file),
			(error: Error) => error instanceof DamagedStoreError && error.message.includes('sqlite3'),
		);
		assert.deepStrictEqual(fs.readFileSync(file), Buffer.alloc(8192, 0x5a));
	});
});
