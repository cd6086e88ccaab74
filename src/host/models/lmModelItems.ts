import * as vscode from 'vscode';
import { LM_PROVIDER } from './lmChatModel';

export type LmModelItem = vscode.QuickPickItem & { lm: string };

/** The chat models VS Code offers right now, as items for "Keel: Select Model" (none on a VS Code without vscode.lm). */
export async function lmModelItems(
	current: string,
	selected: boolean,
): Promise<Array<LmModelItem | vscode.QuickPickItem>> {
	if (!vscode.lm?.selectChatModels) {
		return [];
	}
	let models: vscode.LanguageModelChat[];
	try {
		models = await vscode.lm.selectChatModels();
	} catch {
		return [];
	}
	if (models.length === 0) {
		return [];
	}
	const items = models.map(model => {
		const name = `${model.vendor}/${model.id}`;
		const chosen = selected && name === current;
		return {
			label: `${chosen ? '$(check) ' : ''}${model.name}`,
			description: `VS Code · ${model.vendor} · ${model.maxInputTokens.toLocaleString('en-US')} ctx`,
			detail: name,
			lm: name,
		};
	});
	return [{ label: 'VS Code language models', kind: vscode.QuickPickItemKind.Separator }, ...items];
}

/** Switches Keel to a VS Code model: provider vscode-lm, name vendor/id (user settings, like the other presets). */
export async function useLmModel(name: string): Promise<void> {
	const config = vscode.workspace.getConfiguration('keel');
	await config.update('model.provider', LM_PROVIDER, vscode.ConfigurationTarget.Global);
	await config.update('model.name', name, vscode.ConfigurationTarget.Global);
}
