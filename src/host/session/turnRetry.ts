import { Disposable } from '../../core/util/lifecycle';
import type { ConversationRewind } from './conversationRewind';
import type { SessionController } from './sessionController';

/**
 * "Retry" on a failed turn: the same prompt (and images) sent again. When the failed turn ran no
 * tool, it is first taken out of the conversation, so the model sees the prompt once, as if the
 * failure never happened; a turn that already ran tools keeps them, so the model knows what it did.
 */
export class TurnRetry extends Disposable {
	private _failed: { sessionId: string; turnId: string } | undefined;

	constructor(
		private readonly _controller: SessionController,
		private readonly _rewind: Pick<ConversationRewind, 'rewind'>,
	) {
		super();
		this._register(
			_controller.onDidEvent(event => {
				if (event.type === 'turnFinished') {
					this._failed =
						event.reason === 'failed'
							? { sessionId: _controller.sessionId, turnId: event.turnId }
							: undefined;
				} else if (event.type === 'turnStarted') {
					this._failed = undefined;
				}
			}),
		);
	}

	/** Sends the failed turn again; says why not when there is none (it was retried, or the chat moved on). */
	retry(): void {
		const failed = this._failed;
		if (!failed || this._controller.busy || this._controller.sessionId !== failed.sessionId) {
			this._controller.showNotice({
				level: 'info',
				code: 'command',
				text: 'Nothing to retry: the last turn of this chat did not fail, or it was already sent again.',
			});
			return;
		}
		const history = this._controller.transcript();
		const at = history.map(m => m.kind).lastIndexOf('user');
		const prompt = history[at];
		if (at < 0 || prompt.kind !== 'user') {
			return;
		}
		const ranTools = history.slice(at).some(m => m.kind === 'tool_result');
		if (!ranTools) {
			try {
				this._rewind.rewind(failed.turnId);
			} catch {
				// No session store: the prompt is sent again after the failed one.
			}
		}
		this._failed = undefined;
		this._controller.sendFromUser(prompt.content, prompt.images);
	}
}
