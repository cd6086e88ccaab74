import { createHash } from 'crypto';
import * as vscode from 'vscode';
import type { McpServerConfig } from '../../core/tools/sources/mcpConfig';
import type { McpConsentPrompts } from './mcpConsentPrompts';

/**
 * Starting a workspace's MCP server runs a program the repository chose, so it needs the
 * user's yes once per server *as configured*: the answer is keyed by a fingerprint of the
 * command line / URL, and a changed entry (a swapped binary, MCPoison) asks again. Kept in
 * workspaceState; "Revoke" in Keel: MCP Servers forgets it. The user's own servers
 * (keel.mcp.servers) need no consent.
 */
export class McpConsent {
	constructor(
		private readonly _state: vscode.Memento,
		private readonly _prompts: Pick<McpConsentPrompts, 'ask'>,
	) {}

	static fingerprint(server: McpServerConfig): string {
		const what = JSON.stringify([
			server.type,
			server.command,
			server.args,
			server.env,
			server.envFile,
			server.cwd,
			server.url,
			server.headers,
		]);
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

	/**
	 * Rug pulls: a server can change a tool's description or schema after it was allowed. Each
	 * tool's definition is pinned (hashed) the first time it is seen; a new or changed tool of a
	 * workspace server is not offered until the user allows the new definitions.
	 */
	static toolHashes(
		tools: ReadonlyArray<{ name: string; description?: string; inputSchema: unknown }>,
	): Record<string, string> {
		return Object.fromEntries(
			tools.map(t => [
				t.name,
				createHash('sha256')
					.update(JSON.stringify([t.description ?? '', t.inputSchema]))
					.digest('hex')
					.slice(0, 16),
			]),
		);
	}

	/** Names of tools new or changed since the pin; undefined when nothing was pinned yet (then this pins). */
	async changedTools(server: McpServerConfig, hashes: Record<string, string>): Promise<string[]> {
		if (server.scope === 'user') {
			return [];
		}
		const key = `keel.mcp.pinnedTools:${server.name}:${McpConsent.fingerprint(server)}`;
		const pinned = this._state.get<Record<string, string>>(key);
		if (!pinned) {
			await this._state.update(key, hashes);
			return [];
		}
		return Object.keys(hashes).filter(name => pinned[name] !== hashes[name]);
	}

	async pinTools(server: McpServerConfig, hashes: Record<string, string>): Promise<void> {
		await this._state.update(`keel.mcp.pinnedTools:${server.name}:${McpConsent.fingerprint(server)}`, hashes);
	}

	async askChangedTools(server: McpServerConfig, changed: string[]): Promise<boolean> {
		const choice = await vscode.window.showWarningMessage(
			`Keel: the MCP server "${server.name}" added or changed tools since you allowed it (${changed.join(', ')}). A changed description can carry instructions to the model. Offer them?`,
			'Allow',
			'Keep Them Off',
		);
		return choice === 'Allow';
	}

	/**
	 * Asked on a card in the chat (McpConsentPrompts), not in a modal: the user can answer
	 * later, and nothing starts until they do. Deny is not remembered: Start asks again.
	 */
	async ask(server: McpServerConfig, source: string, interactive: boolean): Promise<boolean> {
		if (!(await this._prompts.ask(server, source, interactive))) {
			return false;
		}
		await this.allow(server);
		return true;
	}
}
