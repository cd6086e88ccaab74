import * as vscode from 'vscode';
import type { KeelPlace } from '../../core/llm/catalog/providers';

/**
 * Where this extension host runs, as a plain fact for the engine. Keel has a Node `main` and no
 * `browser` entry, which VS Code runs in the workspace extension host: in a remote window
 * (Remote-SSH, WSL, a dev container, Codespaces, a tunnel, code-server) on the remote machine,
 * beside the files, and
 * `vscode.env.remoteName` names that remote; in a local window it is undefined.
 */
export function keelPlace(): KeelPlace {
	const remote = vscode.env.remoteName;
	return remote ? { remote } : {};
}
