import * as vscode from 'vscode';
import { holdSecret } from '../../core/gate/redact/heldSecrets';

/** A provider's key is cut wherever it appears (a server that echoes it in an error, the log, a report). */
const KEY_LABEL = 'API key';

/**
 * API keys live in SecretStorage only, bound to the endpoint's origin so a key set for one
 * server is never sent to another (a workspace cannot redirect it by changing the URL).
 */
export function secretKeyFor(baseUrl: string): string {
	let origin = baseUrl;
	try {
		origin = new URL(baseUrl).origin;
	} catch {
		// An invalid URL fails later with a clear error; the key name just uses the raw text.
	}
	return `keel.apiKey:${origin}`;
}

export async function getApiKey(secrets: vscode.SecretStorage, baseUrl: string): Promise<string | undefined> {
	const key = await secrets.get(secretKeyFor(baseUrl));
	holdSecret(key, KEY_LABEL, 4);
	return key;
}

export async function promptAndStoreApiKey(secrets: vscode.SecretStorage, baseUrl: string): Promise<boolean> {
	const value = await vscode.window.showInputBox({
		title: 'Keel: Set API Key',
		prompt: `API key for ${baseUrl} (stored in VS Code's secret storage, never in settings)`,
		password: true,
		ignoreFocusOut: true,
	});
	if (value === undefined) {
		return false;
	}
	if (value.trim() === '') {
		await secrets.delete(secretKeyFor(baseUrl));
		vscode.window.showInformationMessage(`Keel: API key for ${baseUrl} removed.`);
		return true;
	}
	holdSecret(value.trim(), KEY_LABEL, 4);
	await secrets.store(secretKeyFor(baseUrl), value.trim());
	vscode.window.showInformationMessage(`Keel: API key for ${baseUrl} saved.`);
	return true;
}
