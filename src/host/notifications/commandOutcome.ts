import * as vscode from 'vscode';

/** Runs a palette command's action and says the outcome (or the error) the way VS Code users expect. */
export async function reportOutcome(action: () => Promise<string | undefined>): Promise<void> {
	try {
		const message = await action();
		if (message) {
			void vscode.window.showInformationMessage(`Keel: ${message}`);
		}
	} catch (error) {
		void vscode.window.showErrorMessage(`Keel: ${(error as Error).message}`);
	}
}
