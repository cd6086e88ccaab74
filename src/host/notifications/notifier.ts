import * as vscode from 'vscode';
import { plainText } from '../../shared/keelText';
import type { AgentEvent } from '../../core/agent/events';
import { RETRY_NOTICE_CODES } from '../../core/agent/noticeCodes';

/** The palette-hidden command a notification's "Continue" link runs (package.json, common/commandIds.ts). */
export const CONTINUE_TURN_COMMAND = 'keel.continueTurn';

/**
 * Turns the agent events a user must know about into VS Code notifications. The chat shows
 * everything inline, so each is said once: a notification only while the chat is not in view.
 * A question (Continue or Stop) is a notification that closes when it is answered anywhere.
 */
export class Notifier implements vscode.Disposable {
	private readonly _open = new Map<string, () => void>();

	constructor(
		private readonly _openChat: () => void,
		private readonly _chatVisible: () => boolean,
		private readonly _decideContinue?: (id: string, proceed: boolean) => void,
	) {}

	handle(event: AgentEvent): void {
		if (event.type === 'continueDecided') {
			this._close(event.id);
			return;
		}
		if (event.type === 'turnFinished') {
			[...this._open.keys()].forEach(id => this._close(id));
		}
		if (this._chatVisible()) {
			return;
		}
		if (event.type === 'continueRequested' && this._decideContinue) {
			this._ask(event.id, event.text);
			return;
		}
		// Long retries get a progress notification with Cancel instead (retryProgress.ts).
		if (event.type === 'notice' && event.notify && !RETRY_NOTICE_CODES.has(event.code)) {
			const show = event.level === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
			void show(`Keel: ${plainText(event.text)}`, 'Open Chat').then(choice => choice && this._openChat());
			return;
		}
		if (event.type === 'turnFinished' && event.reason === 'failed' && event.error) {
			void vscode.window
				.showErrorMessage(`Keel: ${plainText(event.error.message)}`, 'Open Chat')
				.then(choice => choice && this._openChat());
		}
	}

	dispose(): void {
		[...this._open.keys()].forEach(id => this._close(id));
	}

	/**
	 * Continue or Stop: a progress notification (the one kind an extension can close), its Cancel
	 * is Stop and its message links Continue; answered in the chat, it goes away.
	 */
	private _ask(id: string, text: string): void {
		const args = encodeURIComponent(JSON.stringify([id]));
		void vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Notification, title: 'Keel', cancellable: true },
			(progress, token) =>
				new Promise<void>(resolve => {
					this._open.set(id, resolve);
					progress.report({
						message: `${plainText(text)} [Continue](command:${CONTINUE_TURN_COMMAND}?${args}) · [Open Chat](command:keel.focusChat) · Cancel stops the turn.`,
					});
					token.onCancellationRequested(() => {
						this._open.delete(id);
						this._decideContinue?.(id, false);
						resolve();
					});
				}),
		);
	}

	private _close(id: string): void {
		const close = this._open.get(id);
		this._open.delete(id);
		close?.();
	}
}
