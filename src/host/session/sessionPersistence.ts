import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CanonicalMessage } from '../../core/llm/canonical';
import type { Logger } from '../../core/ports';
import type { ChatSession } from '../../core/session/chatSession';
import { interruptedResults } from '../../core/store/interrupted';
import { SessionRecorder } from '../../core/store/sessionRecorder';
import { SessionStore } from '../../core/store/sessionStore';
import { toDisposable, type IDisposable } from '../../core/util/lifecycle';
import { readHistorySettings, readResolvedProvider } from '../models/providerConfig';

export interface ResumedSession {
	sessionId: string;
	history: CanonicalMessage[];
}

/**
 * Owns the workspace's session database (one per workspace, in the extension's storage folder)
 * and attaches a recorder to every session the controller starts. When the database cannot be
 * opened or written, Keel says so once and the conversation continues in memory.
 */
export class SessionPersistence implements IDisposable {
	readonly store: SessionStore | undefined;

	constructor(
		storageFolder: vscode.Uri,
		private readonly _logger: Logger,
	) {
		const file = path.join(storageFolder.fsPath, 'sessions.db');
		try {
			fs.mkdirSync(storageFolder.fsPath, { recursive: true });
			this.store = SessionStore.open(file);
			if (this.store.repaired) {
				_logger.warn(
					`session history at ${file} was damaged and has been repaired; no stored message was lost: ${this.store.repaired}`,
				);
			}
			const pruned = this.store.pruneToolOutputs(readHistorySettings().toolOutputRetentionDays);
			if (pruned > 0) {
				_logger.info(`removed ${pruned} stored tool outputs older than keel.history.toolOutputRetentionDays`);
			}
		} catch (error) {
			_logger.error(`could not open the session history at ${file}`, error);
			void vscode.window.showWarningMessage(
				`Keel could not open its session history (${(error as Error).message}). This conversation will not be saved.`,
			);
		}
	}

	/** The last session, with a matching "interrupted" result recorded for every unanswered call. */
	lastSession(): ResumedSession | undefined {
		const id = this.store?.lastSessionId();
		return id ? this.load(id) : undefined;
	}

	load(sessionId: string): ResumedSession | undefined {
		if (!this.store?.get(sessionId)) {
			return undefined;
		}
		const history = this.store.load(sessionId);
		for (const result of interruptedResults(history)) {
			// Written before any request, so the model sees a result for every call it made.
			try {
				this.store.append(sessionId, result);
			} catch (error) {
				this._logger.error('could not record an interrupted call', error);
			}
			history.push(result);
		}
		return { sessionId, history };
	}

	attach(session: ChatSession, sessionId: string): IDisposable {
		if (!this.store) {
			return toDisposable(() => undefined);
		}
		const recorder = new SessionRecorder({
			store: this.store,
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
		this.store?.close();
	}
}
