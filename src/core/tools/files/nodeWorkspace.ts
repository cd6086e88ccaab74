import * as fs from 'fs/promises';
import * as path from 'path';
import picomatch from 'picomatch';
import type { FileStat, FileType, Workspace } from '../../ports';

/**
 * The Workspace port on the local disk with plain Node `fs`. Used by the integration and
 * security tiers and the benches, so the guard is tested against real symlinks; the
 * extension itself uses host/vscodeWorkspace.ts. Paths arrive already checked by the guard.
 */
export class NodeWorkspace implements Workspace {
	readonly rootName: string;
	private _realRoot: string | undefined;

	constructor(readonly root: string) {
		this.rootName = path.basename(root);
	}

	private _abs(relative: string): string {
		return relative === '' ? this.root : path.join(this.root, ...relative.split('/'));
	}

	async rootRealPath(): Promise<string> {
		return (this._realRoot ??= await fs.realpath(this.root));
	}

	async realPath(relative: string): Promise<string | 'dangling' | undefined> {
		const abs = this._abs(relative);
		try {
			return await fs.realpath(abs);
		} catch (error) {
			if (
				(error as NodeJS.ErrnoException).code !== 'ENOENT' &&
				(error as NodeJS.ErrnoException).code !== 'ENOTDIR'
			) {
				throw error;
			}
			// realpath fails the same for "nothing here" and "a link to nothing": lstat tells them apart.
			const link = await fs.lstat(abs).catch(() => undefined);
			return link?.isSymbolicLink() ? 'dangling' : undefined;
		}
	}

	async stat(relative: string): Promise<FileStat | undefined> {
		try {
			const link = await fs.lstat(this._abs(relative));
			const target = link.isSymbolicLink() ? await fs.stat(this._abs(relative)).catch(() => undefined) : link;
			return {
				type: link.isSymbolicLink() && !target ? 'symlink' : toType(target ?? link),
				size: (target ?? link).size,
				mtime: (target ?? link).mtimeMs,
				links: (target ?? link).nlink,
			};
		} catch {
			return undefined;
		}
	}

	async readFile(relative: string): Promise<Uint8Array> {
		return fs.readFile(this._abs(relative));
	}

	async readDirectory(relative: string): Promise<Array<[string, FileType]>> {
		const entries = await fs.readdir(this._abs(relative), { withFileTypes: true });
		return entries.map(entry => [
			entry.name,
			entry.isSymbolicLink()
				? 'symlink'
				: entry.isDirectory()
					? 'directory'
					: entry.isFile()
						? 'file'
						: 'unknown',
		]);
	}

	/**
	 * Follows symlinks as the editor's findFiles does (search.followSymlinks is on by default), so
	 * what Keel finds on its own here is what it finds in VS Code: a linked file or folder shows up
	 * under its link's name. A folder already walked (a link loop) is not walked twice.
	 */
	async findFiles(glob: string, maxResults: number, signal?: AbortSignal): Promise<string[]> {
		const match = picomatch(glob, { dot: false });
		const found: string[] = [];
		const walked = new Set<string>();
		const walk = async (dir: string): Promise<void> => {
			const real = await fs.realpath(this._abs(dir)).catch(() => undefined);
			if (real === undefined || walked.has(real)) {
				return;
			}
			walked.add(real);
			for (const [name, type] of await this.readDirectory(dir)) {
				if (found.length >= maxResults || signal?.aborted || name === '.git' || name === 'node_modules') {
					continue;
				}
				const child = dir === '' ? name : `${dir}/${name}`;
				const kind = type === 'symlink' ? (await this.stat(child))?.type : type;
				if (kind === 'directory') {
					await walk(child);
				} else if (kind === 'file' && match(child)) {
					found.push(child);
				}
			}
		};
		await walk('');
		return found;
	}

	async writeFile(relative: string, content: Uint8Array): Promise<void> {
		await fs.mkdir(path.dirname(this._abs(relative)), { recursive: true });
		await fs.writeFile(this._abs(relative), content);
	}

	writeText(relative: string, text: string): Promise<void> {
		return this.writeFile(relative, Buffer.from(text, 'utf8'));
	}

	async createDirectory(relative: string): Promise<void> {
		await fs.mkdir(this._abs(relative), { recursive: true });
	}

	async delete(relative: string, options: { recursive: boolean }): Promise<void> {
		// rm never follows a symlink: deleting a link removes the link, not its target.
		await fs.rm(this._abs(relative), { recursive: options.recursive, force: false });
	}

	async rename(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
		if (!options.overwrite && (await this.stat(to))) {
			throw new Error(`${to} already exists`);
		}
		await fs.mkdir(path.dirname(this._abs(to)), { recursive: true });
		await fs.rename(this._abs(from), this._abs(to));
	}

	async copy(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
		await fs.mkdir(path.dirname(this._abs(to)), { recursive: true });
		// verbatimSymlinks: a link inside the copy stays a link; it is never dereferenced into a copy of its target.
		await fs.cp(this._abs(from), this._abs(to), {
			recursive: true,
			force: options.overwrite,
			errorOnExist: !options.overwrite,
			verbatimSymlinks: true,
		});
	}
}

function toType(stat: { isDirectory(): boolean; isFile(): boolean }): FileType {
	return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'unknown';
}
