import type { StoredEvent } from '../../core/store/sessionStore';
import type { SessionController } from './sessionController';
import type { SessionPersistence } from './sessionPersistence';

/**
 * "Rewind the conversation to here": the turn and everything after it leave the stored
 * session and the chat; the removed messages are kept (in memory) so the rewind can be undone.
 */
export class ConversationRewind {
	private _undo: { sessionId: string; removed: StoredEvent[] } | undefined;

	constructor(
		private readonly _persistence: SessionPersistence,
		private readonly _controller: SessionController,
	) {}

	/** Returns the rewound turn's prompt, for "edit and resend". */
	rewind(turnId: string): { prompt: string; removedMessages: number } {
		const store = this._persistence.store;
		if (!store) {
			throw new Error(
				'Rewinding needs the session history, which is not available (see the Keel output channel).',
			);
		}
		if (this._controller.session.busy) {
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
		const store = this._persistence.store;
		const undo = this._undo;
		if (!store || !undo || this._controller.session.busy) {
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
