import * as vscode from 'vscode';
import type { Workspace } from '../../core/ports';
import { invokeLentCall, KEEL_LM_PREFIX } from '../../core/tools/lentTools';
import type { ToolRegistry } from '../../core/tools/registry';

/**
 * Keel's guarded read/search tools as Language Model Tools (package.json languageModelTools;
 * the activation shim registers them and forwards here), so VS Code's own agent and other
 * extensions can use them. They go through the registry's validation and the same path policy
 * as in Keel's chat; an untrusted workspace gets none.
 */
export async function invokeLentTool(
	registry: ToolRegistry,
	workspace: Workspace,
	lmName: string,
	input: unknown,
	token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
	if (!vscode.workspace.isTrusted) {
		throw new Error('Keel lends its tools only in a trusted workspace.');
	}
	const abort = new AbortController();
	token.onCancellationRequested(() => abort.abort());
	const display = await invokeLentCall(registry, workspace, lmName, input, abort.signal);
	return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(display)]);
}

export function lentToolTitle(registry: ToolRegistry, lmName: string, input: unknown): string {
	const name = lmName.slice(KEEL_LM_PREFIX.length);
	return registry.titleFor(name, JSON.stringify(input ?? {})) ?? `Keel: ${name}`;
}
