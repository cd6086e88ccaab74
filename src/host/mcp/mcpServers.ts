import * as os from 'os';
import * as vscode from 'vscode';
import {
	parseMcpConfig,
	parseMcpConfigText,
	type McpConfig,
	type McpInput,
	type McpServerConfig,
} from '../../core/tools/sources/mcpConfig';
import type { LaunchContext } from '../../core/tools/sources/mcpLaunch';
import type { McpConnectionOptions } from '../../core/tools/sources/mcpConnection';
import { readSetting, readSettingUnparsed } from '../settings/settings';
import { readText } from '../tools/hostFiles';

/** A configured server and where it was declared (its inputs and ${workspaceFolder} come from there). */
export interface McpServerEntry {
	key: string;
	config: McpServerConfig;
	origin: string;
	folder?: string;
	inputs: McpInput[];
}

export interface LoadedServers {
	entries: McpServerEntry[];
	errors: string[];
}

/**
 * `.vscode/mcp.json` of every workspace folder, then the user's own servers: VS Code's user
 * `mcp.json` (what "MCP: Add Server" → Global writes) and keel.mcp.config (user level only).
 */
export async function loadServers(userMcpFile?: vscode.Uri): Promise<LoadedServers> {
	const entries: McpServerEntry[] = [];
	const errors: string[] = [];
	const add = (parsed: McpConfig, origin: string, folder?: string) => {
		errors.push(...parsed.errors);
		for (const config of parsed.servers) {
			const key = `${config.scope}:${origin}:${config.name}`;
			entries.push({ key, config, origin, folder, inputs: parsed.inputs });
		}
	};
	for (const folder of vscode.workspace.workspaceFolders ?? []) {
		const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
		const text = await readText(uri);
		if (text === undefined) {
			continue;
		}
		add(
			parseMcpConfigText(text, 'workspace', vscode.workspace.asRelativePath(uri)),
			folder.uri.toString(),
			folder.uri.fsPath,
		);
	}
	if (userMcpFile) {
		const text = await readText(userMcpFile);
		if (text !== undefined) {
			add(
				parseMcpConfigText(text, 'user', 'mcp.json (VS Code user configuration)'),
				'vscode-user',
				vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
			);
		}
	}
	// Only the user's own value: a workspace must not add servers through settings.json.
	const user = readSettingUnparsed('mcp.config');
	add(
		parseMcpConfig(user, 'user', 'keel.mcp.config (user settings)'),
		'user',
		vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
	);
	return { entries, errors };
}

/** VS Code keeps the user's MCP servers in mcp.json beside its settings.json (the User folder). */
export function vscodeUserMcpFile(globalStorageUri: vscode.Uri): vscode.Uri {
	return vscode.Uri.joinPath(globalStorageUri, '..', '..', 'mcp.json');
}

/** Where a server's launch plan (mcpLaunch.ts) is worked out from: its identity, folder, home and environment. */
export function launchContext(entry: McpServerEntry): LaunchContext {
	return { identity: entry.key, folder: entry.folder, userHome: os.homedir(), env: process.env };
}

/** The entry as written: a change restarts the server (and its plan, so its consent, is worked out again). */
export function definition(entry: McpServerEntry): string {
	return JSON.stringify([entry.config, entry.inputs, entry.folder]);
}

/** Where the card says the server comes from: the folder's .vscode/mcp.json, as VS Code names it. */
export function consentSource(entry: McpServerEntry): string {
	const file = vscode.Uri.joinPath(vscode.Uri.parse(entry.origin), '.vscode', 'mcp.json');
	// The folder's name only where there are several to tell apart.
	return entry.config.scope === 'user'
		? 'your user configuration'
		: vscode.workspace.asRelativePath(file, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** The connection's limits from settings, read at each start. */
export function connectionOptions(clientVersion: string): McpConnectionOptions {
	return {
		callTimeoutMs: Math.max(1, readSetting('mcp.callTimeoutSeconds')) * 1000,
		connectTimeoutMs: Math.max(1, readSetting('mcp.connectTimeoutSeconds')) * 1000,
		maxReconnects: 3,
		reconnectBaseMs: 2000,
		clientVersion,
	};
}
