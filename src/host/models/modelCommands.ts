import * as vscode from 'vscode';
import type { FeatureCommands } from '../common/commandIds';
import type { ActiveConversation } from '../common/conversation';
import { readModelConfig } from '../settings/config';
import type { ModelPicker } from './modelPicker';
import { readResolvedProvider } from './providerConfig';
import { promptAndStoreApiKey } from './secrets';

/** "Set API Key", "Select Model", "Probe Model". */
export function modelCommands(
	picker: ModelPicker,
	secrets: vscode.SecretStorage,
): FeatureCommands<'keel.setApiKey' | 'keel.selectModel' | 'keel.probeModel'> {
	return {
		'keel.setApiKey': () => promptAndStoreApiKey(secrets, readResolvedProvider().baseUrl),
		'keel.selectModel': () => picker.select(),
		'keel.probeModel': async () => void (await picker.probe()),
	};
}

/** /model NAME switches to that model (user settings); /model alone opens the picker. Answers what happened. */
export async function setModelFromChat(name?: string): Promise<string> {
	if (name) {
		await vscode.workspace.getConfiguration('keel').update('model.name', name, vscode.ConfigurationTarget.Global);
		return `Model: ${name} (keel.model.name).`;
	}
	await vscode.commands.executeCommand('keel.selectModel');
	return 'Model picker opened.';
}

/** The chat's header and empty state name the model the settings name, as they change. */
export function followModelSetting(controller: Pick<ActiveConversation, 'setModel'>): vscode.Disposable {
	return vscode.workspace.onDidChangeConfiguration(event => {
		if (event.affectsConfiguration('keel.model')) {
			controller.setModel(readModelConfig().model, readResolvedProvider().baseUrl);
		}
	});
}
