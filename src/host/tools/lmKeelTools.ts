import * as vscode from 'vscode';
import type { Workspace } from '../../core/ports';
import { redactSecrets } from '../../core/tools/redact';
import type { ToolRegistry } from '../../core/tools/registry';
import { KEEL_LM_PREFIX } from './lmTools';

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
	const name = lmName.startsWith(KEEL_LM_PREFIX) ? lmName.slice(KEEL_LM_PREFIX.length) : lmName;
	const parsed = registry.parse(name, JSON.stringify(input ?? {}));
	if (!parsed.ok || parsed.tool.effect !== 'read') {
		throw new Error(parsed.ok ? `${name} is not a read-only tool.` : parsed.message);
	}
	const abort = new AbortController();
	token.onCancellationRequested(() => abort.abort());
	let display: string;
	try {
		display = (
			await parsed.tool.execute(parsed.input, { workspace, signal: abort.signal, progress: () => undefined })
		).display;
	} catch (error) {
		// A refused path is an answer the calling model can act on, as in Keel's own loop.
		display = (error as Error)?.message ?? String(error);
	}
	// Whatever the branch (a result, a refusal naming a path), what leaves Keel is redacted.
	return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(redactSecrets(display).text)]);
}

export function lentToolTitle(registry: ToolRegistry, lmName: string, input: unknown): string {
	const name = lmName.slice(KEEL_LM_PREFIX.length);
	return registry.titleFor(name, JSON.stringify(input ?? {})) ?? `Keel: ${name}`;
}

/** The lent tools as the activation shim calls them, over the registry of Keel's own turns (built on first call). */
export interface LentTools {
	title(name: string, input: unknown): string;
	invoke(name: string, input: unknown, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult>;
}

export function lentTools(registry: () => ToolRegistry, workspace: Workspace): LentTools {
	return {
		title: (name, input) => lentToolTitle(registry(), name, input),
		invoke: (name, input, token) => invokeLentTool(registry(), workspace, name, input, token),
	};
}
