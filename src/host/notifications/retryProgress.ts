import * as vscode from 'vscode';
import { plainText } from '../../shared/keelText';
import type { AgentEvent } from '../../core/agent/events';
import { RETRY_NOTICE_CODES } from '../../core/agent/noticeCodes';

/**
 * A retry the user would otherwise wait on blindly (a long Retry-After, a slow backoff) shows
 * as a progress notification with Cancel, which stops the turn. It closes as soon as the turn
 * moves on. Short retries stay inline only.
 */
export class RetryProgress implements vscode.Disposable {
	private _close: (() => void) | undefined;

	constructor(
		private readonly _stop: () => void,
		/** A visible chat shows the retry inline with its Stop: no notification then. */
		private readonly _chatVisible: () => boolean = () => false,
	) {}

	handle(event: AgentEvent): void {
		if (event.type === 'notice' && RETRY_NOTICE_CODES.has(event.code) && event.notify && !this._chatVisible()) {
			this._close?.();
			void vscode.window.withProgress(
				{
					location: vscode.ProgressLocation.Notification,
					title: `Keel: ${plainText(event.text)}`,
					cancellable: true,
				},
				(_progress, token) =>
					new Promise<void>(resolve => {
						this._close = resolve;
						token.onCancellationRequested(() => {
							this._stop();
							resolve();
						});
					}),
			);
			return;
		}
		if (event.type !== 'notice') {
			this._close?.();
			this._close = undefined;
		}
	}

	dispose(): void {
		this._close?.();
	}
}
