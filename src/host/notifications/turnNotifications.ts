import * as vscode from 'vscode';
import { Disposable } from '../../core/util/lifecycle';
import type { SessionController } from '../session/sessionController';
import { Notifier } from './notifier';
import { RetryProgress } from './retryProgress';

/** Brings Keel's chat into view (the notifications' "Open Chat", a consent card the user asked for). */
export function focusChat(): void {
	void vscode.commands.executeCommand('keel.chat.focus');
}

/**
 * What of a turn reaches VS Code outside the chat: notifications for what the user must know
 * or decide (retries with Cancel, Continue or Stop, a failure while the chat is hidden) and the
 * `keel.turnRunning` context key behind the title bar's Stop.
 */
export class TurnNotifications extends Disposable {
	constructor(controller: SessionController, chatVisible: () => boolean) {
		super();
		const notifier = new Notifier(focusChat, chatVisible, (id, proceed) => controller.decideContinue(id, proceed));
		const retryProgress = this._register(new RetryProgress(() => controller.stop()));
		this._register(
			controller.onDidEvent(event => {
				notifier.handle(event);
				retryProgress.handle(event);
			}),
		);
		this._register(
			controller.onDidChangeBusy(
				busy => void vscode.commands.executeCommand('setContext', 'keel.turnRunning', busy),
			),
		);
	}
}
