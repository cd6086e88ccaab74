import * as vscode from 'vscode';
import type { AddressConsent } from '../../core/gate/network/addresses';
import { exportable, type ExportGate } from '../../core/session/exportGate';
import { Gate } from '../../core/gate/gate';
import type { Workspace } from '../../core/ports';
import { relativeOfUri } from './workspaceFolderNames';
import { readPathPolicy, readPermissionRules } from '../settings/permissionsConfig';

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
 * An export's part of the gate: saved inside the workspace it is a write there, and what it
 * copies is decided again with the deny list as it is now.
 */
export function exportGate(gate: Gate, workspace: Workspace): ExportGate<vscode.Uri> {
	return {
		check: async target => {
			const relative = relativeOfUri(target);
			if (relative !== undefined) {
				await gate.admitExport(workspace, relative);
			}
		},
		filter: messages => exportable(gate, messages),
	};
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
