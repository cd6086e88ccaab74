import * as vscode from 'vscode';
import { UNTRUSTED_CARD_REASON, UNTRUSTED_REFUSAL } from '../../core/gate/rules/permissions';
import { Disposable } from '../../core/util/lifecycle';
import type { ActiveConversation } from '../common/conversation';

/**
 * Restricted Mode is said, not discovered: the empty chat says only read tools run (the view's
 * `restricted`), and the first write, command or fetch refused for it in a chat gets one notice
 * with the Manage Workspace Trust button; the cards after it keep their one-line reason.
 */
export class RestrictedModeNotices extends Disposable {
	private readonly _told = new Set<string>();

	constructor(controller: Pick<ActiveConversation, 'sessionId' | 'onDidEvent' | 'showNotice' | 'setRestricted'>) {
		super();
		this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => controller.setRestricted(false)));
		this._register(
			controller.onDidEvent(event => {
				if (
					event.type !== 'toolCallUpdated' ||
					event.call.status !== 'denied' ||
					event.call.policyReason !== UNTRUSTED_CARD_REASON ||
					this._told.has(controller.sessionId)
				) {
					return;
				}
				this._told.add(controller.sessionId);
				queueMicrotask(() =>
					controller.showNotice({
						turnId: event.turnId,
						level: 'warning',
						code: 'untrusted',
						text: `${UNTRUSTED_REFUSAL}.`,
					}),
				);
			}),
		);
	}
}
