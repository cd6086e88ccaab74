import * as fs from 'fs';
import * as path from 'path';
import { isDeniedRead, isProtectedPath, type PathPolicy } from './paths/pathPolicy';
import { normalizeWorkspacePath, PathRefused } from './paths/paths';

let counter = 0;

/**
 * A restore's writes and deletes on the local disk, each decided when it is done. Every folder
 * on the way must be a real folder inside the root, not a symlink: a link, whether the
 * checkpoint put it back a moment ago or someone swapped it in while a dialog waited, may lead
 * outside the workspace or into a protected folder, and a restore puts entries back, it never
 * writes through one. The last entry is replaced (a temporary file renamed over it), never
 * followed or written through, so neither a symlink nor a hard link there sends the bytes
 * elsewhere. Node has no openat(), so a swap in the microseconds between the check and the call
 * stays possible; the check is made as late as Node allows.
 */
export class RestoreFiles {
	private _real: string | undefined;

	constructor(
		private readonly _root: string,
		private readonly _policy: PathPolicy,
		/** Protected paths the user allowed this restore to write. */
		private readonly _approved: ReadonlySet<string>,
	) {}

	/** Writes a file's bytes at `rel` (replacing what is there, a link included). */
	write(rel: string, bytes: Uint8Array, executable: boolean): void {
		const { dir, base } = this._place(rel, 'write', true)!;
		const target = path.join(dir, base);
		if (lstat(target)?.isDirectory()) {
			throw new PathRefused(`${rel} is a folder now; a restore does not replace a folder with a file.`);
		}
		const temp = path.join(dir, `.${base}.keel-restore-${process.pid}-${++counter}`);
		fs.writeFileSync(temp, bytes, { flag: 'wx', mode: executable ? 0o755 : 0o644 });
		try {
			fs.renameSync(temp, target);
		} catch (error) {
			fs.rmSync(temp, { force: true });
			throw error;
		}
	}

	/** Puts a symlink back; one that points outside the workspace is refused (nothing would guard what it opens). */
	link(rel: string, linkText: string): void {
		const lands = path.posix.normalize(path.posix.join(path.posix.dirname(rel), linkText.replace(/\\/g, '/')));
		if (path.isAbsolute(linkText) || lands === '..' || lands.startsWith('../')) {
			throw new PathRefused(`${rel} is a symlink to ${linkText}, outside the workspace; it was not put back.`);
		}
		const { dir, base } = this._place(rel, 'write', true)!;
		const target = path.join(dir, base);
		if (lstat(target)?.isDirectory()) {
			throw new PathRefused(`${rel} is a folder now; a restore does not replace a folder with a link.`);
		}
		const temp = path.join(dir, `.${base}.keel-restore-${process.pid}-${++counter}`);
		fs.symlinkSync(linkText, temp);
		try {
			fs.renameSync(temp, target);
		} catch (error) {
			fs.rmSync(temp, { force: true });
			throw error;
		}
	}

	/** Deletes the entry at `rel` (a link itself, never what it points to); nothing there is fine. */
	remove(rel: string): void {
		const place = this._place(rel, 'delete', false);
		if (!place) {
			return;
		}
		const target = path.join(place.dir, place.base);
		const stat = lstat(target);
		if (!stat) {
			return;
		}
		if (stat.isDirectory()) {
			throw new PathRefused(`${rel} is a folder now; a restore deletes files, not folders.`);
		}
		fs.unlinkSync(target);
	}

	/** Removes the folders above `rel` that are empty now (real folders only, never the root). */
	prune(rel: string): void {
		const parts = rel.split('/').slice(0, -1);
		for (let keep = parts.length; keep > 0; keep--) {
			try {
				const place = this._folder(parts.slice(0, keep));
				if (place) {
					fs.rmdirSync(place);
				}
			} catch {
				return; // not empty, a link now, or gone
			}
		}
	}

	/** The real folder that holds `rel`'s last entry, checked now; undefined when part of it is missing and `create` is off. */
	private _place(
		rel: string,
		intent: 'write' | 'delete',
		create: boolean,
	): { dir: string; base: string } | undefined {
		const checked = normalizeWorkspacePath(rel);
		if (!checked.ok || checked.path === '' || checked.path !== rel) {
			throw new PathRefused(`${rel} is not a plain workspace path.`);
		}
		const reason = isProtectedPath(rel, this._policy);
		if (reason && !this._approved.has(rel)) {
			throw new PathRefused(`${rel} is protected (${reason}) and writing it was not approved.`);
		}
		if (intent === 'write' && isDeniedRead(rel, this._policy)) {
			throw new PathRefused(`${rel} is on the deny list; a restore does not write it.`);
		}
		const parts = rel.split('/');
		const dir = this._folder(parts.slice(0, -1), create);
		return dir === undefined ? undefined : { dir, base: parts[parts.length - 1] };
	}

	/** Walks `parts` from the root: each must be a real folder (created when missing and `create`). */
	private _folder(parts: string[], create = false): string | undefined {
		let dir = (this._real ??= fs.realpathSync(this._root));
		for (let i = 0; i < parts.length; i++) {
			const next = path.join(dir, parts[i]);
			let stat = lstat(next);
			if (!stat) {
				if (!create) {
					return undefined;
				}
				fs.mkdirSync(next);
				stat = fs.lstatSync(next);
			}
			const shown = parts.slice(0, i + 1).join('/');
			if (stat.isSymbolicLink()) {
				throw new PathRefused(
					`${shown} is a symlink now (to ${fs.readlinkSync(next)}); what lies beneath it was left alone.`,
				);
			}
			if (!stat.isDirectory()) {
				throw new PathRefused(`${shown} is not a folder now; what lies beneath it was left alone.`);
			}
			dir = next;
		}
		return dir;
	}
}

function lstat(file: string): fs.Stats | undefined {
	try {
		return fs.lstatSync(file);
	} catch {
		return undefined;
	}
}
