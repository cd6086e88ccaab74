/**
 * A folder copy, move or delete acts on every file inside it, so every file is checked:
 * a deny-listed file must not become readable under a new name (copying `.kube` to `kube2`
 * turns `.kube/config` into `kube2/config`), a hard link to a file outside must not be copied
 * in, and a protected file (a `.git/hooks` script) inside must not be replaced or removed
 * without the user looking.
 */
import type { Workspace } from '../../ports';
import { isForeignHardLink, PathRefused } from './paths';
import { isDeniedRead, isProtectedPath, type PathPolicy } from './pathPolicy';

/** More entries than this and the folder is refused rather than half-checked. */
export const MAX_CHECKED_ENTRIES = 20_000;

interface Entry {
	/** Relative to the folder. */
	relative: string;
	type: 'file' | 'directory' | 'symlink' | 'unknown';
}

async function entries(workspace: Workspace, folder: string): Promise<Entry[]> {
	const out: Entry[] = [];
	const pending = [''];
	while (pending.length) {
		const sub = pending.pop()!;
		for (const [name, type] of await workspace.readDirectory(sub ? `${folder}/${sub}` : folder)) {
			const relative = sub ? `${sub}/${name}` : name;
			out.push({ relative, type });
			if (out.length > MAX_CHECKED_ENTRIES) {
				throw new PathRefused(
					`${folder} holds more than ${MAX_CHECKED_ENTRIES} entries; Keel checks every file of a folder it copies, moves or deletes, so it refuses this one. Work on smaller folders, or use run_command.`,
				);
			}
			// Symlinks are copied or removed as links, never followed.
			if (type === 'directory') {
				pending.push(relative);
			}
		}
	}
	return out;
}

/**
 * Checks every entry of `from` (a folder), as it is now and as it would be named at `to`.
 * Throws PathRefused for deny-listed or foreign hard-linked files; returns the reasons a
 * protected entry needs the user to look.
 */
export async function checkFolderEntries(
	workspace: Workspace,
	policy: PathPolicy,
	from: string,
	to: string | undefined,
	action: 'copy' | 'move' | 'delete',
): Promise<string[]> {
	const stat = await workspace.stat(from);
	if (stat?.type !== 'directory') {
		return [];
	}
	const reasons: string[] = [];
	for (const entry of await entries(workspace, from)) {
		const source = `${from ? `${from}/` : ''}${entry.relative}`;
		const target = to === undefined ? undefined : `${to ? `${to}/` : ''}${entry.relative}`;
		if (
			action !== 'delete' &&
			(isDeniedRead(source, policy) || (target !== undefined && isDeniedRead(target, policy)))
		) {
			throw new PathRefused(
				`${from} contains ${source}, which matches the deny list (secrets, keys, credentials); ${action === 'copy' ? 'copying' : 'moving'} it would make it readable under another name, so the whole ${action} is refused.`,
			);
		}
		if (action === 'copy' && entry.type === 'file' && (await isForeignHardLink(workspace, source, 'write'))) {
			throw new PathRefused(
				`${source} is hard-linked to another file that may be outside the workspace; copying the folder would bring that file's content in, so it is refused.`,
			);
		}
		const protectedReason =
			isProtectedPath(source, policy) ?? (target !== undefined ? isProtectedPath(target, policy) : undefined);
		if (protectedReason && (action !== 'copy' || target !== undefined)) {
			reasons.push(`${action === 'copy' ? target : source}: ${protectedReason}`);
		}
	}
	return [...new Set(reasons)].slice(0, 20);
}
