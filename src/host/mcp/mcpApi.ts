import type { FeatureCommands } from '../common/commandIds';
import type { KeelApi } from '../common/keelApi';
import type { McpManager } from './mcpManager';
import { showMcpServers } from './mcpQuickPick';

/** The MCP servers as the extension's API lists them, once each had its first chance to start. */
export function mcpApi(mcp: () => McpManager): Pick<KeelApi, 'mcpServers'> {
	return {
		mcpServers: async () => {
			const manager = mcp();
			await manager.ready();
			return manager.list().map(s => ({
				name: s.entry.config.name,
				scope: s.entry.config.scope,
				status: s.status,
				error: s.error,
				tools: s.tools.filter(t => !t.disabled).map(t => t.name),
			}));
		},
	};
}

export function mcpCommands(mcp: () => McpManager): FeatureCommands<'keel.mcpServers'> {
	return { 'keel.mcpServers': () => showMcpServers(mcp()) };
}
