/**
 * Multi-root workspaces. With one folder open nothing changes: paths are relative to it.
 * With several, the workspace is a virtual root whose entries are the folders, and every
 * path starts with a folder's name: "api/src/app.ts", "web/package.json". Each folder keeps
 * its own Workspace (its own disk root), so the guard resolves and canonicalises a path
 * inside the one folder it names, and a path that names no folder is refused.
 *
 * Names: the folder's name as the editor shows it (a `.code-workspace` file may set it),
 * made safe for a path segment. Two folders with the same name: the first keeps it, the
 * next ones get "-2", "-3", … in the workspace's folder order (a name already taken by
 * another folder is skipped), so a name never changes while the folder list stays the same.
 */
import type { FileStat, FileType, Workspace } from '../../ports';

/**
 * Where the sandbox mounts the workspace: one folder at this path, several at `<path>/<name>`
 * with the names below, so a command's absolute path under it names a workspace path.
 */
export const WORKSPACE_MOUNT = '/workspace';

export interface WorkspaceFolderRef {
	/** The path segment that addresses this folder: unique among the workspace's folders. */
	name: string;
	workspace: Workspace;
}

// What the path guard refuses in a segment (slashes, control bytes, %xx, look-alike dots and
// slashes, a leading "~" or "$"): replaced so a folder's name is always a plain segment.
const UNSAFE =
	// eslint-disable-next-line no-control-regex
	/[\u0000-\u001f\u007f/\\%:*?"<>|\u2024\u2025\u2026\uFE52\uFF0E\u2215\u2044\uFF0F\u29F8\uFE68\uFF3C\u2216]/g;

/** One name per folder, in order, by the rule above. */
export function folderNames(names: readonly string[]): string[] {
	const safe = names.map(name => {
		const cleaned = name
			.trim()
			.replace(UNSAFE, '-')
			.replace(/^[~$]+/, '');
		return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'folder' : cleaned;
	});
	const taken = new Set<string>();
	// Names as written come first, so a folder really called "app-2" keeps it over a renamed duplicate.
	const firsts = new Set<number>();
	safe.forEach((name, i) => {
		if (!taken.has(name.toLowerCase())) {
			taken.add(name.toLowerCase());
			firsts.add(i);
		}
	});
	return safe.map((name, i) => {
		if (firsts.has(i)) {
			return name;
		}
		let n = 2;
		while (taken.has(`${name}-${n}`.toLowerCase())) {
			n++;
		}
		taken.add(`${name}-${n}`.toLowerCase());
		return `${name}-${n}`;
	});
}

/** Splits "api/src/x.ts" into the folder and the path inside it; '' is the virtual root. */
export function splitFolderPath(
	folders: readonly WorkspaceFolderRef[],
	path: string,
): { folder: WorkspaceFolderRef; rest: string } | undefined {
	const slash = path.indexOf('/');
	const head = slash < 0 ? path : path.slice(0, slash);
	const folder = folders.find(f => f.name === head) ?? folders.find(f => f.name.toLowerCase() === head.toLowerCase());
	return folder ? { folder, rest: slash < 0 ? '' : path.slice(slash + 1) } : undefined;
}

export function unknownFolderMessage(folders: readonly WorkspaceFolderRef[], input: string): string {
	const names = folders.map(f => `${f.name}/`).join(', ');
	return `"${input}" is not inside a workspace folder. This workspace has ${folders.length} folders, so every path starts with a folder's name: ${names} (e.g. "${folders[0].name}/README.md").`;
}

/** The folders when the workspace has several; undefined for a single-folder workspace. */
export function multiRootFolders(workspace: Workspace): readonly WorkspaceFolderRef[] | undefined {
	const folders = workspace.folders?.();
	return folders && folders.length > 1 ? folders : undefined;
}

/**
 * Where search tools run: one disk root per folder, with the prefix their results take.
 * Folders not on the local disk have no root and are left out (grep cannot run there).
 */
export async function searchRoots(
	workspace: Workspace,
): Promise<Array<{ prefix: string; root: string; folder: string }>> {
	const folders = multiRootFolders(workspace);
	if (!folders) {
		const root = await workspace.rootRealPath();
		return root ? [{ prefix: '', root, folder: '' }] : [];
	}
	const roots: Array<{ prefix: string; root: string; folder: string }> = [];
	for (const folder of folders) {
		const root = await folder.workspace.rootRealPath();
		if (root) {
			roots.push({ prefix: `${folder.name}/`, root, folder: folder.name });
		}
	}
	return roots;
}

/**
 * A path filter or glob for one folder: "api/src/**" applies to the api folder only (as
 * "src/**"); a glob that names no folder ("**\/*.ts") applies to every folder.
 */
export function globForFolder(glob: string, folder: string, folders: readonly string[]): string | undefined {
	const slash = glob.indexOf('/');
	const head = slash < 0 ? glob : glob.slice(0, slash);
	if (folders.includes(head)) {
		return head === folder ? (slash < 0 ? '**' : glob.slice(slash + 1)) : undefined;
	}
	return glob;
}

/**
 * The workspace as the tools see it: one folder passes straight through; several become a
 * virtual root whose paths start with a folder's name. The list is read on every call, so
 * folders added or removed while the window is open apply to the next call.
 */
export class MultiRootWorkspace implements Workspace {
	constructor(
		private readonly _folders: () => readonly WorkspaceFolderRef[],
		private readonly _name: () => string | undefined = () => undefined,
	) {}

	folders(): readonly WorkspaceFolderRef[] {
		return this._folders();
	}

	get rootName(): string {
		const folders = this._folders();
		if (folders.length === 1) {
			return folders[0].workspace.rootName;
		}
		return this._name() ?? (folders.length ? folders.map(f => f.name).join(', ') : '(no folder open)');
	}

	/** The folder and the path inside it; throws for a path that names no folder. */
	private _route(path: string): { workspace: Workspace; rest: string } {
		const folders = this._folders();
		if (folders.length === 0) {
			throw new Error(
				'No folder is open. Open a folder (File → Open Folder) so Keel has a workspace to work in.',
			);
		}
		if (folders.length === 1) {
			return { workspace: folders[0].workspace, rest: path };
		}
		const hit = splitFolderPath(folders, path);
		if (!hit || path === '') {
			throw new Error(
				path === ''
					? 'The workspace root holds only its folders; name one of them.'
					: unknownFolderMessage(folders, path),
			);
		}
		return { workspace: hit.folder.workspace, rest: hit.rest };
	}

	private _isVirtualRoot(path: string): boolean {
		return path === '' && this._folders().length > 1;
	}

	async stat(path: string): Promise<FileStat | undefined> {
		if (this._isVirtualRoot(path)) {
			return { type: 'directory', size: 0, mtime: 0 };
		}
		const folders = this._folders();
		if (folders.length > 1 && !splitFolderPath(folders, path)) {
			return undefined;
		}
		const { workspace, rest } = this._route(path);
		return workspace.stat(rest);
	}

	async readFile(path: string): Promise<Uint8Array> {
		const { workspace, rest } = this._route(path);
		return workspace.readFile(rest);
	}

	async readDirectory(path: string): Promise<Array<[string, FileType]>> {
		if (this._isVirtualRoot(path)) {
			return this._folders().map(f => [f.name, 'directory']);
		}
		const { workspace, rest } = this._route(path);
		return workspace.readDirectory(rest);
	}

	async findFiles(glob: string, maxResults: number, signal?: AbortSignal): Promise<string[]> {
		const folders = this._folders();
		if (folders.length <= 1) {
			return folders.length ? folders[0].workspace.findFiles(glob, maxResults, signal) : [];
		}
		const found: string[] = [];
		for (const folder of folders) {
			const own = globForFolder(
				glob,
				folder.name,
				folders.map(f => f.name),
			);
			if (own === undefined || found.length >= maxResults) {
				continue;
			}
			const files = await folder.workspace.findFiles(own, maxResults - found.length, signal);
			found.push(...files.map(file => `${folder.name}/${file}`));
		}
		return found;
	}

	async writeFile(path: string, content: Uint8Array): Promise<void> {
		const { workspace, rest } = this._route(path);
		return workspace.writeFile(rest, content);
	}

	/** Only one folder has a single root; the guard resolves several folders one by one. */
	async rootRealPath(): Promise<string | undefined> {
		const folders = this._folders();
		return folders.length === 1 ? folders[0].workspace.rootRealPath() : undefined;
	}

	async realPath(path: string): Promise<string | 'dangling' | undefined> {
		const { workspace, rest } = this._route(path);
		return workspace.realPath(rest);
	}

	async writeText(path: string, text: string): Promise<void> {
		const { workspace, rest } = this._route(path);
		return workspace.writeText(rest, text);
	}

	async createDirectory(path: string): Promise<void> {
		const { workspace, rest } = this._route(path);
		return workspace.createDirectory(rest);
	}

	async delete(path: string, options: { recursive: boolean }): Promise<void> {
		const { workspace, rest } = this._route(path);
		return workspace.delete(rest, options);
	}

	async rename(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
		const a = this._route(from);
		const b = this._route(to);
		if (a.workspace === b.workspace) {
			return a.workspace.rename(a.rest, b.rest, options);
		}
		// Across folders: copy then delete, since each folder may live on another file system.
		await this._copyFile(a, b, from, to, options.overwrite);
		await a.workspace.delete(a.rest, { recursive: false });
	}

	async copy(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
		const a = this._route(from);
		const b = this._route(to);
		if (a.workspace === b.workspace) {
			return a.workspace.copy(a.rest, b.rest, options);
		}
		await this._copyFile(a, b, from, to, options.overwrite);
	}

	private async _copyFile(
		a: { workspace: Workspace; rest: string },
		b: { workspace: Workspace; rest: string },
		from: string,
		to: string,
		overwrite: boolean,
	): Promise<void> {
		if (!overwrite && (await b.workspace.stat(b.rest))) {
			throw new Error(`${to} already exists`);
		}
		if ((await a.workspace.stat(a.rest))?.type !== 'file') {
			throw new Error(
				`${from} is a folder; moving or copying a folder from one workspace folder to another is not supported. Do it file by file.`,
			);
		}
		await b.workspace.writeFile(b.rest, await a.workspace.readFile(a.rest));
	}
}
