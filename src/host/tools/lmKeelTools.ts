import * as vscode from 'vscode';
import type { ApprovalSettings } from '../../core/agent/approval/approvalPolicy';
import { lentCallPipeline } from '../../core/agent/approval/lentCalls';
import type { ToolPolicy } from '../../core/agent/toolPolicy/toolPolicy';
import type { Workspace } from '../../core/ports';
import { LentTools as LentCalls } from '../../core/tools/lent/lentTools';
import { redactSecrets } from '../../core/gate/redact/redact';
import type { ToolRegistry } from '../../core/tools/registry';
import { signalFromToken } from '../platform/cancellation';

/**
 * Keel's guarded read/search tools as Language Model Tools (package.json languageModelTools;
 * the activation shim registers them and forwards here), so VS Code's own agent and other
 * extensions can use them: the same permission rules, path policy, deny-read, approval and
 * redaction as in Keel's chat (core/tools/lent/lentTools.ts). An untrusted workspace gets none.
 */
export interface LentTools {
	/** The progress line, and VS Code's confirmation when Keel's rules ask before the call. */
	prepare(name: string, input: unknown): Promise<vscode.PreparedToolInvocation>;
	invoke(name: string, input: unknown, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult>;
}

/** Over the registry of Keel's own turns (built on first call), its tool policy and the user's approval settings. */
export function lentTools(
	registry: () => ToolRegistry,
	workspace: Workspace,
	settings: () => ApprovalSettings,
	toolPolicy: ToolPolicy,
): LentTools {
	let calls: LentCalls | undefined;
	const lent = () =>
		(calls ??= new LentCalls(
			registry(),
			workspace,
			lentCallPipeline({ registry: registry(), workspace, settings, toolPolicy }),
		));
	return {
		prepare: async (name, input) => {
			const prepared = await lent().prepare(name, input);
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
		},
		invoke: async (name, input, token) => {
			if (!vscode.workspace.isTrusted) {
				throw new Error('Keel lends its tools only in a trusted workspace.');
			}
			const cancel = signalFromToken(token);
			let display: string;
			try {
				display = await lent().invoke(name, input, cancel.signal);
			} finally {
				cancel.dispose();
			}
			// Whatever the branch (a result, a refusal naming a path), what leaves Keel is redacted.
			return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(redactSecrets(display).text)]);
		},
	};
}
