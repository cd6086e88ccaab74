import * as fs from 'fs';
import * as path from 'path';
import { Database } from 'node-sqlite3-wasm';
import { whileBusy } from './busy';
import { currentHolder, registerLock, takeHotJournal, unregisterLock } from './storeLock';

/** An open session database and the lock it shares with every other window on the file. */
export interface OpenDatabase {
	db: Database;
	/** The database's canonical path: every window names the same lock for it. */
	file: string;
	lock: string;
}

/**
 * Opens a SQLite file through node-sqlite3-wasm (real SQLite, no native build).
 *
 * Durability choice: rollback journal (`journal_mode=DELETE`) with `synchronous=FULL`.
 * This VFS has no shared memory, so WAL would need `locking_mode=EXCLUSIVE`, which holds the
 * file lock for the connection's whole life: a second window would be locked out and a killed
 * host would leave the lock behind. A rollback journal with FULL fsyncs the journal and the
 * database at every commit, so an acknowledged commit survives a killed process and a power
 * cut (when the disk honours fsync); an interrupted commit is rolled back from the hot journal
 * by the next connection that takes the lock, in this window or another (storeLock.ts: this VFS
 * needs help for both). Cost: a few fsyncs per commit (bench/store.bench.ts).
 *
 * Every window locks the file for the length of one transaction or one read, never longer, so
 * windows take turns (busy.ts); a lock whose holder is gone is taken over (storeLock.ts).
 */
export function openDatabase(file: string): OpenDatabase & { hotJournal: boolean } {
	// Two spellings of one folder (a symlink) must still mean one lock.
	const canonical = path.join(fs.realpathSync(path.dirname(path.resolve(file))), path.basename(file));
	const lock = registerLock(canonical);
	let db: Database | undefined;
	try {
		db = new Database(canonical);
		const opened = { db, file: canonical, lock };
		// The first read takes the lock and, when a killed writer left its journal, plays it back.
		read(opened, () => db?.get('SELECT COUNT(*) AS n FROM sqlite_schema'));
		whileBusy(() => db?.exec('PRAGMA journal_mode=DELETE'), holderOf(opened));
		db.exec('PRAGMA synchronous=FULL');
		db.exec('PRAGMA foreign_keys=ON');
		return { ...opened, hotJournal: takeHotJournal(lock) };
	} catch (error) {
		if (db?.isOpen) {
			db.close();
		}
		unregisterLock(lock);
		throw error;
	}
}

export function closeDatabase(opened: OpenDatabase): void {
	if (opened.db.isOpen) {
		opened.db.close();
		unregisterLock(opened.lock);
	}
}

/**
 * Runs `fn` in one transaction; BEGIN IMMEDIATE takes the write lock up front, waiting for
 * another window's transaction (busy.ts).
 */
export function transaction<T>(opened: OpenDatabase, fn: () => T, waitMs?: number): T {
	const { db } = opened;
	whileBusy(() => db.exec('BEGIN IMMEDIATE'), holderOf(opened), waitMs);
	return finish(db, fn);
}

/**
 * Runs reads in one read transaction: they see one state of the file, and another window's
 * lock is waited for (a read takes the lock too in this VFS). The lock is taken by the first
 * statement, so a busy lock fails before anything was read and the whole read is run again.
 */
export function read<T>(opened: OpenDatabase, fn: () => T): T {
	const { db } = opened;
	if (db.inTransaction) {
		return fn(); // Inside a write transaction: the lock is already ours.
	}
	return whileBusy(() => {
		db.exec('BEGIN');
		return finish(db, fn);
	}, holderOf(opened));
}

function finish<T>(db: Database, fn: () => T): T {
	try {
		const result = fn();
		db.exec('COMMIT');
		return result;
	} catch (error) {
		if (db.inTransaction) {
			db.exec('ROLLBACK');
		}
		throw error;
	}
}

function holderOf(opened: OpenDatabase): () => string {
	return () => {
		const holder = currentHolder(opened.lock);
		return holder
			? `process ${holder.pid} on ${holder.host}, since ${new Date(holder.at).toISOString()}`
			: 'a process that did not say who it is';
	};
}
