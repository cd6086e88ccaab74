import * as vscode from 'vscode';

/**
 * Files Keel reads or writes that are not the workspace files the tools reach through the
 * Workspace port: ones the user chose (an export's destination, the filter file named in their
 * settings, a new mcp.json they asked for) and the editor's MCP configuration. Callers decide
 * through the gate first where a decision applies (an export into the workspace is a write).
 */
export async function readText(uri: vscode.Uri): Promise<string | undefined> {
	try {
		return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
	} catch {
		return undefined;
	}
}

export async function exists(uri: vscode.Uri): Promise<boolean> {
	return Promise.resolve(vscode.workspace.fs.stat(uri)).then(
		() => true,
		() => false,
	);
}

export async function writeText(uri: vscode.Uri, text: string): Promise<void> {
	await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}

export async function writeBytes(uri: vscode.Uri, bytes: Uint8Array): Promise<void> {
	await vscode.workspace.fs.writeFile(uri, bytes);
}
