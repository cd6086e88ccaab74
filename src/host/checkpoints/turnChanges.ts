import type { AgentEvent, NoticeLevel } from '../../core/agent/events';
import type { NoticeCode } from '../../core/agent/noticeCodes';
import type { RestoreOutcome } from '../../core/checkpoints/checkpoints';
import type { SessionStore } from '../../core/store/sessionStore';
import type { Event } from '../../core/util/emitter';
import { Disposable } from '../../core/util/lifecycle';
import type { ConflictChoice, KeelApi, TurnDiff, TurnInfo } from '../common/keelApi';
import { CheckpointDiff } from './checkpointDiff';
import type { CheckpointsHost } from './checkpointsHost';

/** What the checkpoints follow of the conversation on screen (the session controller). */
export interface CurrentConversation {
	readonly sessionId: string;
	readonly busy: boolean;
	readonly onDidEvent: Event<AgentEvent>;
	/** A notice in the chat of `sessionId`, if that chat is still the one on screen. */
	showNoticeIn(
		sessionId: string,
		notice: { turnId?: string; level: NoticeLevel; code: NoticeCode; text: string },
	): void;
}

/**
 * Checkpoints around the turns of the conversation on screen: a snapshot before a turn's first
 * change and after it ends (what a snapshot has to say goes to that turn's chat); the turns with
 * the files each changed, the diff of a turn, and restoring the files to before a turn (or
 * undoing that), which "N files changed", "Restore files to here" and the palette commands act
 * on. Files are never restored under a running turn.
 */
export class TurnChanges extends Disposable {
	private readonly _diff: CheckpointDiff;

	constructor(
		private readonly _checkpoints: CheckpointsHost,
		private readonly _conversation: CurrentConversation,
		private readonly _sessionStore: () => SessionStore | undefined,
	) {
		super();
		this._diff = this._register(new CheckpointDiff(_checkpoints.checkpoints));
		this._register(_conversation.onDidEvent(event => _checkpoints.handle(_conversation.sessionId, event)));
		this._register(_checkpoints.onDidNotice(notice => _conversation.showNoticeIn(notice.sessionId, notice)));
	}

	async turns(): Promise<TurnInfo[]> {
		const sessionId = this._conversation.sessionId;
		const checkpoints = await this._checkpoints.turns(sessionId);
		// Read after the wait: a rewind or a turn meanwhile shows in the list.
		const stored = this._sessionStore()?.turns(sessionId) ?? [];
		const restored = (await this._checkpoints.checkpoints.lastRestore(sessionId))?.turnId;
		return stored.map(turn => ({
			turnId: turn.turnId,
			prompt: turn.prompt,
			changes: checkpoints.find(c => c.turnId === turn.turnId)?.files,
			...(turn.turnId === restored ? { restored: true } : {}),
		}));
	}

	async diff(turnId: string, open = true): Promise<TurnDiff> {
		const sessionId = this._conversation.sessionId;
		const checkpoint = (await this._checkpoints.turns(sessionId)).find(c => c.turnId === turnId && c.after);
		if (!checkpoint) {
			throw new Error('That turn changed no files (or ran before checkpoints were on).');
		}
		const prompt =
			this._sessionStore()
				?.turns(sessionId)
				.find(t => t.turnId === turnId)?.prompt ?? '';
		const diff = this._diff.describe(checkpoint, prompt);
		if (open) {
			await this._diff.open(diff);
		}
		return diff;
	}

	restore(turnId: string, onConflict?: ConflictChoice): Promise<RestoreOutcome> {
		return this._whileIdle(() => this._checkpoints.restore(this._conversation.sessionId, turnId, onConflict));
	}

	undoRestore(onConflict?: ConflictChoice): Promise<RestoreOutcome> {
		return this._whileIdle(() => this._checkpoints.undoRestore(this._conversation.sessionId, onConflict));
	}

	readonly api: Pick<KeelApi, 'turns' | 'turnDiff' | 'restoreCheckpoint' | 'undoRestore'> = {
		turns: () => this.turns(),
		turnDiff: (turnId, open) => this.diff(turnId, open),
		restoreCheckpoint: (turnId, onConflict) => this.restore(turnId, onConflict),
		undoRestore: onConflict => this.undoRestore(onConflict),
	};

	private async _whileIdle<T>(run: () => Promise<T>): Promise<T> {
		if (this._conversation.busy) {
			throw new Error('A turn is running. Stop it before restoring files.');
		}
		return run();
	}
}
