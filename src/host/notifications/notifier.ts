import * as vscode from 'vscode';
import type { AgentEvent } from '../../core/agent/events';
import { RETRY_NOTICE_CODES } from '../../core/agent/noticeCodes';

/**
 * Turns the agent events a user must know about into VS Code notifications. The chat shows
 * everything inline; a notification is for when the chat may not be in view.
 */
export class Notifier {
	constructor(
		private readonly _openChat: () => void,
		private readonly _chatVisible: () => boolean,
		private readonly _decideContinue?: (id: string, proceed: boolean) => void,
	) {}

	handle(event: AgentEvent): void {
		if (event.type === 'continueRequested' && this._decideContinue) {
			// Same decision as the chat's buttons; whichever answers first wins, the other is ignored.
			void vscode.window
				.showWarningMessage(`Keel: ${event.text}`, 'Continue', 'Stop')
				.then(choice => choice && this._decideContinue?.(event.id, choice === 'Continue'));
			return;
		}
		// Long retries get a progress notification with Cancel instead (retryProgress.ts).
		if (event.type === 'notice' && event.notify && !RETRY_NOTICE_CODES.has(event.code)) {
			const show = event.level === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
			void show(`Keel: ${event.text}`, 'Open Chat').then(choice => choice && this._openChat());
			return;
		}
		if (event.type === 'turnFinished' && event.reason === 'failed' && event.error && !this._chatVisible()) {
			void vscode.window
				.showErrorMessage(`Keel: ${event.error.message}`, 'Open Chat')
				.then(choice => choice && this._openChat());
		}
	}
}
