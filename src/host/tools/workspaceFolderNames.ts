import * as vscode from 'vscode';
import { folderNames } from '../../core/gate/paths/workspaceFolders';

/**
 * The window's folders under the names the tools use for them (core/gate/paths/workspaceFolders.ts),
 * for host code that turns a workspace-relative path into a URI or back.
 */
export function namedFolders(): Array<{ name: string; folder: vscode.WorkspaceFolder }> {
	const open = vscode.workspace.workspaceFolders ?? [];
	const names = folderNames(open.map(f => f.name));
	return open.map((folder, i) => ({ name: names[i], folder }));
}

/** "api/src/x.ts" → the file in the api folder (a single folder: relative to it); undefined when no folder matches. */
export function uriOfRelative(relative: string): vscode.Uri | undefined {
	const all = namedFolders();
	const parts = relative.split('/').filter(Boolean);
	if (all.length <= 1) {
		return all[0] ? vscode.Uri.joinPath(all[0].folder.uri, ...parts) : undefined;
	}
	const hit = all.find(f => f.name === parts[0]);
	return hit ? vscode.Uri.joinPath(hit.folder.uri, ...parts.slice(1)) : undefined;
}

/** The path the tools would use for a file of the workspace, or undefined outside every folder. */
export function relativeOfUri(uri: vscode.Uri): string | undefined {
	const owner = vscode.workspace.getWorkspaceFolder(uri);
	if (!owner) {
		return undefined;
	}
	const all = namedFolders();
	const rest = uri.path.slice(owner.uri.path.replace(/\/$/, '').length + 1);
	if (all.length <= 1) {
		return rest;
	}
	const name = all.find(f => f.folder.uri.toString() === owner.uri.toString())?.name;
	return name ? (rest ? `${name}/${rest}` : name) : undefined;
}
