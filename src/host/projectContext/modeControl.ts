import { describeMode } from '../../core/modes/modes';
import type { Logger } from '../../core/ports';
import { Disposable } from '../../core/util/lifecycle';
import type { WebviewChannel } from '../view/webviewChannel';
import type { ActiveConversation } from '../common/conversation';
import type { ModesHost } from './modesHost';

/**
 * The chat's mode picker: it is sent the current chat's mode and the modes to choose from after
 * every snapshot (a new webview, another chat) and whenever that chat's mode changes; the
 * user's pick switches it. A failure is a notice in the chat.
 */
export class ModeControl extends Disposable {
	constructor(
		private readonly _modes: ModesHost,
		private readonly _controller: Pick<ActiveConversation, 'sessionId' | 'showNotice'>,
		private readonly _channel: WebviewChannel,
		private readonly _logger: Logger,
	) {
		super();
		this._register(_channel.onDidReset(() => this.push()));
		this._register(_modes.onDidChange(({ sessionId }) => sessionId === _controller.sessionId && this.push()));
	}

	push(): void {
		try {
			const mode = this._modes.get(this._controller.sessionId);
			const modes = this._modes.all().map(m => ({ id: m.id, name: m.name, description: describeMode(m) }));
			this._channel.push({ type: 'didSetMode', mode: { id: mode.id, name: mode.name }, modes });
			this._channel.flush();
		} catch (error) {
			this._logger.warn(`mode not shown: ${(error as Error).message}`);
		}
	}

	/** The picker's choice (the mode's change notice and the push follow from the switch itself). */
	set(name: string): void {
		try {
			this._modes.set(this._controller.sessionId, name);
		} catch (error) {
			this._controller.showNotice({ level: 'error', code: 'mode', text: (error as Error).message });
		}
	}
}
