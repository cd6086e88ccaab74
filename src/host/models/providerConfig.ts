import * as vscode from 'vscode';
import { settingOrigin, type AddressOrigin } from '../../core/gate/network/addresses';
import { PROVIDERS, resolveProvider, type ProviderKind, type ResolvedProvider } from '../../core/llm/catalog/providers';
import { readSetting } from '../settings/settings';
import { settingDefault } from '../settings/settingsSchema';

/**
 * Reads keel.model.* into a resolved provider. keel.model.baseUrl counts only when the user set
 * it somewhere, so choosing a preset (keel.model.provider) brings its own default URL, and an
 * old settings file with just baseUrl + name keeps working ('auto' infers the provider).
 */
export function readResolvedProvider(): ResolvedProvider {
	// Trust-aware (settings.ts): an untrusted workspace must not point Keel (and the API key) at its own server.
	const baseUrl = readSetting('model.baseUrl');
	const userBaseUrl = baseUrl !== settingDefault('model.baseUrl') ? baseUrl : undefined;
	const provider = readSetting('model.provider');
	return resolveProvider({
		provider: provider in PROVIDERS ? (provider as ProviderKind) : 'auto',
		baseUrl: userBaseUrl || undefined,
		model: readSetting('model.name'),
		contextWindow: readSetting('model.contextWindow'),
		requestTimeoutSeconds: readSetting('model.requestTimeoutSeconds'),
		keepAlive: readSetting('model.ollamaKeepAlive') || undefined,
		maxOutputTokens: Math.max(0, readSetting('model.maxOutputTokens')),
	});
}

/**
 * Whose choice the model endpoint is: the workspace's when its settings set keel.model.baseUrl
 * (and it counts: a trusted workspace) to something the user did not set; then the gate asks
 * before the first prompt goes there.
 */
export function modelEndpointOrigin(): AddressOrigin {
	const inspected = vscode.workspace.getConfiguration('keel').inspect<string>('model.baseUrl');
	return settingOrigin(
		'keel.model.baseUrl',
		vscode.workspace.isTrusted ? inspected : { globalValue: inspected?.globalValue },
	);
}

export function readHistorySettings(): { toolOutputRetentionDays: number } {
	return { toolOutputRetentionDays: Math.max(0, readSetting('history.toolOutputRetentionDays')) };
}

/** The label on the status bar and in the view header: model, and the provider when not obvious. */
export function providerLabel(resolved: ResolvedProvider): string {
	return `${resolved.model} · ${resolved.preset.label}`;
}
