import type * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import type { ToolDefinition } from '../../core/tools/defineTool';
import type { McpConnection, McpState } from '../../core/tools/sources/mcpConnection';
import { mcpToolDefinition } from '../../core/tools/sources/mcpTools';
import { McpConsent } from './mcpConsent';
import type { McpServerEntry } from './mcpServers';
import type { HostTools } from '../tools/hostTools';

export type ServerStatus = McpState | 'disabled' | 'needsConsent' | 'untrusted';

/** One configured server and its one connection. */
export interface ServerRecord {
	entry: McpServerEntry;
	connection?: McpConnection;
	registered: string[];
	error?: string;
	status?: ServerStatus;
	heldBack?: Set<string>;
	/** The start under way (consent, then the connection), which a second Start joins. */
	pending?: Promise<void>;
	/** Bumped by every stop: a start that awaited across one does not go on. */
	generation: number;
}

export const DISABLED_TOOLS = 'keel.mcp.disabledTools';

/**
 * Keeps the tool registry holding exactly each running server's enabled tools, and holds back
 * a workspace server's tools that are new or changed since the user allowed it (rug pulls).
 */
export class McpToolSync {
	constructor(
		private readonly _tools: Pick<HostTools, 'registry' | 'shape'>,
		private readonly _globalState: vscode.Memento,
		private readonly _consent: McpConsent,
		private readonly _logger: Logger,
	) {}

	/** New or changed tool definitions of a workspace server stay off until the user allows them. */
	async checkPins(
		server: ServerRecord,
		tools: ReadonlyArray<{ name: string; description?: string; inputSchema: unknown }>,
		changed: () => void,
	): Promise<void> {
		const hashes = McpConsent.toolHashes(tools);
		const held = await this._consent.changedTools(server.entry.config, hashes);
		server.heldBack = new Set(held);
		this.sync(server);
		if (held.length === 0) {
			return;
		}
		this._logger.warn(
			`MCP ${server.entry.config.name}: tools new or changed since allowed, held back: ${held.join(', ')}`,
		);
		server.error = `Tools new or changed since you allowed this server are held back: ${held.join(', ')}`;
		changed();
		if (await this._consent.askChangedTools(server.entry.config, held)) {
			await this._consent.pinTools(server.entry.config, hashes);
			server.heldBack = new Set();
			server.error = undefined;
			this.sync(server);
			changed();
		}
	}

	/** The registry holds exactly the running server's enabled tools. */
	sync(server: ServerRecord): void {
		this.unregister(server);
		const connection = server.connection;
		// Until the pin check of this tool list is done nothing is offered (fail closed).
		const held = server.heldBack;
		if (!connection || connection.state !== 'running' || !held) {
			return;
		}
		const disabled = new Set(this._globalState.get<string[]>(DISABLED_TOOLS, []));
		for (const tool of connection.tools) {
			if (held.has(tool.name)) {
				continue;
			}
			const definition = this._definitionFor(server.entry, tool, connection);
			if (disabled.has(definition.name)) {
				continue;
			}
			if (this._tools.registry.get(definition.name)) {
				this._logger.warn(
					`MCP ${server.entry.config.name}: tool ${tool.name} skipped, the name ${definition.name} is taken`,
				);
				continue;
			}
			this._tools.registry.register(definition);
			server.registered.push(definition.name);
		}
	}

	unregister(server: { registered: string[] }): void {
		for (const name of server.registered) {
			this._tools.registry.unregister(name);
		}
		server.registered = [];
	}

	private _definitionFor(
		entry: McpServerEntry,
		tool: Parameters<typeof mcpToolDefinition>[1],
		connection: McpConnection,
	): ToolDefinition<any> {
		const caller = {
			call: (name: string, args: Record<string, unknown>, signal: AbortSignal) =>
				connection.call(name, args, signal),
		};
		return mcpToolDefinition(entry.config.name, tool, caller, (result, context) =>
			this._tools.shape(result, context),
		);
	}
}
