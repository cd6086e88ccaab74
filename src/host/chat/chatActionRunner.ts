import * as vscode from 'vscode';
import type { WebviewToHost } from '../../shared/protocol';

type RunAction = Extract<WebviewToHost, { type: 'runAction' }>;

/**
 * Runs a button of a notice or the error banner (chatActions.ts). The webview is untrusted, so
 * each action is one the user could run from the palette anyway, and a setting is only ever one
 * of Keel's (the protocol's pattern); Retry sends again only a turn that really failed.
 */
export function runChatAction(message: RunAction, retry: { retry(): void }): void {
	switch (message.action) {
		case 'retryTurn':
			return retry.retry();
		case 'selectModel':
			return void vscode.commands.executeCommand('keel.selectModel');
		case 'setApiKey':
			return void vscode.commands.executeCommand('keel.setApiKey');
		case 'manageTrust':
			return void vscode.commands.executeCommand('workbench.trust.manage');
		case 'undoRewind':
			return void vscode.commands.executeCommand('keel.undoRewind');
		case 'openSetting':
			if (message.setting?.startsWith('keel.')) {
				void vscode.commands.executeCommand('workbench.action.openSettings', message.setting);
			}
			return;
	}
}
