import * as fs from 'fs';
import type { Database } from 'node-sqlite3-wasm';
import { whileBusy } from './busy';
import { openRollingBack } from './hotJournal';

/**
 * Opens a SQLite file through node-sqlite3-wasm (real SQLite, no native build).
 *
 * Durability choice: rollback journal (`journal_mode=DELETE`) with `synchronous=FULL`.
 * This VFS has no shared memory, so WAL would need `locking_mode=EXCLUSIVE`, which holds the
 * file lock for the connection's whole life: a second window would be locked out and a killed
 * host would leave the lock behind. A rollback journal with FULL fsyncs the journal and the
 * database at every commit, so an acknowledged commit survives a killed process and a power
 * cut (when the disk honours fsync); an interrupted commit is rolled back from the hot journal
 * on the next open (hotJournal.ts: this VFS needs help for that). Cost: a few fsyncs per commit
 * (bench/store.bench.ts).
 *
 * The VFS locks with a `<file>.lock` directory created per transaction; a process killed inside
 * a transaction leaves it behind and every later open would see SQLITE_BUSY. We record the
 * owner's pid beside it and remove the lock when that process is gone.
 */
export function openDatabase(file: string): { db: Database; journalFound: boolean } {
	clearStaleLock(file);
	const { db, journalFound } = openRollingBack(file);
	try {
		db.exec('PRAGMA journal_mode=DELETE');
		db.exec('PRAGMA synchronous=FULL');
		db.exec('PRAGMA foreign_keys=ON');
	} catch (error) {
		db.close();
		throw error;
	}
	fs.writeFileSync(ownerFile(file), String(process.pid));
	return { db, journalFound };
}

function ownerFile(file: string): string {
	return `${file}.owner`;
}

function clearStaleLock(file: string): void {
	const lock = `${file}.lock`;
	if (!fs.existsSync(lock)) {
		return;
	}
	let owner = NaN;
	try {
		owner = Number(fs.readFileSync(ownerFile(file), 'utf8').trim());
	} catch {
		// No owner recorded: nobody we know holds it.
	}
	if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
		return; // A live process (another window) holds it: SQLite's busy handling applies.
	}
	fs.rmSync(lock, { recursive: true, force: true });
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * Runs `fn` in one transaction; BEGIN IMMEDIATE takes the write lock up front, waiting briefly
 * for another window's transaction (busy.ts).
 */
export function transaction<T>(db: Database, fn: () => T): T {
	whileBusy(() => db.exec('BEGIN IMMEDIATE'));
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
