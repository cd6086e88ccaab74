import type { Database } from 'node-sqlite3-wasm';
import { read, transaction, type OpenDatabase } from './sqlite';

/**
 * The full-text index of what was said. Derived from `events` alone, so it can be dropped and
 * rebuilt from them at any time (repair.ts does when it is damaged).
 */
export const EVENTS_FTS_TABLE = `CREATE VIRTUAL TABLE events_fts USING fts5(content, session_id UNINDEXED, seq UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')`;
export const EVENTS_FTS_FILL = `INSERT INTO events_fts (content, session_id, seq) SELECT content, session_id, seq FROM events WHERE kind IN ('user', 'assistant')`;

/**
 * Versioned migrations. `PRAGMA user_version` holds the applied version; each migration runs
 * in its own transaction together with the version bump, so a crash mid-migration leaves the
 * previous version intact. Append new migrations; never edit a shipped one.
 */
const migrations: Array<(db: Database) => void> = [
	// 1: sessions, their events (one row per canonical message), tool outputs kept apart so
	// retention can drop them without touching the conversation.
	db => {
		db.exec(`
			CREATE TABLE sessions (
				id TEXT PRIMARY KEY,
				title TEXT NOT NULL,
				created_at INTEGER NOT NULL,
				updated_at INTEGER NOT NULL,
				provider TEXT NOT NULL DEFAULT '',
				model TEXT NOT NULL DEFAULT '',
				event_count INTEGER NOT NULL DEFAULT 0
			);
			CREATE INDEX sessions_updated ON sessions(updated_at DESC);
			CREATE TABLE events (
				session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
				seq INTEGER NOT NULL,
				kind TEXT NOT NULL,
				turn_id TEXT,
				call_id TEXT,
				created_at INTEGER NOT NULL,
				content TEXT NOT NULL,
				data TEXT,
				PRIMARY KEY (session_id, seq)
			);
			-- A call and its result are recorded at most once each: a replay cannot duplicate them.
			CREATE UNIQUE INDEX events_call ON events(session_id, kind, call_id) WHERE call_id IS NOT NULL;
			CREATE TABLE tool_outputs (
				session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
				call_id TEXT NOT NULL,
				output TEXT NOT NULL,
				bytes INTEGER NOT NULL,
				created_at INTEGER NOT NULL,
				PRIMARY KEY (session_id, call_id)
			);
			CREATE INDEX tool_outputs_created ON tool_outputs(created_at);
		`);
	},
	// 2: whole outputs that were cut for the model, paged back with read_output. Kept per
	// session under an unguessable reference; retention and session deletion drop them.
	db => {
		db.exec(`
			CREATE TABLE full_outputs (
				session_id TEXT NOT NULL,
				ref TEXT NOT NULL,
				text TEXT NOT NULL,
				created_at INTEGER NOT NULL,
				PRIMARY KEY (session_id, ref)
			);
			CREATE INDEX full_outputs_created ON full_outputs(created_at);
		`);
	},
	// 3: full-text search over what was said (prompts and answers), kept in step with `events`
	// by triggers, so every writer (and every deletion or rewind) updates it. Additive: the
	// existing rows are indexed once here.
	db => {
		db.exec(`
			${EVENTS_FTS_TABLE};
			CREATE TRIGGER events_fts_insert AFTER INSERT ON events WHEN new.kind IN ('user', 'assistant') BEGIN
				INSERT INTO events_fts (content, session_id, seq) VALUES (new.content, new.session_id, new.seq);
			END;
			CREATE TRIGGER events_fts_delete AFTER DELETE ON events WHEN old.kind IN ('user', 'assistant') BEGIN
				DELETE FROM events_fts WHERE session_id = old.session_id AND seq = old.seq;
			END;
			${EVENTS_FTS_FILL};
		`);
	},
	// 4: no change to the tables. Marks a file that has been through the full check on open
	// (repair.ts): builds before this one left an index damaged when killed mid-commit, so each
	// older file is checked once; after that only a file a killed writer left is.
	() => undefined,
	// 5: which window has which session open (sessionClaims.ts), so a second window on the
	// workspace resumes a conversation no live window is writing. Additive.
	db => {
		db.exec('CREATE TABLE IF NOT EXISTS session_claims (session_id TEXT PRIMARY KEY, holder TEXT NOT NULL)');
	},
	// 6: what decides a session's next request (agent/memory/storedMemory.ts), as JSON, so the first
	// request after a reopen extends the last one before it. Additive.
	db => {
		db.exec('CREATE TABLE IF NOT EXISTS session_memory (session_id TEXT PRIMARY KEY, state TEXT NOT NULL)');
	},
];

/** Files below this version have not been checked yet (see migration 4). */
export const CHECKED_SINCE_VERSION = 4;

export function schemaVersion(opened: OpenDatabase): number {
	return read(opened, () => Number(opened.db.get('PRAGMA user_version')?.user_version ?? 0));
}

export const SCHEMA_VERSION = migrations.length;

/**
 * Brings the file to SCHEMA_VERSION. Each step reads the version inside its own transaction:
 * two windows opening one file at once run each migration once between them.
 */
export function migrate(opened: OpenDatabase): void {
	for (let done = false; !done;) {
		done = transaction(opened, () => {
			const current = Number(opened.db.get('PRAGMA user_version')?.user_version ?? 0);
			if (current > SCHEMA_VERSION) {
				throw new Error(
					`Keel's session database is from a newer version (schema ${current}, this build knows ${SCHEMA_VERSION}). Update Keel to open it.`,
				);
			}
			if (current === SCHEMA_VERSION) {
				return true;
			}
			migrations[current](opened.db);
			opened.db.exec(`PRAGMA user_version=${current + 1}`);
			return false;
		});
	}
}
