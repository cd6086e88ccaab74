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
import { parseEnvFile, resolveServer, type VariableContext } from '../../core/tools/sources/mcpVariables';
import type { McpInputs } from './mcpInputs';
import { readSettingUnparsed } from '../settings/settings';

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

async function readText(uri: vscode.Uri): Promise<string | undefined> {
	try {
		return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
	} catch {
		return undefined;
	}
}

/** Variables, inputs (SecretStorage) and envFile, resolved just before a start. */
export async function resolveEntry(
	entry: McpServerEntry,
	inputs: McpInputs,
): Promise<{ config: McpServerConfig; env: Record<string, string> }> {
	const context: VariableContext = {
		workspaceFolder: entry.folder,
		userHome: os.homedir(),
		pathSeparator: path.sep,
		env: process.env,
		input: id => inputs.resolve(entry.config.scope, entry.origin, entry.inputs, id),
	};
	const config = await resolveServer(entry.config, context);
	let env: Record<string, string> = {};
	if (config.envFile) {
		const file = path.isAbsolute(config.envFile)
			? config.envFile
			: path.join(entry.folder ?? os.homedir(), config.envFile);
		try {
			env = parseEnvFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(file))));
		} catch (error) {
			throw new Error(`envFile ${config.envFile} could not be read (${(error as Error).message})`, {
				cause: error,
			});
		}
	}
	if (config.cwd === undefined && entry.folder && config.type === 'stdio') {
		config.cwd = entry.folder;
	}
	return { config, env: { ...env, ...config.env } };
}

/** Where the card says the server comes from: the folder's .vscode/mcp.json, as VS Code names it. */
export function consentSource(entry: McpServerEntry): string {
	const file = vscode.Uri.joinPath(vscode.Uri.parse(entry.origin), '.vscode', 'mcp.json');
	// The folder's name only where there are several to tell apart.
	return entry.config.scope === 'user'
		? 'your user configuration'
		: vscode.workspace.asRelativePath(file, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}
