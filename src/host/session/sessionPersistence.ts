import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import type { ChatSession } from '../../core/session/chatSession';
import { keepSession, reopenSession, type ReopenedSession } from '../../core/store/sessionKeeping';
import type { SessionStore } from '../../core/store/sessionStore';
import { StoredOutputs } from '../../core/store/storedOutputs';
import { InMemoryOutputStore, type OutputStore } from '../../core/tools/outputStore';
import { toDisposable, type IDisposable } from '../../core/util/lifecycle';
import { lazyRequire } from '../../core/util/lazyRequire';
import { afterMessagesSent } from '../common/afterSent';
import { readHistorySettings, readResolvedProvider } from '../models/providerConfig';
import { FIRST_TAIL_MESSAGES, type HistoryTail } from '../view/fromHistory';
import { sharedStorageFolder } from './sharedStorage';

export type ResumedSession = ReopenedSession;

// The store's modules (SQLite, compiled from WebAssembly as it loads) are evaluated when the store
// is first opened, not when the host loads: esbuild leaves a module reached only through require()
// unevaluated until that call, and the SQLite package itself is a file of its own (esbuild.mjs).
const storeModule = lazyRequire(
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	() => require('../../core/store/sessionStore') as typeof import('../../core/store/sessionStore'),
);

/** The newest part of the conversation a window resumes, read while its chat view boots, and the state of the file it was read from. */
interface ReadTail {
	tail: HistoryTail;
	limit: number;
	eventCount: number;
	updatedAt: number;
}

/**
 * Owns the workspace's session database (one per workspace, shared by its windows: see
 * sharedStorage.ts), opened the first time a conversation or the history needs it, and attaches
 * a recorder to every session the controller starts, which claims it for this window. When the
 * database cannot be opened or written, Keel says so once and the conversation continues in
 * memory.
 */
export class SessionPersistence implements IDisposable {
	private _store: { value: SessionStore | undefined } | undefined;
	private _outputs: OutputStore | undefined;
	private _tail: ReadTail | undefined;
	private _cancelReadAhead: (() => void) | undefined;
	/** The first conversation was handed out: there is nothing left to read ahead. */
	private _resumed = false;

	constructor(
		private readonly _storageFolder: vscode.Uri,
		private readonly _logger: Logger,
	) {}

	/** The database, opened on first use; undefined when it cannot be opened (said once). */
	get store(): SessionStore | undefined {
		return (this._store ??= { value: this._open() }).value;
	}

	/** read_output's store: beside the session in the database, in memory when there is none. */
	readonly outputs: OutputStore = {
		put: (sessionId, text, ref) => this._outputStore().put(sessionId, text, ref),
		get: (sessionId, ref) => this._outputStore().get(sessionId, ref),
	};

	private _outputStore(): OutputStore {
		const store = this.store;
		return (this._outputs ??= store ? new StoredOutputs(store) : new InMemoryOutputStore());
	}

	private _open(): SessionStore | undefined {
		const own = this._storageFolder.fsPath;
		const shared = sharedStorageFolder(own);
		const folder = shared && fs.existsSync(path.dirname(shared)) ? shared : own;
		const file = path.join(folder, 'sessions.db');
		try {
			fs.mkdirSync(folder, { recursive: true });
			const store = storeModule().SessionStore.open(file);
			if (store.checked) {
				this._logger.info(`checked the whole session history at ${file} because ${store.checked}`);
			}
			if (store.repaired) {
				this._logger.warn(
					`session history at ${file} was damaged and has been repaired; no stored message was lost: ${store.repaired}`,
				);
			}
			const pruned = store.pruneToolOutputs(readHistorySettings().toolOutputRetentionDays);
			if (pruned > 0) {
				this._logger.info(
					`removed ${pruned} stored tool outputs older than keel.history.toolOutputRetentionDays`,
				);
			}
			return store;
		} catch (error) {
			this._logger.error(`could not open the session history at ${file}`, error);
			void vscode.window.showWarningMessage(
				`Keel could not open its session history (${(error as Error).message}). This conversation will not be saved.`,
			);
			return undefined;
		}
	}

	/**
	 * The conversation a window resumes: the most recent one no other live window has open, with
	 * a matching "interrupted" result recorded for every unanswered call.
	 */
	lastSession(): ResumedSession | undefined {
		this._resumed = true;
		this._cancelReadAhead?.();
		this._tail = undefined;
		const store = this.store;
		const id = store?.resumableSessionId();
		return store && id ? this.load(id) : undefined;
	}

	/**
	 * The newest `limit` messages (or more) of the conversation `lastSession` would return, and
	 * how many of each kind come before them; nothing once a conversation was resumed. A tail
	 * read ahead is used while nothing was written to the conversation since.
	 */
	lastSessionTail(limit: number): HistoryTail | undefined {
		try {
			return this._readTail(limit);
		} catch (error) {
			// The conversation is then read whole, as before there was a tail to read.
			this._logger.warn(`could not read the newest part of the last conversation: ${(error as Error).message}`);
			return undefined;
		}
	}

	private _readTail(limit: number): HistoryTail | undefined {
		const store = this._resumed ? undefined : this.store;
		const id = store?.resumableSessionId();
		const meta = id ? store?.get(id) : undefined;
		if (!store || !id || !meta) {
			return undefined;
		}
		const ahead = this._tail;
		if (
			ahead?.tail.sessionId === id &&
			ahead.limit >= limit &&
			ahead.eventCount === meta.eventCount &&
			ahead.updatedAt === meta.updatedAt
		) {
			return ahead.tail;
		}
		const { events, before } = store.tail(id, limit);
		const tail = { sessionId: id, messages: events.map(event => event.message), before };
		this._tail = { tail, limit, eventCount: meta.eventCount, updatedAt: meta.updatedAt };
		return tail;
	}

	/**
	 * Opens the store and reads the newest part of the conversation the chat will ask for while
	 * its view boots in the renderer (opening the store compiles SQLite; the webview would
	 * otherwise ask only when it is ready). Runs after the extension host has sent what the
	 * current task queued, so it never holds up the view itself.
	 */
	readAhead(): void {
		if (this._resumed || this._cancelReadAhead) {
			return;
		}
		this._cancelReadAhead = afterMessagesSent(() => {
			try {
				const started = performance.now();
				const store = this._resumed ? undefined : this.store;
				const opened = performance.now();
				const tail = store ? this.lastSessionTail(FIRST_TAIL_MESSAGES) : undefined;
				if (tail) {
					const ms = (to: number, from: number) => Math.round(to - from);
					this._logger.info(
						`read the newest ${tail.messages.length} messages of the last conversation ahead of the chat view: ` +
							`the store opened in ${ms(opened, started)} ms, read in ${ms(performance.now(), opened)} ms`,
					);
				}
			} catch (error) {
				this._logger.warn(`could not read the last conversation ahead: ${(error as Error).message}`);
			}
		});
	}

	load(sessionId: string): ResumedSession | undefined {
		const store = this.store;
		return store ? reopenSession(store, sessionId, this._logger) : undefined;
	}

	attach(session: ChatSession, sessionId: string): IDisposable {
		const store = this.store;
		if (!store) {
			return toDisposable(() => undefined);
		}
		const kept = keepSession(session, {
			store,
			sessionId,
			provider: () => {
				const resolved = readResolvedProvider();
				return { provider: resolved.preset.kind, model: resolved.model };
			},
			logger: this._logger,
			onDidFail: error =>
				void vscode.window.showWarningMessage(
					`Keel could not save this conversation (${error.message}). It goes on, but will not be in the history.`,
				),
		});
		// Another window opening the workspace resumes some other conversation than this one.
		this._claim(store, sessionId, true);
		return toDisposable(() => {
			kept.dispose();
			this._claim(store, sessionId, false);
		});
	}

	private _claim(store: SessionStore, sessionId: string, claim: boolean): void {
		try {
			if (claim) {
				store.claims.claim(sessionId);
			} else {
				store.claims.release(sessionId);
			}
		} catch (error) {
			// Only which window resumes what depends on it; the conversation is saved all the same.
			this._logger.warn(
				`could not ${claim ? 'claim' : 'release'} session ${sessionId}: ${(error as Error).message}`,
			);
		}
	}

	dispose(): void {
		this._cancelReadAhead?.();
		// Never opened: nothing to close, and nothing may open it after this.
		const opened = this._store?.value;
		this._store = { value: undefined };
		opened?.close();
	}
}
