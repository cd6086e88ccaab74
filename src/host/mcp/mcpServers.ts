import * as os from 'os';
import * as path from 'path';
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
	/** The file that declares it, as the consent card names it (absent: a setting). */
	file?: vscode.Uri;
}

export interface LoadedServers {
	entries: McpServerEntry[];
	errors: string[];
}

/** The user's own MCP files: VS Code's user `mcp.json`, and Copilot's since VS Code 1.140. */
export interface UserMcpFiles {
	vscode?: vscode.Uri;
	copilot?: vscode.Uri;
}

/**
 * Every place servers are declared. Within one scope (a workspace folder, or the user) a name
 * is started once, from the first place that declares it, and every later declaration of it
 * is reported: in a folder `.mcp.json` (what VS Code 1.140 writes) before `.vscode/mcp.json`;
 * for the user keel.mcp.config, then Copilot's `mcp-config.json`, then VS Code's user
 * `mcp.json`. A workspace server and a user server of the same name both run, as before.
 */
export async function loadServers(userFiles: UserMcpFiles = {}): Promise<LoadedServers> {
	const entries: McpServerEntry[] = [];
	const errors: string[] = [];
	const declaredIn = new Map<string, string>();
	const add = (parsed: McpConfig, label: string, origin: string, folder?: string, file?: vscode.Uri) => {
		errors.push(...parsed.errors);
		for (const config of parsed.servers) {
			const scope = `${config.scope}:${config.scope === 'workspace' ? folder : ''}:${config.name}`;
			const first = declaredIn.get(scope);
			if (first !== undefined) {
				errors.push(`${label}: server "${config.name}" is declared in ${first} too; the one there is used.`);
				continue;
			}
			declaredIn.set(scope, label);
			entries.push({
				key: `${config.scope}:${origin}:${config.name}`,
				config,
				origin,
				folder,
				inputs: parsed.inputs,
				file,
			});
		}
	};
	const firstFolder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
	for (const folder of vscode.workspace.workspaceFolders ?? []) {
		for (const [parts, format] of [
			[['.mcp.json'], 'portable'],
			[['.vscode', 'mcp.json'], 'vscode'],
		] as const) {
			const uri = vscode.Uri.joinPath(folder.uri, ...parts);
			const text = await readText(uri);
			if (text === undefined) {
				continue;
			}
			const label = vscode.workspace.asRelativePath(uri);
			// The identity (consent, pins) of a `.vscode/mcp.json` server is what it always was.
			const origin = format === 'vscode' ? folder.uri.toString() : uri.toString();
			add(parseMcpConfigText(text, 'workspace', label, format), label, origin, folder.uri.fsPath, uri);
		}
	}
	// Only the user's own value: a workspace must not add servers through settings.json.
	const user = readSettingUnparsed('mcp.config');
	add(parseMcpConfig(user, 'user', 'keel.mcp.config (user settings)'), 'keel.mcp.config', 'user', firstFolder);
	for (const [uri, format, label, origin] of [
		[userFiles.copilot, 'portable', 'mcp-config.json (Copilot user configuration)', 'copilot-user'],
		[userFiles.vscode, 'vscode', 'mcp.json (VS Code user configuration)', 'vscode-user'],
	] as const) {
		const text = uri && (await readText(uri));
		if (text !== undefined && uri) {
			add(parseMcpConfigText(text, 'user', label, format), label, origin, firstFolder, uri);
		}
	}
	return { entries, errors };
}

/** The user's MCP files on this machine. */
export function userMcpFiles(globalStorageUri: vscode.Uri): Required<UserMcpFiles> {
	return { vscode: vscodeUserMcpFile(globalStorageUri), copilot: copilotUserMcpFile() };
}

/** What to watch: a change to any file that declares servers reloads them. */
export function mcpConfigPatterns(user: Required<UserMcpFiles>): Array<string | vscode.RelativePattern> {
	return [
		'**/.vscode/mcp.json',
		'**/.mcp.json',
		...[user.vscode, user.copilot].map(
			file => new vscode.RelativePattern(vscode.Uri.joinPath(file, '..'), path.posix.basename(file.path)),
		),
	];
}

/** VS Code keeps the user's MCP servers in mcp.json beside its settings.json (the User folder). */
export function vscodeUserMcpFile(globalStorageUri: vscode.Uri): vscode.Uri {
	return vscode.Uri.joinPath(globalStorageUri, '..', '..', 'mcp.json');
}

/** VS Code 1.140 and Copilot CLI: `$COPILOT_HOME/mcp-config.json`, by default `~/.copilot/mcp-config.json`. */
export function copilotUserMcpFile(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): vscode.Uri {
	return vscode.Uri.joinPath(vscode.Uri.file(env.COPILOT_HOME || path.join(home, '.copilot')), 'mcp-config.json');
}

/** Where a server's launch plan (mcpLaunch.ts) is worked out from: its identity, folder, home and environment. */
export function launchContext(entry: McpServerEntry): LaunchContext {
	return { identity: entry.key, folder: entry.folder, userHome: os.homedir(), env: process.env };
}

/** The entry as written: a change restarts the server (and its plan, so its consent, is worked out again). */
export function definition(entry: McpServerEntry): string {
	return JSON.stringify([entry.config, entry.inputs, entry.folder]);
}

/** Where the card says the server comes from: the file that declares it, as VS Code names it. */
export function consentSource(entry: McpServerEntry): string {
	if (entry.config.scope === 'user' || !entry.file) {
		return 'your user configuration';
	}
	// The folder's name only where there are several to tell apart.
	return vscode.workspace.asRelativePath(entry.file, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** The file that declares a server, short, for lists: `.mcp.json`, `.vscode/mcp.json`, `mcp-config.json`… */
export function declaredIn(entry: McpServerEntry): string {
	if (!entry.file) {
		return 'user settings';
	}
	return entry.config.scope === 'user'
		? path.posix.basename(entry.file.path)
		: vscode.workspace.asRelativePath(entry.file, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
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
