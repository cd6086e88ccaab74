import * as vscode from 'vscode';
import { exists, writeText } from '../tools/hostFiles';
import type { McpManager, ServerInfo } from './mcpManager';
import { declaredIn } from './mcpServers';

type Item = vscode.QuickPickItem & { run?: () => Promise<unknown> | void };

const ICONS: Record<string, string> = {
	running: '$(pass-filled)',
	starting: '$(loading~spin)',
	stopped: '$(circle-outline)',
	error: '$(error)',
	disabled: '$(circle-slash)',
	needsConsent: '$(shield)',
	untrusted: '$(workspace-untrusted)',
};

/**
 * "Keel: MCP Servers": every configured server with its state, tool count and last error;
 * picking one offers start / stop / restart / logs / enable-disable / revoke, and its tools
 * can be switched off one by one.
 */
export async function showMcpServers(manager: McpManager): Promise<void> {
	const servers = manager.list();
	const items: Item[] = servers.map(server => ({
		label: `${ICONS[server.status] ?? ''} ${server.entry.config.name}`,
		description: `${server.status}${server.transport ? ` · ${server.transport}` : ''} · ${server.tools.length} tools · ${declaredIn(server.entry)}`,
		detail: server.error,
		run: () => serverActions(manager, server),
	}));
	for (const error of manager.configErrors) {
		items.push({ label: '$(warning) Configuration error', detail: error });
	}
	items.push({ label: '$(go-to-file) Open .vscode/mcp.json', run: () => openWorkspaceConfig() });
	items.push({ label: '$(output) Show Logs', run: () => manager.showLogs() });
	const chosen = await vscode.window.showQuickPick(items, {
		title: 'Keel: MCP Servers',
		placeHolder: servers.length
			? 'Pick a server to manage it'
			: 'No MCP servers configured: add them to .vscode/mcp.json or keel.mcp.config',
	});
	await chosen?.run?.();
}

async function serverActions(manager: McpManager, server: ServerInfo): Promise<void> {
	const key = server.entry.key;
	const running = server.status === 'running' || server.status === 'starting';
	const actions: Item[] = [
		...(running
			? [
					{ label: '$(debug-restart) Restart', run: () => manager.restart(key) },
					{ label: '$(debug-stop) Stop', run: () => manager.stop(key) },
				]
			: [{ label: '$(play) Start', run: () => manager.start(key, true) }]),
		{
			label: '$(checklist) Tools…',
			description: `${server.tools.filter(t => !t.disabled).length} of ${server.tools.length} enabled`,
			run: () => toolToggles(manager, server),
		},
		{ label: '$(output) Show Logs', run: () => manager.showLogs() },
		server.status === 'disabled'
			? { label: '$(check) Enable (start automatically)', run: () => manager.start(key, true) }
			: { label: '$(circle-slash) Disable (do not start automatically)', run: () => manager.stop(key, true) },
		...(server.entry.config.scope === 'workspace'
			? [{ label: '$(shield) Revoke permission to start', run: () => manager.revoke(key) }]
			: []),
	];
	const chosen = await vscode.window.showQuickPick(actions, {
		title: `Keel: MCP server ${server.entry.config.name}`,
		placeHolder: server.error ?? server.status,
	});
	await chosen?.run?.();
}

async function toolToggles(manager: McpManager, server: ServerInfo): Promise<void> {
	const items = server.tools.map(tool => ({
		label: tool.name,
		description: tool.mcpName,
		detail: tool.description?.slice(0, 200),
		picked: !tool.disabled,
	}));
	const chosen = await vscode.window.showQuickPick(items, {
		title: `Keel: tools of ${server.entry.config.name} (checked = offered to the model)`,
		canPickMany: true,
	});
	if (!chosen) {
		return;
	}
	const enabled = new Set(chosen.map(item => item.label));
	for (const tool of server.tools) {
		if (enabled.has(tool.name) === tool.disabled) {
			await manager.setToolDisabled(server.entry.key, tool.name, !enabled.has(tool.name));
		}
	}
}

async function openWorkspaceConfig(): Promise<void> {
	const folder = vscode.workspace.workspaceFolders?.[0];
	if (!folder) {
		void vscode.window.showInformationMessage(
			'Keel: open a folder first; user-level servers go in the keel.mcp.config setting.',
		);
		return;
	}
	const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
	// The user asked for it: an empty config to fill in, never over one that exists.
	if (!(await exists(uri))) {
		await writeText(uri, '{\n\t"servers": {},\n\t"inputs": []\n}\n');
	}
	await vscode.window.showTextDocument(uri);
}
