import type { Database } from 'node-sqlite3-wasm';
import { EVENTS_FTS_FILL, EVENTS_FTS_TABLE } from './schema';
import { read, transaction, type OpenDatabase } from './sqlite';

/** The session database is damaged in a way Keel cannot repair; the file was left as it was. */
export class DamagedStoreError extends Error {
	constructor(
		readonly file: string,
		readonly problems: string,
	) {
		super(
			`Keel's session history (${file}) is damaged and could not be repaired: ${problems}. ` +
				'Keel did not use or change the file. To start a new, empty history, close VS Code and move the file elsewhere. ' +
				`To salvage the old conversations, run: sqlite3 "${file}" .recover | sqlite3 "${file}.recovered" and put the recovered file in its place.`,
		);
		this.name = 'DamagedStoreError';
	}
}

/**
 * Checks the whole database on open and repairs what is derived data. A damaged file is never
 * used silently: it is repaired, or DamagedStoreError says what to do. The check holds the
 * file's lock while it reads every page; other windows wait for it (busy.ts).
 *
 * Indexes (the primary-key and unique indexes of `events`, …) are rebuilt from their tables by
 * REINDEX; the full-text index is dropped and rebuilt from `events`. Neither touches a table
 * row, so no event is lost. The repair and the check after it run in one transaction: if the
 * check still fails (a table itself is damaged), everything is rolled back and the file is
 * reported, unchanged. Returns what was repaired, or undefined when the file was sound.
 */
export function checkAndRepair(opened: OpenDatabase): string | undefined {
	const { db, file } = opened;
	let problems: string;
	let ftsDrift = false;
	try {
		[problems, ftsDrift] = read(opened, () => {
			const found = integrityProblems(db);
			return [found, found === '' && hasFts(db) && ftsOutOfStep(db)] as const;
		});
	} catch (error) {
		// The check itself stopped ("malformed"): often a damaged search index; try the repair.
		problems = (error as Error).message;
	}
	if (problems === '' && !ftsDrift) {
		return undefined;
	}
	const found = problems || 'the search index does not match the stored messages';
	try {
		transaction(opened, () => {
			db.exec('REINDEX');
			if (hasFts(db)) {
				db.exec(`DROP TABLE events_fts; ${EVENTS_FTS_TABLE}; ${EVENTS_FTS_FILL};`);
			}
			const left = integrityProblems(db);
			if (left !== '') {
				throw new DamagedStoreError(file, left);
			}
		});
	} catch (error) {
		throw error instanceof DamagedStoreError
			? error
			: new DamagedStoreError(file, `${found} (repair failed: ${(error as Error).message})`);
	}
	return `rebuilt the indexes and the search index (found: ${found})`;
}

/** SQLite's full check (every index against its table, the FTS index too); '' when sound. */
export function integrityProblems(db: Database): string {
	const rows = db.all('PRAGMA integrity_check') as Array<Record<string, string>>;
	const lines = rows.map(row => String(row.integrity_check));
	return lines.length === 1 && lines[0] === 'ok'
		? ''
		: lines.slice(0, 5).join('; ') + (lines.length > 5 ? `; … ${lines.length - 5} more` : '');
}

function hasFts(db: Database): boolean {
	return db.get(`SELECT 1 AS yes FROM sqlite_schema WHERE name = 'events_fts'`) !== null;
}

/** Every prompt and answer has exactly one row in the search index (the triggers keep it so). */
function ftsOutOfStep(db: Database): boolean {
	const said = Number(db.get(`SELECT COUNT(*) AS n FROM events WHERE kind IN ('user', 'assistant')`)?.n ?? 0);
	const indexed = Number(db.get('SELECT COUNT(*) AS n FROM events_fts')?.n ?? 0);
	return said !== indexed;
}
