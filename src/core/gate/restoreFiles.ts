import * as fs from 'fs';
import * as path from 'path';
import { isDeniedRead, isProtectedPath, type PathPolicy } from './paths/pathPolicy';
import { normalizeWorkspacePath, PathRefused } from './paths/paths';

// Where the platform has it (not Windows), a file is rewritten in place only if its last entry is not a link.
const NOFOLLOW = fs.constants.O_NOFOLLOW as number | undefined;

/**
 * A restore's writes and deletes on the local disk, each decided when it is done. Every folder
 * on the way must be a real folder inside the root, not a symlink: a link, whether the
 * checkpoint put it back a moment ago or someone swapped it in while a dialog waited, may lead
 * outside the workspace or into a protected folder, and a restore puts entries back, it never
 * writes through one. The last entry is never followed or written through, so neither a
 * symlink nor a hard link there sends the bytes elsewhere: a plain file with no other name is
 * rewritten in place (opened without following a link, and checked on the open handle), anything
 * else is removed and created anew, exclusively, as git's own checkout does. Node has no openat(),
 * so a swap in the microseconds between a folder's check and the call stays possible; the check
 * is made as late as Node allows.
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
		const stat = lstat(target);
		if (stat?.isDirectory()) {
			throw new PathRefused(`${rel} is a folder now; a restore does not replace a folder with a file.`);
		}
		if (stat && overwrite(target, stat, bytes, executable)) {
			return;
		}
		if (stat) {
			fs.unlinkSync(target); // the entry itself: a link goes, what it points to stays
		}
		// Exclusive: whatever appeared there since (a link swapped in) is refused, never followed.
		fs.writeFileSync(target, bytes, { flag: 'wx', mode: executable ? 0o755 : 0o644 });
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
		if (lstat(target)) {
			fs.unlinkSync(target);
		}
		fs.symlinkSync(linkText, target); // fails, rather than follows, if something appeared there since
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

/**
 * Rewrites the regular file at `target` in place when it is still the entry `seen` (same file,
 * no other name, the same executable bit), checked on the opened handle; false when it is not,
 * and then nothing was written. In place is about twice as fast as a new entry, and an editor
 * watching the file sees it change rather than vanish and reappear.
 */
function overwrite(target: string, seen: fs.Stats, bytes: Uint8Array, executable: boolean): boolean {
	if (NOFOLLOW === undefined || !seen.isFile() || seen.nlink !== 1 || ((seen.mode & 0o111) !== 0) !== executable) {
		return false;
	}
	let fd: number;
	try {
		// Non-blocking: a FIFO swapped in since the lstat must not hang the restore.
		fd = fs.openSync(target, fs.constants.O_WRONLY | NOFOLLOW | fs.constants.O_NONBLOCK);
	} catch {
		return false;
	}
	try {
		const open = fs.fstatSync(fd);
		if (!open.isFile() || open.nlink !== 1 || open.ino !== seen.ino || open.dev !== seen.dev) {
			return false;
		}
		fs.ftruncateSync(fd, 0);
		for (let at = 0; at < bytes.length;) {
			at += fs.writeSync(fd, bytes, at, bytes.length - at, at);
		}
		return true;
	} finally {
		fs.closeSync(fd);
	}
}

function lstat(file: string): fs.Stats | undefined {
	try {
		return fs.lstatSync(file);
	} catch {
		return undefined;
	}
}
