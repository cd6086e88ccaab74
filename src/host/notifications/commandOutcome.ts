import * as vscode from 'vscode';
import { NothingToDo } from '../../core/errors';
import { plainText } from '../../shared/keelText';

/** Runs a palette command's action and says the outcome (or the error) the way VS Code users expect. */
export async function reportOutcome(action: () => Promise<string | undefined>): Promise<void> {
	try {
		const message = await action();
		if (message) {
			void vscode.window.showInformationMessage(`Keel: ${plainText(message)}`);
		}
	} catch (error) {
		const show =
			error instanceof NothingToDo ? vscode.window.showInformationMessage : vscode.window.showErrorMessage;
		void show(`Keel: ${plainText((error as Error).message)}`);
	}
}
