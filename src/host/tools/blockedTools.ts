import * as vscode from 'vscode';
import { plainText } from '../../shared/keelText';
import type { ToolPolicy } from '../../core/agent/toolPolicy/toolPolicy';
import { Disposable } from '../../core/util/lifecycle';
import type { FeatureCommands } from '../common/commandIds';
import type { KeelApi } from '../common/keelApi';
import type { ActiveConversation } from '../common/conversation';
import { unblockTools } from './toolSystemHost';

/**
 * Tools the anomaly guard blocked after repeated failures in the current chat: the API lists
 * and unblocks them, "Keel: Unblock Tools" picks them, and a block gets a notification whose
 * one click unblocks it (the chat shows the notice inline).
 */
export class BlockedTools extends Disposable {
	constructor(
		private readonly _policy: ToolPolicy,
		private readonly _controller: Pick<ActiveConversation, 'sessionId' | 'onDidEvent'>,
	) {
		super();
		this._register(
			_controller.onDidEvent(event => {
				if (event.type === 'notice' && event.code === 'toolBlocked') {
					const tool = event.text.split(' ')[0];
					void vscode.window
						.showWarningMessage(`Keel: ${plainText(event.text)}`, 'Unblock')
						.then(choice => choice && unblockTools(_policy, _controller.sessionId, tool));
				}
			}),
		);
	}

	readonly api: Pick<KeelApi, 'blockedTools' | 'unblockTool'> = {
		blockedTools: () => this._policy.session(this._controller.sessionId).anomaly.blocked(),
		unblockTool: name => this._policy.session(this._controller.sessionId).anomaly.unblock(name),
	};

	readonly commands: FeatureCommands<'keel.unblockTools'> = {
		'keel.unblockTools': async () => {
			const names = await unblockTools(this._policy, this._controller.sessionId);
			if (names.length) {
				void vscode.window.showInformationMessage(`Keel: unblocked ${names.join(', ')}.`);
			}
		},
	};
}
