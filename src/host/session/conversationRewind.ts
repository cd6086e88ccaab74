import type { RestoreOutcome } from '../../core/checkpoints/checkpoints';
import type { StoredEvent } from '../../core/store/sessionStore';
import type { ConflictChoice } from '../common/keelApi';
import type { SessionController } from './sessionController';
import type { SessionPersistence } from './sessionPersistence';

/** Restores the files to before a turn (checkpoints/turnChanges.ts), for a rewind that takes the files along. */
export type RestoreFiles = (turnId: string, onConflict?: ConflictChoice) => Promise<RestoreOutcome>;

/**
 * "Rewind the conversation to here": the turn and everything after it leave the stored
 * session and the chat; the removed messages are kept (in memory) so the rewind can be undone.
 */
export class ConversationRewind {
	private _undo: { sessionId: string; removed: StoredEvent[] } | undefined;

	constructor(
		private readonly _persistence: SessionPersistence,
		private readonly _controller: SessionController,
		private readonly _restoreFiles: RestoreFiles,
	) {}

	/** Rewinds to before `turnId`, with its files when asked; returns that turn's prompt to edit and resend. */
	async rewindTo(
		turnId: string,
		options: { restoreFiles?: boolean; onConflict?: ConflictChoice } = {},
	): Promise<{ prompt: string; removedMessages: number; restored?: RestoreOutcome }> {
		const restored = options.restoreFiles ? await this._restoreFiles(turnId, options.onConflict) : undefined;
		if (restored?.cancelled) {
			return { prompt: '', removedMessages: 0, restored };
		}
		return { ...this.rewind(turnId), restored };
	}

	/** Returns the rewound turn's prompt, for "edit and resend". */
	rewind(turnId: string): { prompt: string; removedMessages: number } {
		const store = this._persistence.store;
		if (!store) {
			throw new Error(
				'Rewinding needs the session history, which is not available (see the Keel output channel).',
			);
		}
		if (this._controller.busy) {
			throw new Error('A turn is running. Stop it before rewinding.');
		}
		const sessionId = this._controller.sessionId;
		const turn = store.turns(sessionId).find(t => t.turnId === turnId);
		if (!turn) {
			throw new Error('That turn is not in this conversation.');
		}
		const removed = store.truncateFromTurn(sessionId, turnId);
		this._undo = { sessionId, removed };
		this._controller.resume(sessionId);
		return { prompt: turn.prompt, removedMessages: removed.length };
	}

	/** Puts the last rewind's messages back, as long as nothing was said since. */
	undo(): boolean {
		const undo = this._undo;
		if (!undo || this._controller.busy) {
			return false;
		}
		const store = this._persistence.store;
		if (!store) {
			return false;
		}
		const lastTurn = store.turns(undo.sessionId).at(-1);
		if (lastTurn && undo.removed[0] && lastTurn.seq >= undo.removed[0].seq) {
			return false; // the conversation went on after the rewind; the old branch no longer fits
		}
		for (const event of undo.removed) {
			store.append(undo.sessionId, event.message, { turnId: event.turnId });
		}
		this._undo = undefined;
		if (this._controller.sessionId === undo.sessionId) {
			this._controller.resume(undo.sessionId);
		}
		return true;
	}
}
