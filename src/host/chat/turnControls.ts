import type { NoticeCode } from '../../core/agent/noticeCodes';
import { NothingToDo } from '../../core/errors';
import { splitAttachments } from '../../core/mentions/attachmentBlocks';
import type { Logger } from '../../core/ports';
import type { Event } from '../../core/util/emitter';
import { Disposable } from '../../core/util/lifecycle';
import type { TurnControl } from '../../shared/protocol';
import type { RestoreOutcome } from '../../core/checkpoints/checkpoints';
import type { ActiveConversation } from '../common/conversation';
import type { TurnInfo } from '../common/keelApi';
import type { WebviewChannel } from '../view/webviewChannel';

/** Each turn's changed files, its diff, and restoring them (checkpoints/turnChanges.ts). */
export interface TurnFiles {
	turns(): Promise<TurnInfo[]>;
	/** Opens the turn's diff. */
	diff(turnId: string): Promise<unknown>;
	restore(turnId: string): Promise<RestoreOutcome>;
	undoRestore(): Promise<RestoreOutcome>;
}

/** Rewinding the conversation to before a turn (session/conversationRewind.ts); it returns that turn's prompt. */
export interface TurnRewind {
	rewindTo(turnId: string): Promise<{ prompt: string; removedMessages: number }>;
}

/**
 * Each turn's controls in the chat: "N files changed" (its diff), "Restore files to here" (and
 * "Undo restore") and "Rewind the conversation to here". They are sent after every snapshot and
 * when a turn finishes, at once from what is known and again once the store and the checkpoints
 * have answered. A failure becomes a notice in the chat, never an exception in the message handler.
 */
export class TurnControls extends Disposable {
	private _turnsRequest = 0;
	/** The current chat's stored turns as last read (with their changed files); empty until read. */
	private _stored: TurnInfo[] = [];

	constructor(
		private readonly _changes: TurnFiles,
		private readonly _rewind: TurnRewind,
		private readonly _controller: Pick<ActiveConversation, 'onDidEvent' | 'snapshot' | 'showNotice'>,
		private readonly _channel: WebviewChannel,
		private readonly _logger: Logger,
		checkpointsChanged: Event<void>,
	) {
		super();
		this._register(
			_channel.onDidReset(() => {
				// Another chat (or a reloaded view): the turns read before belong to it no more.
				this._stored = [];
				void this.push();
			}),
		);
		this._register(checkpointsChanged(() => void this.push()));
		this._register(
			_controller.onDidEvent(event => {
				if (event.type === 'turnFinished') {
					// The controls show when the turn ends; the file counts follow when its closing snapshot is in (git can be slow).
					void this.push();
				}
			}),
		);
	}

	openChanges(turnId: string): void {
		this._try('turnChanges', async () => void (await this._changes.diff(turnId)));
	}

	restore(turnId: string): void {
		this._try('restore', async () => {
			const outcome = await this._changes.restore(turnId);
			this._notice(outcome.cancelled ? 'warning' : 'info', 'restore', outcome.message);
			void this.push();
		});
	}

	undoRestore(): void {
		this._try('restore', async () => {
			const outcome = await this._changes.undoRestore();
			this._notice(outcome.cancelled ? 'warning' : 'info', 'restore', outcome.message);
			void this.push();
		});
	}

	/**
	 * The conversation goes back to before the turn; what the user typed then returns to the
	 * composer, and the chat says what went, with Undo (files are left as they are).
	 */
	rewindTo(turnId: string): void {
		this._try('restore', async () => {
			const { prompt, removedMessages } = await this._rewind.rewindTo(turnId);
			this._channel.push({ type: 'didFillComposer', text: typedPrompt(prompt) });
			this._notice(
				'info',
				'rewound',
				`Rewound the conversation: ${removedMessages} message${removedMessages === 1 ? '' : 's'}, from your prompt on, left the chat and what the model sees; files are unchanged. The prompt is back in the box to edit and resend.`,
			);
			this._channel.flush();
		});
	}

	/**
	 * Sends the controls at once from what is known (turns run in this window are named by their
	 * items), then again once the store and the checkpoints have answered: a slow snapshot delays
	 * only the file counts, never the controls.
	 */
	async push(): Promise<void> {
		const request = ++this._turnsRequest;
		this._send();
		let turns: TurnInfo[];
		try {
			turns = await this._changes.turns();
		} catch (error) {
			this._logger.warn(`turn controls not shown: ${(error as Error).message}`);
			return;
		}
		if (request !== this._turnsRequest) {
			return; // a newer refresh is under way
		}
		this._stored = turns;
		this._send();
	}

	private _send(): void {
		this._channel.push({ type: 'didSetTurns', turns: pairTurns(this._controller.snapshot().items, this._stored) });
		this._channel.flush();
	}

	private _try(code: NoticeCode, run: () => Promise<void>): void {
		run().catch(error =>
			this._notice(error instanceof NothingToDo ? 'info' : 'error', code, (error as Error).message),
		);
	}

	private _notice(level: 'info' | 'warning' | 'error', code: NoticeCode, text: string): void {
		this._controller.showNotice({ level, code, text });
	}
}

/**
 * The per-turn controls: a user item named after its turn (`<turnId>-user`, a turn run in this
 * window) gets that turn, stored or not yet; the rest (a resumed conversation's `h<n>` items)
 * pair with the remaining stored turns from the end: the n-th last such message is the n-th
 * last such turn.
 */
export function pairTurns(
	items: ReadonlyArray<{ kind: string; id: string }>,
	turns: readonly TurnInfo[],
): TurnControl[] {
	const users = items.filter(item => item.kind === 'user');
	const byId = new Map(turns.map(turn => [turn.turnId, turn]));
	const named = new Map<string, TurnControl>();
	for (const item of users) {
		if (item.id.endsWith(LIVE_SUFFIX)) {
			const turnId = item.id.slice(0, -LIVE_SUFFIX.length);
			named.set(item.id, control(item.id, turnId, byId.get(turnId)));
		}
	}
	const claimed = new Set([...named.values()].map(control => control.turnId));
	const others = users.filter(item => !named.has(item.id));
	const rest = turns.filter(turn => !claimed.has(turn.turnId));
	const positional = new Map<string, TurnControl>();
	for (let i = 1; i <= Math.min(others.length, rest.length); i++) {
		const turn = rest[rest.length - i];
		const item = others[others.length - i];
		positional.set(item.id, control(item.id, turn.turnId, turn));
	}
	return users.flatMap(item => {
		const control = named.get(item.id) ?? positional.get(item.id);
		return control ? [control] : [];
	});
}

const LIVE_SUFFIX = '-user';

function control(itemId: string, turnId: string, turn: TurnInfo | undefined): TurnControl {
	return {
		itemId,
		turnId,
		filesChanged: turn?.changes?.length || undefined,
		...(turn?.restored ? { undoRestore: true } : {}),
	};
}

/** What the user typed, without the mentions' content appended at send (resending attaches it afresh). */
export function typedPrompt(prompt: string): string {
	return splitAttachments(prompt).text;
}
