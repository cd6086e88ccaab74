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
import { readHistorySettings, readResolvedProvider } from '../models/providerConfig';
import { sharedStorageFolder } from './sharedStorage';

export type ResumedSession = ReopenedSession;

// The store's modules (SQLite, compiled from WebAssembly as it loads) are evaluated when the store
// is first opened, not when the host loads: esbuild leaves a module reached only through require()
// unevaluated until that call, and the SQLite package itself is a file of its own (esbuild.mjs).
const storeModule = lazyRequire(
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	() => require('../../core/store/sessionStore') as typeof import('../../core/store/sessionStore'),
);

/** The conversation read ahead while the chat view boots, and the state of the file it was read from. */
interface ReadAhead {
	resumed: ResumedSession;
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
	private _readAhead: ReadAhead | undefined;
	private _readingAhead: NodeJS.Timeout | NodeJS.Immediate | undefined;
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
	 * a matching "interrupted" result recorded for every unanswered call. Read ahead while the
	 * chat view booted when nothing was written to it since.
	 */
	lastSession(): ResumedSession | undefined {
		this._resumed = true;
		this._cancelReadAhead();
		const ahead = this._readAhead;
		this._readAhead = undefined;
		const store = this.store;
		const id = store?.resumableSessionId();
		if (!store || !id) {
			return undefined;
		}
		const meta = ahead?.resumed.sessionId === id ? store.get(id) : undefined;
		return meta && meta.eventCount === ahead?.eventCount && meta.updatedAt === ahead.updatedAt
			? ahead.resumed
			: this.load(id);
	}

	/**
	 * Reads the conversation the chat will ask for while its view boots in the renderer (the
	 * view's HTML is on its way; reading the store meanwhile takes hundreds of ms for a long
	 * session, and the webview would otherwise ask for it only when it is ready). Runs after
	 * the extension host has sent what the current task queued (VS Code flushes its messages
	 * on a zero timeout), so it never holds up the view itself. `then` runs after the read, in
	 * the same slot: what else the view will ask for can be built from it meanwhile.
	 */
	readAhead(then?: () => void): void {
		if (this._resumed || this._readingAhead) {
			return;
		}
		this._readingAhead = setTimeout(() => {
			this._readingAhead = setImmediate(() => {
				this._readingAhead = undefined;
				try {
					const started = performance.now();
					const store = this._resumed ? undefined : this.store;
					const opened = performance.now();
					const id = store?.resumableSessionId();
					const resumed = id ? this.load(id) : undefined;
					const meta = id ? store?.get(id) : undefined;
					this._readAhead =
						resumed && meta
							? { resumed, eventCount: meta.eventCount, updatedAt: meta.updatedAt }
							: undefined;
					if (resumed) {
						const ms = (to: number, from: number) => Math.round(to - from);
						this._logger.info(
							`read the last conversation (${resumed.history.length} messages) ahead of the chat view: ` +
								`the store opened in ${ms(opened, started)} ms, read in ${ms(performance.now(), opened)} ms`,
						);
					}
				} catch (error) {
					this._logger.warn(`could not read the last conversation ahead: ${(error as Error).message}`);
				}
				then?.();
			});
		});
	}

	private _cancelReadAhead(): void {
		if (this._readingAhead) {
			clearTimeout(this._readingAhead as NodeJS.Timeout);
			clearImmediate(this._readingAhead as NodeJS.Immediate);
			this._readingAhead = undefined;
		}
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
		this._cancelReadAhead();
		// Never opened: nothing to close, and nothing may open it after this.
		const opened = this._store?.value;
		this._store = { value: undefined };
		opened?.close();
	}
}
