import * as vscode from 'vscode';
import type { AddressConsent } from '../../core/gate/addresses';
import { Gate } from '../../core/gate/gate';
import { readPathPolicy, readPermissionRules } from './permissionsConfig';

const ALLOWED = 'keel.addresses.allowed';

/**
 * The window's one gate (core/gate/gate.ts): the user's path policy and permission rules, read
 * at each decision, and a dialog before Keel contacts an address the workspace wrote.
 */
export function createHostGate(workspaceState: vscode.Memento): Gate {
	return new Gate({
		policy: readPathPolicy,
		rules: readPermissionRules,
		addresses: new AddressPrompts(workspaceState),
	});
}

/**
 * "This workspace points Keel at https://…": asked before the first contact, remembered for the
 * workspace once allowed. Not remembered when refused, so the next attempt asks again rather than
 * failing without a word.
 */
class AddressPrompts implements AddressConsent {
	constructor(private readonly _state: vscode.Memento) {}

	async allow(url: URL, where: string): Promise<boolean> {
		const allowed = this._state.get<string[]>(ALLOWED, []);
		if (allowed.includes(url.origin)) {
			return true;
		}
		const answer = await vscode.window.showWarningMessage(
			`${where} points Keel at ${url.origin}.`,
			{
				modal: true,
				detail: `Keel would send your prompts, and the API key you stored for ${url.origin} if any, to that server. Allow it only if you trust this workspace's choice; your own settings are not changed.`,
			},
			'Allow',
		);
		if (answer !== 'Allow') {
			return false;
		}
		await this._state.update(ALLOWED, [...allowed, url.origin]);
		return true;
	}
}
