import * as vscode from 'vscode';
import type { LentTools } from '../../core/tools/lentTools';

/**
 * Keel's guarded read/search tools as Language Model Tools (package.json languageModelTools;
 * the activation shim registers them and forwards here), so VS Code's own agent and other
 * extensions can use them: the same permission rules, path policy, deny-read, approval and
 * redaction as in Keel's chat (core/tools/lentTools.ts). An untrusted workspace gets none.
 */
export async function invokeLentTool(
	lent: LentTools,
	lmName: string,
	input: unknown,
	token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
	if (!vscode.workspace.isTrusted) {
		throw new Error('Keel lends its tools only in a trusted workspace.');
	}
	const abort = new AbortController();
	token.onCancellationRequested(() => abort.abort());
	const display = await lent.invoke(lmName, input, abort.signal);
	return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(display)]);
}

/** The progress line, and VS Code's confirmation when Keel's rules ask before the call. */
export async function prepareLentTool(
	lent: LentTools,
	lmName: string,
	input: unknown,
): Promise<vscode.PreparedToolInvocation> {
	const prepared = await lent.prepare(lmName, input);
	return {
		invocationMessage: prepared.title,
		...(prepared.confirm
			? {
					confirmationMessages: {
						title: prepared.confirm.title,
						message: new vscode.MarkdownString().appendText(prepared.confirm.message),
					},
				}
			: {}),
	};
}
