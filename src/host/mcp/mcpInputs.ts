import * as vscode from 'vscode';
import type { McpInput, McpScope } from '../../core/tools/sources/mcpConfig';

/**
 * Answers `${input:id}` the way VS Code does: asked once, then remembered. Every answer is kept
 * in SecretStorage (never in settings or globalState), keyed by where the input was declared so
 * a workspace cannot read an input the user gave another workspace or their own config.
 */
export class McpInputs {
	constructor(private readonly _secrets: vscode.SecretStorage) {}

	private _key(scope: McpScope, origin: string, id: string): string {
		return `keel.mcp.input:${scope}:${origin}:${id}`;
	}

	async resolve(
		scope: McpScope,
		origin: string,
		inputs: readonly McpInput[],
		id: string,
	): Promise<string | undefined> {
		const key = this._key(scope, origin, id);
		const stored = await this._secrets.get(key);
		if (stored !== undefined) {
			return stored;
		}
		const input = inputs.find(i => i.id === id);
		if (!input) {
			return undefined;
		}
		const value =
			input.type === 'pickString'
				? await vscode.window.showQuickPick(input.options ?? [], {
						title: `Keel MCP: ${input.description}`,
						ignoreFocusOut: true,
					})
				: await vscode.window.showInputBox({
						title: `Keel MCP: ${input.description}`,
						prompt: input.password ? "Stored in VS Code's secret storage." : undefined,
						password: input.password,
						value: input.default,
						ignoreFocusOut: true,
					});
		if (value !== undefined) {
			await this._secrets.store(key, value);
		}
		return value;
	}

	async forget(scope: McpScope, origin: string, ids: readonly string[]): Promise<void> {
		await Promise.all(ids.map(id => this._secrets.delete(this._key(scope, origin, id))));
	}
}
