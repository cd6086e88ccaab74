import type * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import type { ToolDefinition } from '../../core/tools/defineTool';
import type { McpConnection, McpState } from '../../core/tools/sources/mcpConnection';
import { mcpToolDefinition } from '../../core/tools/sources/mcpTools';
import type { McpServerEntry } from './mcpServers';
import type { ReviewedServer } from './mcpToolReview';
import type { HostTools } from '../tools/hostTools';

export type ServerStatus = McpState | 'disabled' | 'needsConsent' | 'untrusted';

/** One configured server, the plan it was started from, and its one connection. */
export interface ServerRecord extends ReviewedServer {
	connection?: McpConnection;
	registered: string[];
	status?: ServerStatus;
	/** The start under way (consent, then the connection), which a second Start joins. */
	pending?: Promise<void>;
	/** Bumped by every stop: a start that awaited across one does not go on. */
	generation: number;
	/** Called once the start reaches the consent card (a first start counts as done then). */
	onAsking?: () => void;
}

export interface ServerInfo {
	entry: McpServerEntry;
	status: ServerStatus;
	error?: string;
	transport?: string;
	/** Every tool the server offers, with Keel's name and whether the user disabled it. */
	tools: Array<{ name: string; mcpName: string; description?: string; disabled: boolean }>;
}

export const DISABLED_TOOLS = 'keel.mcp.disabledTools';

/** Server names declared in more than one place: their tools get names that say which (mcpToolName). */
export function sharedServerNames(entries: readonly McpServerEntry[]): Set<string> {
	const counts = new Map<string, number>();
	entries.forEach(e => counts.set(e.config.name, (counts.get(e.config.name) ?? 0) + 1));
	return new Set([...counts].filter(([, n]) => n > 1).map(([name]) => name));
}

export function sameNames(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
	return a.size === b.size && [...a].every(n => b.has(n));
}

/** Keeps the tool registry holding exactly each running server's enabled, reviewed tools. */
export class McpToolSync {
	constructor(
		private readonly _tools: Pick<HostTools, 'registry' | 'shape'>,
		private readonly _globalState: vscode.Memento,
		private readonly _logger: Logger,
		/** Keel's name for a server's tool (it says which server when two share a name). */
		private readonly _toolName: (entry: McpServerEntry, tool: string) => string,
	) {}

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
		return mcpToolDefinition(
			entry.config.name,
			tool,
			caller,
			(result, context) => this._tools.shape(result, context),
			this._toolName(entry, tool.name),
		);
	}
}
