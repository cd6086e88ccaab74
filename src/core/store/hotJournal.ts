import * as path from 'path';
import { Database } from 'node-sqlite3-wasm';
import { whileBusy } from './busy';

// The module object itself, not an import copy: the VFS calls `accessSync` on it at run time.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeFs = require('node:fs') as typeof import('fs');

/**
 * Opens the database so that SQLite rolls back a transaction a killed process left half
 * written, which node-sqlite3-wasm's VFS would otherwise prevent.
 *
 * A commit writes the old pages to `<file>-journal`, syncs it, writes the new pages into the
 * database, then deletes the journal. A process killed between the first page write and the
 * delete leaves a "hot" journal, and the next connection must copy the old pages back before it
 * reads anything. SQLite does that only if no other connection holds a RESERVED lock, which it
 * asks the VFS while it holds its own SHARED lock. This VFS has one lock for every level: the
 * directory `<file>.lock`, made with mkdir. Asked about the reserved lock, it answers "held"
 * whenever that directory exists, and it always exists at that moment because the asking
 * connection made it. So SQLite never rolled back: the new pages written before the kill stayed,
 * and an index no longer matched its table ("wrong # of entries in index").
 *
 * While the new connection first reads the file (the only moment SQLite looks for a hot
 * journal), the lock directory is reported absent to the VFS. That is the true answer: mkdir is
 * exclusive, so while this connection holds the directory nobody else can hold any lock. A
 * journal found here also makes the store check the whole file (repair.ts), a second line of
 * defence: a kill can damage the file only inside a commit, and a cut commit leaves its journal.
 */
export function openRollingBack(file: string): { db: Database; journalFound: boolean } {
	const db = new Database(file);
	if (!nodeFs.existsSync(`${file}-journal`)) {
		return { db, journalFound: false };
	}
	const lock = `${path.resolve(file)}.lock`;
	const accessSync = nodeFs.accessSync;
	nodeFs.accessSync = function (target: import('fs').PathLike, mode?: number): void {
		if (target === lock) {
			throw Object.assign(new Error(`ENOENT: no such file or directory, access '${lock}'`), { code: 'ENOENT' });
		}
		accessSync.call(nodeFs, target, mode);
	};
	try {
		// The first read takes the shared lock and plays the hot journal back. Synchronous, so no
		// other code runs while `accessSync` is replaced. Another window inside a transaction
		// holds the lock for milliseconds: its journal is live, not hot, and is waited for.
		whileBusy(() => db.get('SELECT COUNT(*) AS n FROM sqlite_schema'));
	} catch (error) {
		db.close();
		throw error;
	} finally {
		nodeFs.accessSync = accessSync;
	}
	return { db, journalFound: true };
}
