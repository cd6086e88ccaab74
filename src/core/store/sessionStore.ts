import type { Database } from 'node-sqlite3-wasm';
import type { CanonicalMessage } from '../llm/canonical';
import { searchSessions, type SearchHit } from './historySearch';
import { SessionClaims } from './sessionClaims';
import { bootTime } from './database/lockHolder';
import { checkAndRepair, DamagedStoreError } from './database/repair';
import { CHECKED_SINCE_VERSION, migrate, schemaVersion } from './database/schema';
import { whyCheck, writeSeal } from './database/seal';
import { closeDatabase, openDatabase, read, transaction, type OpenDatabase } from './database/sqlite';
import { EVENT_ROWS, toEvent, type EventRow, type StoredEvent } from './storedEvents';

export { PRUNED_OUTPUT, type StoredEvent } from './storedEvents';

export interface SessionMeta {
	id: string;
	title: string;
	createdAt: number;
	updatedAt: number;
	provider: string;
	model: string;
	eventCount: number;
}

export interface AppendContext {
	turnId?: string;
	provider?: string;
	model?: string;
}

/** A session's newest events, and how many events of each kind come before the first of them. */
export interface StoredTail {
	events: StoredEvent[];
	before: Partial<Record<CanonicalMessage['kind'], number>>;
}

export interface StoreOpenOptions {
	/** When this machine started (ms since the epoch); tests set it to stand for a restart. */
	bootTime?: number;
}

/** How long closing waits for another window's transaction before it skips the seal. */
const SEAL_WAIT_MS = 1_000;

/**
 * Sessions as an append-only event log: one row per canonical message, committed before
 * `append` returns. A session row appears with its first message, so an empty "New Chat"
 * leaves nothing behind. Synchronous on purpose: the loop emits `messageAppended` before it
 * runs the call, so a tool call is on disk before the tool starts.
 */
export class SessionStore {
	private readonly _db: Database;
	/** Which window has which conversation open (sessionClaims.ts). */
	readonly claims: SessionClaims;

	private constructor(
		private readonly _opened: OpenDatabase,
		private readonly _now: () => number,
		/** Why the whole file was checked on open (for the log), or undefined when the cheap tests passed. */
		readonly checked: string | undefined,
		/** What the check on open repaired (for the log), or undefined when the file was sound. */
		readonly repaired: string | undefined,
	) {
		this._db = _opened.db;
		this.claims = new SessionClaims(_opened);
	}

	/**
	 * Opens (or creates) the database: rolls back a commit a killed process left half done, then
	 * migrates. The whole file is checked, and its derived data repaired (repair.ts), when a
	 * killed writer left its journal, when no build has checked the file yet, or when its seal
	 * says it may have been damaged below SQLite (seal.ts); the check reads every page
	 * (bench/store.bench.ts), too slow for every open. A file damaged beyond repair throws
	 * DamagedStoreError, whose message says what to do. Other windows may have the file open.
	 */
	static open(file: string, now: () => number = Date.now, options: StoreOpenOptions = {}): SessionStore {
		let opened: OpenDatabase & { hotJournal: boolean };
		try {
			opened = openDatabase(file);
		} catch (error) {
			throw /malformed|not a database/i.test((error as Error).message)
				? new DamagedStoreError(file, (error as Error).message)
				: error;
		}
		try {
			const why = opened.hotJournal
				? 'a window was killed in the middle of a commit (its journal was played back)'
				: schemaVersion(opened) < CHECKED_SINCE_VERSION
					? 'no build has checked this file yet'
					: read(opened, () => whyCheck(opened.file, options.bootTime ?? bootTime()));
			const repaired = why === undefined ? undefined : checkAndRepair(opened);
			if (why !== undefined) {
				transaction(opened, () => writeSeal(opened.file));
			}
			migrate(opened);
			return new SessionStore(opened, now, why, repaired);
		} catch (error) {
			closeDatabase(opened);
			throw error;
		}
	}

	/** Appends one message in one durable transaction; returns its sequence number. */
	append(sessionId: string, message: CanonicalMessage, context: AppendContext = {}): number {
		const now = this._now();
		return transaction(this._opened, () => {
			// Read inside the write transaction, so a second writer cannot take the same number.
			const seq = Number(
				this._db.get('SELECT COALESCE(MAX(seq), -1) + 1 AS next FROM events WHERE session_id = ?', [sessionId])
					?.next ?? 0,
			);
			this._db.run(
				'INSERT OR IGNORE INTO sessions (id, title, created_at, updated_at, provider, model) VALUES (?, ?, ?, ?, ?, ?)',
				[sessionId, '', now, now, context.provider ?? '', context.model ?? ''],
			);
			let data: unknown = null;
			let callId: string | null = null;
			if (message.kind === 'user' && message.images?.length) {
				// Pasted images stay with the session, so a resumed chat shows and sends them again.
				data = { images: message.images };
			} else if (message.kind === 'tool_call') {
				data = message.data;
				callId = message.data.id;
			} else if (message.kind === 'tool_result') {
				// The output lives in tool_outputs so retention can drop it and keep the conversation.
				const { output, ...rest } = message.data;
				data = rest;
				callId = message.data.toolCallId;
				this._db.run(
					'INSERT INTO tool_outputs (session_id, call_id, output, bytes, created_at) VALUES (?, ?, ?, ?, ?)',
					[sessionId, callId, output, Buffer.byteLength(output), now],
				);
			}
			const content = message.kind === 'tool_result' ? '' : message.content;
			this._db.run(
				'INSERT INTO events (session_id, seq, kind, turn_id, call_id, created_at, content, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
				[
					sessionId,
					seq,
					message.kind,
					context.turnId ?? null,
					callId,
					now,
					content,
					data === null ? null : JSON.stringify(data),
				],
			);
			this._db.run(
				`UPDATE sessions SET updated_at = ?, event_count = event_count + 1,
					title = CASE WHEN title = '' THEN ? ELSE title END,
					provider = COALESCE(?, provider), model = COALESCE(?, model) WHERE id = ?`,
				[now, titleFrom(message), context.provider ?? null, context.model ?? null, sessionId],
			);
			return seq;
		});
	}

	events(sessionId: string): StoredEvent[] {
		const rows = this._read(() =>
			this._db.all(`${EVENT_ROWS} WHERE e.session_id = ? ORDER BY e.seq`, [sessionId]),
		) as EventRow[];
		return rows.map(toEvent);
	}

	/**
	 * The newest `limit` events of a session, in order, and how many events of each kind come
	 * before them, in one read: a long conversation's newest part is shown before the rest is
	 * read (reading it all is the slow part of reopening one).
	 */
	tail(sessionId: string, limit: number): StoredTail {
		return this._read(() => {
			const rows = (
				this._db.all(`${EVENT_ROWS} WHERE e.session_id = ? ORDER BY e.seq DESC LIMIT ?`, [
					sessionId,
					limit,
				]) as EventRow[]
			).reverse();
			const counts = rows.length
				? (this._db.all(
						'SELECT kind, COUNT(*) AS n FROM events WHERE session_id = ? AND seq < ? GROUP BY kind',
						[sessionId, Number(rows[0].seq)],
					) as Array<{ kind: CanonicalMessage['kind']; n: number }>)
				: [];
			return {
				events: rows.map(toEvent),
				before: Object.fromEntries(counts.map(({ kind, n }) => [kind, Number(n)])),
			};
		});
	}

	load(sessionId: string): CanonicalMessage[] {
		return this.events(sessionId).map(event => event.message);
	}

	get(sessionId: string): SessionMeta | undefined {
		const row = this._read(() => this._db.get('SELECT * FROM sessions WHERE id = ?', [sessionId])) as Record<
			string,
			string | number
		> | null;
		return row ? toMeta(row) : undefined;
	}

	/** Most recently used first. */
	list(limit = 500): SessionMeta[] {
		return (
			this._read(() =>
				this._db.all('SELECT * FROM sessions ORDER BY updated_at DESC, rowid DESC LIMIT ?', [limit]),
			) as Array<Record<string, string | number>>
		).map(toMeta);
	}

	lastSessionId(): string | undefined {
		return this.list(1)[0]?.id;
	}

	/** The most recent session no other live window has open: the one a window that opens resumes. */
	resumableSessionId(): string | undefined {
		return this.claims.firstUnclaimed(this.list(50).map(meta => meta.id));
	}

	rename(sessionId: string, title: string): void {
		transaction(this._opened, () =>
			this._db.run('UPDATE sessions SET title = ? WHERE id = ?', [title.trim() || 'Untitled', sessionId]),
		);
	}

	/** Deletes the session, its events and its stored tool outputs (cascade). */
	delete(sessionId: string): void {
		transaction(this._opened, () => {
			this._db.run('DELETE FROM tool_outputs WHERE session_id = ?', [sessionId]);
			this._db.run('DELETE FROM full_outputs WHERE session_id = ?', [sessionId]);
			this._db.run('DELETE FROM events WHERE session_id = ?', [sessionId]);
			this._db.run('DELETE FROM session_memory WHERE session_id = ?', [sessionId]);
			this._db.run('DELETE FROM sessions WHERE id = ?', [sessionId]);
		});
	}

	/** Keeps what decides the session's next request (JSON); only for a session that has a message. */
	putMemory(sessionId: string, state: unknown): void {
		transaction(this._opened, () =>
			this._db.run(
				'INSERT OR REPLACE INTO session_memory (session_id, state) SELECT id, ? FROM sessions WHERE id = ?',
				[JSON.stringify(state), sessionId],
			),
		);
	}

	/** What `putMemory` kept, parsed; undefined when nothing (or nothing readable) was kept. */
	getMemory(sessionId: string): unknown {
		const row = this._read(() =>
			this._db.get('SELECT state FROM session_memory WHERE session_id = ?', [sessionId]),
		);
		try {
			return row ? (JSON.parse(String(row.state)) as unknown) : undefined;
		} catch {
			return undefined;
		}
	}

	/** Drops stored tool outputs older than `days` (0 keeps them forever); returns how many went. */
	pruneToolOutputs(days: number): number {
		if (!(days > 0)) {
			return 0;
		}
		const cutoff = this._now() - days * 86_400_000;
		return transaction(
			this._opened,
			() =>
				this._db.run('DELETE FROM tool_outputs WHERE created_at < ?', [cutoff]).changes +
				this._db.run('DELETE FROM full_outputs WHERE created_at < ?', [cutoff]).changes,
		);
	}

	/** Keeps a whole output under `ref` for read_output; durable like every other write. */
	putFullOutput(sessionId: string, ref: string, text: string): void {
		transaction(this._opened, () =>
			this._db.run(
				'INSERT OR REPLACE INTO full_outputs (session_id, ref, text, created_at) VALUES (?, ?, ?, ?)',
				[sessionId, ref, text, this._now()],
			),
		);
	}

	/** The output stored under `ref` in this session only; another session's ref finds nothing. */
	getFullOutput(sessionId: string, ref: string): string | undefined {
		const row = this._read(() =>
			this._db.get('SELECT text FROM full_outputs WHERE session_id = ? AND ref = ?', [sessionId, ref]),
		);
		return row ? String(row.text) : undefined;
	}

	/** Full-text search over prompts, answers and titles (historySearch.ts). */
	search(query: string, limit?: number): Array<SearchHit & { meta: SessionMeta }> {
		return this._read(() =>
			searchSessions(this._db, query, limit).flatMap(hit => {
				const meta = this.get(hit.sessionId);
				return meta ? [{ ...hit, meta }] : [];
			}),
		);
	}

	/** The session's turns in order: id and prompt (the first user message of each). */
	turns(sessionId: string): Array<{ turnId: string; prompt: string; seq: number; createdAt: number }> {
		const rows = this._read(() =>
			this._db.all(
				`SELECT turn_id, MIN(seq) AS seq, MIN(created_at) AS created_at,
				(SELECT content FROM events u WHERE u.session_id = e.session_id AND u.turn_id = e.turn_id AND u.kind = 'user' ORDER BY seq LIMIT 1) AS prompt
			 FROM events e WHERE session_id = ? AND turn_id IS NOT NULL GROUP BY turn_id ORDER BY MIN(seq)`,
				[sessionId],
			),
		) as Array<Record<string, string | number | null>>;
		return rows.map(row => ({
			turnId: String(row.turn_id),
			prompt: String(row.prompt ?? ''),
			seq: Number(row.seq),
			createdAt: Number(row.created_at),
		}));
	}

	/**
	 * Rewind: removes the turn and everything after it; returns what was removed (with tool
	 * outputs) so it can be put back.
	 */
	truncateFromTurn(sessionId: string, turnId: string): StoredEvent[] {
		// One transaction: another window cannot append between what is read and what is removed.
		return transaction(this._opened, () => {
			const from = this.turns(sessionId).find(turn => turn.turnId === turnId)?.seq;
			if (from === undefined) {
				return [];
			}
			const removed = this.events(sessionId).filter(event => event.seq >= from);
			this._db.run(
				`DELETE FROM tool_outputs WHERE session_id = ? AND call_id IN (SELECT call_id FROM events WHERE session_id = ? AND seq >= ? AND kind = 'tool_result')`,
				[sessionId, sessionId, from],
			);
			this._db.run('DELETE FROM events WHERE session_id = ? AND seq >= ?', [sessionId, from]);
			this._db.run(
				'UPDATE sessions SET event_count = (SELECT COUNT(*) FROM events WHERE session_id = ?), updated_at = ? WHERE id = ?',
				[sessionId, this._now(), sessionId],
			);
			return removed;
		});
	}

	/** SQLite's own consistency check: 'ok' or the problems it found. */
	integrityCheck(): string {
		return (this._read(() => this._db.all('PRAGMA integrity_check')) as Array<Record<string, string>>)
			.map(row => row.integrity_check)
			.join('; ');
	}

	/**
	 * Seals the file as it is (seal.ts), so the next open can tell it undamaged in a few ms, then
	 * closes. Another window writing at that moment is waited for briefly; the seal is skipped
	 * rather than holding up VS Code's shutdown.
	 */
	close(): void {
		if (!this._db.isOpen) {
			return;
		}
		try {
			this.claims.release(undefined, SEAL_WAIT_MS);
			transaction(this._opened, () => writeSeal(this._opened.file), SEAL_WAIT_MS);
		} catch {
			// No seal: the next open decides by the file's time (seal.ts). Claims left: seen gone with this process.
		}
		closeDatabase(this._opened);
	}

	private _read<T>(fn: () => T): T {
		return read(this._opened, fn);
	}
}

function titleFrom(message: CanonicalMessage): string {
	if (message.kind !== 'user') {
		return '';
	}
	const line = message.content.trim().split('\n')[0].trim();
	return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

function toMeta(row: Record<string, string | number>): SessionMeta {
	return {
		id: String(row.id),
		title: String(row.title) || 'Untitled',
		createdAt: Number(row.created_at),
		updatedAt: Number(row.updated_at),
		provider: String(row.provider),
		model: String(row.model),
		eventCount: Number(row.event_count),
	};
}
