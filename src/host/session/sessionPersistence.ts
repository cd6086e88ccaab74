import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CanonicalMessage } from '../../core/llm/canonical';
import type { Logger } from '../../core/ports';
import type { ChatSession } from '../../core/session/chatSession';
import { interruptedResults } from '../../core/store/interrupted';
import { SessionRecorder } from '../../core/store/sessionRecorder';
import type { SessionStore } from '../../core/store/sessionStore';
import { StoredOutputs } from '../../core/store/storedOutputs';
import { InMemoryOutputStore, type OutputStore } from '../../core/tools/outputStore';
import { toDisposable, type IDisposable } from '../../core/util/lifecycle';
import { lazyRequire } from '../../core/util/lazyRequire';
import { readHistorySettings, readResolvedProvider } from '../models/providerConfig';

export interface ResumedSession {
	sessionId: string;
	history: CanonicalMessage[];
}

// The store's modules (SQLite, compiled from WebAssembly as it loads) are evaluated when the store
// is first opened, not when the host loads: esbuild leaves a module reached only through require()
// unevaluated until that call, and the SQLite package itself is a file of its own (esbuild.mjs).
const storeModule = lazyRequire(
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	() => require('../../core/store/sessionStore') as typeof import('../../core/store/sessionStore'),
);

/**
 * Owns the workspace's session database (one per workspace, in the extension's storage folder),
 * opened the first time a conversation or the history needs it, and attaches a recorder to every
 * session the controller starts. When the database cannot be opened or written, Keel says so
 * once and the conversation continues in memory.
 */
export class SessionPersistence implements IDisposable {
	private _store: { value: SessionStore | undefined } | undefined;
	private _outputs: OutputStore | undefined;

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
		put: (sessionId, text) => this._outputStore().put(sessionId, text),
		get: (sessionId, ref) => this._outputStore().get(sessionId, ref),
	};

	private _outputStore(): OutputStore {
		const store = this.store;
		return (this._outputs ??= store ? new StoredOutputs(store) : new InMemoryOutputStore());
	}

	private _open(): SessionStore | undefined {
		const file = path.join(this._storageFolder.fsPath, 'sessions.db');
		try {
			fs.mkdirSync(this._storageFolder.fsPath, { recursive: true });
			const store = storeModule().SessionStore.open(file);
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

	/** The last session, with a matching "interrupted" result recorded for every unanswered call. */
	lastSession(): ResumedSession | undefined {
		const id = this.store?.lastSessionId();
		return id ? this.load(id) : undefined;
	}

	load(sessionId: string): ResumedSession | undefined {
		const store = this.store;
		if (!store?.get(sessionId)) {
			return undefined;
		}
		const history = store.load(sessionId);
		for (const result of interruptedResults(history)) {
			// Written before any request, so the model sees a result for every call it made.
			try {
				store.append(sessionId, result);
			} catch (error) {
				this._logger.error('could not record an interrupted call', error);
			}
			history.push(result);
		}
		return { sessionId, history };
	}

	attach(session: ChatSession, sessionId: string): IDisposable {
		const store = this.store;
		if (!store) {
			return toDisposable(() => undefined);
		}
		const recorder = new SessionRecorder({
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
		const subscription = session.onDidEvent(event => recorder.handle(event));
		// Subscription first, then the recorder: its dispose writes a half-streamed answer.
		return toDisposable(() => {
			subscription.dispose();
			recorder.dispose();
		});
	}

	dispose(): void {
		// Never opened: nothing to close, and nothing may open it after this.
		const opened = this._store?.value;
		this._store = { value: undefined };
		opened?.close();
	}
}
