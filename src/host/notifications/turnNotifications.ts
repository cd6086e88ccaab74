import * as vscode from 'vscode';
import { Disposable } from '../../core/util/lifecycle';
import type { FeatureCommands } from '../common/commandIds';
import type { ActiveConversation } from '../common/conversation';
import { Notifier } from './notifier';
import { RetryProgress } from './retryProgress';

/** Brings Keel's chat into view (the notifications' "Open Chat", a consent card the user asked for). */
export function focusChat(): void {
	void vscode.commands.executeCommand('keel.chat.focus');
}

/**
 * "Continue" from a notification's link: the question may have been answered in the chat in the
 * meantime, and then the click says so instead of doing nothing.
 */
function continueFromNotification(controller: Pick<ActiveConversation, 'decideContinue'>, id: unknown): void {
	if (typeof id !== 'string' || !controller.decideContinue(id, true)) {
		void vscode.window.showInformationMessage(
			'Keel: that question was already answered in the chat, so this Continue does nothing.',
		);
	}
}

export function notificationCommands(
	controller: Pick<ActiveConversation, 'decideContinue'>,
): FeatureCommands<'keel.continueTurn'> {
	return { 'keel.continueTurn': id => continueFromNotification(controller, id) };
}

/**
 * What of a turn reaches VS Code outside the chat: notifications for what the user must know
 * or decide (retries with Cancel, Continue or Stop, a failure while the chat is hidden) and the
 * `keel.turnRunning` context key behind the title bar's Stop.
 */
export class TurnNotifications extends Disposable {
	constructor(
		controller: Pick<ActiveConversation, 'decideContinue' | 'stop' | 'onDidEvent' | 'onDidChangeBusy'>,
		chatVisible: () => boolean,
	) {
		super();
		const notifier = this._register(
			new Notifier(focusChat, chatVisible, (id, proceed) => controller.decideContinue(id, proceed)),
		);
		const retryProgress = this._register(new RetryProgress(() => controller.stop(), chatVisible));
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
