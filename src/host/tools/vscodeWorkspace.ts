import * as fs from 'fs/promises';
import * as vscode from 'vscode';
import type { FileStat, FileType, Workspace } from '../../core/ports';
import { folderNames, MultiRootWorkspace, type WorkspaceFolderRef } from '../../core/gate/paths/workspaceFolders';
import { tokenFromSignal } from '../platform/cancellation';

function toFileType(type: vscode.FileType): FileType {
	if (type & vscode.FileType.SymbolicLink) {
		return 'symlink';
	}
	if (type & vscode.FileType.Directory) {
		return 'directory';
	}
	if (type & vscode.FileType.File) {
		return 'file';
	}
	return 'unknown';
}

/**
 * The workspace the tools see: every folder of the window. One folder keeps plain relative
 * paths; several make paths start with the folder's name (core/gate/paths/workspaceFolders.ts).
 */
export class VscodeWorkspace extends MultiRootWorkspace {
	constructor() {
		const byUri = new Map<string, VscodeFolderWorkspace>();
		super(
			() => {
				const open = vscode.workspace.workspaceFolders ?? [];
				const names = folderNames(open.map(f => f.name));
				return open.map((folder, i): WorkspaceFolderRef => {
					const key = folder.uri.toString();
					let workspace = byUri.get(key);
					if (!workspace) {
						workspace = new VscodeFolderWorkspace(folder);
						byUri.set(key, workspace);
					}
					return { name: names[i], workspace };
				});
			},
			() => vscode.workspace.name,
		);
	}
}

/**
 * One workspace folder over `vscode.workspace.fs`, so reads see unsaved-file providers and
 * remote workspaces the same way the editor does. Paths arrive already normalised.
 */
export class VscodeFolderWorkspace implements Workspace {
	readonly uri: vscode.Uri;
	readonly rootName: string;

	constructor(private readonly _folder: vscode.WorkspaceFolder) {
		this.uri = _folder.uri;
		this.rootName = _folder.name;
	}

	private _uri(relativePath: string): vscode.Uri {
		return relativePath === '' ? this.uri : vscode.Uri.joinPath(this.uri, ...relativePath.split('/'));
	}

	async stat(relativePath: string): Promise<FileStat | undefined> {
		try {
			const uri = this._uri(relativePath);
			const stat = await vscode.workspace.fs.stat(uri);
			// vscode.FileStat has no link count; on the local disk ask Node, for the guard's hard-link check.
			const links =
				uri.scheme === 'file' && stat.type & vscode.FileType.File
					? (await fs.stat(uri.fsPath).catch(() => undefined))?.nlink
					: undefined;
			return { type: toFileType(stat.type), size: stat.size, mtime: stat.mtime, links };
		} catch (error) {
			if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') {
				return undefined;
			}
			throw error;
		}
	}

	readFile(relativePath: string): Promise<Uint8Array> {
		return Promise.resolve(vscode.workspace.fs.readFile(this._uri(relativePath)));
	}

	async readDirectory(relativePath: string): Promise<Array<[string, FileType]>> {
		const entries = await vscode.workspace.fs.readDirectory(this._uri(relativePath));
		return entries.map(([name, type]) => [name, toFileType(type)]);
	}

	async findFiles(glob: string, maxResults: number, signal?: AbortSignal): Promise<string[]> {
		const root = this.uri;
		const folder = this._folder;
		const source = tokenFromSignal(signal);
		try {
			// `undefined` excludes = the user's files.exclude, as the explorer shows it.
			// The folder itself as the base (not its URI), so the search runs as the editor's own, with its index.
			const uris = await vscode.workspace.findFiles(
				new vscode.RelativePattern(folder, glob),
				undefined,
				maxResults,
				source.token,
			);
			// Relative to this folder, whatever folder VS Code thinks owns the file (nested folders).
			return uris.map(uri => uri.path.slice(root.path.replace(/\/$/, '').length + 1));
		} finally {
			source.dispose();
		}
	}

	async writeFile(relativePath: string, content: Uint8Array): Promise<void> {
		await vscode.workspace.fs.writeFile(this._uri(relativePath), content);
	}

	async rootRealPath(): Promise<string | undefined> {
		// Symlinks can only be resolved on the local disk; elsewhere the guard works on names alone.
		return this.uri.scheme === 'file' ? fs.realpath(this.uri.fsPath) : undefined;
	}

	async realPath(relativePath: string): Promise<string | 'dangling' | undefined> {
		const uri = this._uri(relativePath);
		try {
			return await fs.realpath(uri.fsPath);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code !== 'ENOENT' && code !== 'ENOTDIR') {
				throw error;
			}
			const link = await fs.lstat(uri.fsPath).catch(() => undefined);
			return link?.isSymbolicLink() ? 'dangling' : undefined;
		}
	}

	/**
	 * Through a WorkspaceEdit, so an open editor shows the change and Undo reverts it; then
	 * saved, so the disk matches what the agent and the user see.
	 */
	async writeText(relativePath: string, text: string): Promise<void> {
		const uri = this._uri(relativePath);
		const edit = new vscode.WorkspaceEdit();
		if (!(await this.stat(relativePath))) {
			edit.createFile(uri, { contents: Buffer.from(text, 'utf8'), overwrite: false });
			await this._apply(edit, relativePath);
			return;
		}
		const document = await vscode.workspace.openTextDocument(uri);
		if (document.isDirty) {
			throw new Error(
				`${relativePath} has unsaved changes in the editor; save or revert them first so they are not overwritten.`,
			);
		}
		edit.replace(
			uri,
			new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)),
			text,
		);
		await this._apply(edit, relativePath);
		await document.save();
	}

	async createDirectory(relativePath: string): Promise<void> {
		await vscode.workspace.fs.createDirectory(this._uri(relativePath));
	}

	async delete(relativePath: string, options: { recursive: boolean }): Promise<void> {
		const edit = new vscode.WorkspaceEdit();
		edit.deleteFile(this._uri(relativePath), { recursive: options.recursive, ignoreIfNotExists: false });
		await this._apply(edit, relativePath);
	}

	async rename(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
		const edit = new vscode.WorkspaceEdit();
		edit.renameFile(this._uri(from), this._uri(to), { overwrite: options.overwrite });
		await this._apply(edit, from);
	}

	async copy(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
		await vscode.workspace.fs.copy(this._uri(from), this._uri(to), { overwrite: options.overwrite });
	}

	private async _apply(edit: vscode.WorkspaceEdit, path: string): Promise<void> {
		if (!(await vscode.workspace.applyEdit(edit, { isRefactoring: false }))) {
			throw new Error(`VS Code refused the change to ${path} (the file may be read-only or changed meanwhile).`);
		}
	}
}
