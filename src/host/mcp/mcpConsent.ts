import { createHash } from 'crypto';
import * as vscode from 'vscode';
import type { McpServerConfig } from '../../core/tools/sources/mcpConfig';

/**
 * Starting a workspace's MCP server runs a program the repository chose, so it needs the
 * user's yes once per server *as configured*: the answer is keyed by a fingerprint of the
 * command line / URL, and a changed entry (a swapped binary, MCPoison) asks again. Kept in
 * workspaceState; "Revoke" in Keel: MCP Servers forgets it. The user's own servers
 * (keel.mcp.servers) need no consent.
 */
export class McpConsent {
	constructor(private readonly _state: vscode.Memento) {}

	static fingerprint(server: McpServerConfig): string {
		const what = JSON.stringify([server.type, server.command, server.args, server.env, server.envFile, server.cwd, server.url, server.headers]);
		return createHash('sha256').update(what).digest('hex').slice(0, 16);
	}

	private _key(server: McpServerConfig): string {
		return `keel.mcp.allowed:${server.name}`;
	}

	isAllowed(server: McpServerConfig): boolean {
		return server.scope === 'user' || this._state.get<string>(this._key(server)) === McpConsent.fingerprint(server);
	}

	async allow(server: McpServerConfig): Promise<void> {
		await this._state.update(this._key(server), McpConsent.fingerprint(server));
	}

	async revoke(server: McpServerConfig): Promise<void> {
		await this._state.update(this._key(server), undefined);
	}

	/** A notification, not a modal: the user can answer later. Dismissed = not allowed. */
	async ask(server: McpServerConfig): Promise<boolean> {
		const what = server.type === 'stdio' ? `runs \`${[server.command, ...(server.args ?? [])].join(' ')}\`` : `connects to ${server.url}`;
		const choice = await vscode.window.showInformationMessage(
			`Keel: this workspace configures the MCP server "${server.name}" (.vscode/mcp.json), which ${what}. Start it and offer its tools to the model?`,
			'Allow',
			'Not Now',
		);
		if (choice === 'Allow') {
			await this.allow(server);
			return true;
		}
		return false;
	}
}
