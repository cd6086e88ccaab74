/**
 * The workspace guard. Two lines of defence:
 *  1. `normalizeWorkspacePath` (pure): model input → normalised workspace-relative POSIX path,
 *     refusing NUL and control bytes, URL encodings, `~`, absolute and drive paths, URLs, `..`
 *     that leaves the root, and Unicode look-alikes of dots and slashes.
 *  2. `WorkspaceGuard.resolve` (real fs): canonicalises through the Workspace port (realpath,
 *     with an ancestor walk for paths that do not exist yet), refuses anything whose canonical
 *     location is not under the canonical root (symlinks out, prefix siblings such as /ws-evil
 *     next to /ws), dangling symlinks, deleting the root, and deny-read files.
 * The policy (deny-read, allow overrides, always-ask paths) lives in pathPolicy.ts.
 * In a multi-root workspace the first segment names the folder, and the rest is checked in
 * that folder exactly as above, against that folder's canonical root: a symlink that leaves
 * its folder is refused even when it lands in another workspace folder (the model is told the
 * path through that folder), so each folder's guard stands on its own, as its sandbox mount does.
 */
import type { Workspace } from '../../ports';
import { isDeniedRead, isProtectedPath, type PathPolicy, defaultPathPolicy } from './pathPolicy';
import { multiRootFolders, splitFolderPath, unknownFolderMessage } from './workspaceFolders';
import { climbsAfterName, kernelWalk, lexicalSegments, relativeUnder } from './kernelWalk';

export type PathCheck = { ok: true; path: string } | { ok: false; message: string };

// Fullwidth/halfwidth/other dots and slashes that some layers fold to "." and "/".
const LOOKALIKES = /[\u2024\u2025\u2026\uFE52\uFF0E\u2215\u2044\uFF0F\u29F8\uFE68\uFF3C\u2216]/;

export function normalizeWorkspacePath(input: string): PathCheck {
	if (input.includes('\0')) {
		return { ok: false, message: 'The path contains a NUL byte. Use a plain workspace-relative path.' };
	}
	// eslint-disable-next-line no-control-regex
	if (/[\u0001-\u001f\u007f]/.test(input)) {
		return { ok: false, message: 'The path contains control characters. Use a plain workspace-relative path.' };
	}
	let path = input.trim().replace(/\\/g, '/');
	if (/%[0-9a-f]{2}/i.test(path)) {
		return {
			ok: false,
			message: `"${input}" contains URL-encoded characters. Use a plain workspace-relative path.`,
		};
	}
	if (LOOKALIKES.test(path)) {
		return {
			ok: false,
			message: `"${input}" contains look-alike dot or slash characters. Use plain ASCII "." and "/".`,
		};
	}
	if (path.startsWith('~') || path.includes('$HOME') || path.includes('${')) {
		return {
			ok: false,
			message: `"${input}" points into a home folder or uses a variable. Only paths inside the workspace are allowed.`,
		};
	}
	if (path.startsWith('/') || /^[a-zA-Z]:/.test(path) || /^[a-z][a-z0-9+.-]*:/i.test(path)) {
		return {
			ok: false,
			message: `"${input}" is absolute. Use a path relative to the workspace root, e.g. "src/app.ts".`,
		};
	}
	const parts: string[] = [];
	for (const segment of path.split('/')) {
		if (segment === '' || segment === '.') {
			continue;
		}
		if (segment === '..') {
			if (parts.length === 0) {
				return {
					ok: false,
					message: `"${input}" leaves the workspace. Only paths inside the workspace are allowed.`,
				};
			}
			parts.pop();
			continue;
		}
		parts.push(segment);
	}
	path = parts.join('/');
	return { ok: true, path };
}

export function displayPath(path: string): string {
	return path === '' ? '.' : path;
}

/** Thrown inside tools so every refusal becomes the same kind of result. */
export class PathRefused extends Error {}

/**
 * Not a refusal: the call does not fit what is there (the text to replace is not in the file,
 * a directory where a file was meant). Its message speaks for itself, like a refusal's, but it
 * is the model's mistake to correct, never "not allowed here".
 */
export class CallMismatch extends Error {}

export type PathIntent = 'read' | 'list' | 'write' | 'delete';

export interface ResolvedPath {
	/** Normalised as the model asked for it; what the Workspace port is handed. */
	path: string;
	/** Where it really lands, relative to the canonical root (differs when a symlink inside the root is involved). */
	canonical: string;
	exists: boolean;
	/** Why a write here must always ask (editor/agent control files), or undefined. */
	protectedReason?: string;
	/** The path as it was asked for, `..` and all: what `confirm` walks again. */
	asked?: string;
	/** Asked as a shell word (split as the kernel splits, no model-input checks), not as a tool's path. */
	word?: boolean;
}

/** `child` is `root` or strictly below it. Compares whole segments, so /ws-evil is not under /ws. */
export function isUnder(root: string, child: string): boolean {
	if (child === root) {
		return true;
	}
	const base =
		root.endsWith('/') || root.endsWith('\\')
			? root
			: root + (root.includes('\\') && !root.includes('/') ? '\\' : '/');
	return child.startsWith(base);
}

export class WorkspaceGuard {
	constructor(
		private readonly _workspace: Workspace,
		private readonly _policy: PathPolicy = defaultPathPolicy,
	) {}

	/** Resolves or throws PathRefused with a sentence the model can act on. */
	async resolve(input: string, intent: PathIntent): Promise<ResolvedPath> {
		const checked = normalizeWorkspacePath(input);
		if (!checked.ok) {
			throw new PathRefused(checked.message);
		}
		const segments = input.trim().replace(/\\/g, '/').split('/');
		return { ...(await this._resolveChecked(checked.path, segments, input, intent)), asked: input };
	}

	/**
	 * A word a command is given, as the kernel reads it: split at "/" only (and at "\\" on
	 * Windows), every segment a plain name (`%20`, a backslash, `http:`, `${x}` are names), each
	 * `..` taken after the real folder it follows. No model-input checks: the word is what the
	 * program will open, whatever it looks like. Relative to the workspace root.
	 */
	async resolveWord(word: string, intent: PathIntent): Promise<ResolvedPath> {
		const segments = word.split(process.platform === 'win32' ? /[\\/]/ : '/');
		const lexical = lexicalSegments(segments);
		if (lexical === undefined) {
			// Say where the kernel lands, so a swap that makes it land elsewhere changes the reason.
			const root = multiRootFolders(this._workspace) ? undefined : await this._workspace.rootRealPath();
			const walk = root === undefined ? undefined : await kernelWalk(this._workspace, root, segments);
			const where = walk?.kind === 'outside' ? ` (it opens ${walk.opens})` : '';
			throw new PathRefused(
				`"${word}" leaves the workspace${where}. Only paths inside the workspace are allowed.`,
			);
		}
		return { ...(await this._resolveChecked(lexical.join('/'), segments, word, intent)), asked: word, word: true };
	}

	private async _resolveChecked(
		path: string,
		segments: string[],
		input: string,
		intent: PathIntent,
	): Promise<ResolvedPath> {
		const folders = multiRootFolders(this._workspace);
		if (!folders) {
			return this._resolveIn(this._workspace, path, segments, input, intent, '');
		}
		if (path === '') {
			// The virtual root: it can be listed (its entries are the folders) and is a command's default cwd, nothing else.
			if (intent !== 'list') {
				throw new PathRefused(
					`The workspace root holds only its folders (${folders.map(f => f.name).join(', ')}); ${intent === 'read' ? 'read a file inside one of them' : 'write inside one of them'}, e.g. "${folders[0].name}/…".`,
				);
			}
			return { path: '', canonical: '', exists: true };
		}
		const hit = splitFolderPath(folders, path);
		if (!hit) {
			throw new PathRefused(unknownFolderMessage(folders, input));
		}
		if ((intent === 'delete' || intent === 'write') && hit.rest === '') {
			throw new PathRefused(
				`"${input}" is the workspace folder ${hit.folder.name} itself; ${intent === 'delete' ? 'deleting' : 'replacing'} it is not allowed.`,
			);
		}
		// The kernel walks from the folder the first segment names; a `..` may not climb out of it.
		const named = segments.filter(s => s !== '' && s !== '.');
		if (climbsAfterName(segments) && named[0]?.toLowerCase() !== hit.folder.name.toLowerCase()) {
			throw new PathRefused(
				`"${input}" climbs from one workspace folder into another with "..": name the path inside its folder.`,
			);
		}
		const rest = climbsAfterName(segments) ? named.slice(1) : hit.rest.split('/');
		const resolved = await this._resolveIn(
			hit.folder.workspace,
			hit.rest,
			rest,
			input,
			intent,
			`${hit.folder.name}/`,
		);
		// Deny and protected globs also see the folder's name, so a rule written for "api/**" holds.
		const full = `${hit.folder.name}${hit.rest ? `/${hit.rest}` : ''}`;
		if ((intent === 'read' || intent === 'write') && isDeniedRead(full, this._policy)) {
			throw new PathRefused(
				`${full} matches the deny list (keel.permissions.denyRead: secrets, keys, credentials). It is not readable or writable by the agent; ask the user for what you need instead.`,
			);
		}
		return { ...resolved, protectedReason: resolved.protectedReason ?? isProtectedPath(full, this._policy) };
	}

	/** One folder's check; `prefix` is the folder's name and "/" in a multi-root workspace, '' otherwise. */
	private async _resolveIn(
		workspace: Workspace,
		path: string,
		segments: string[],
		input: string,
		intent: PathIntent,
		prefix: string,
	): Promise<ResolvedPath> {
		const shown = (p: string) => (prefix ? `${prefix}${p}`.replace(/\/$/, '') : displayPath(p));
		if (intent === 'delete' && path === '') {
			throw new PathRefused(
				'Deleting the workspace root is not allowed. Delete the files inside it one by one if you must.',
			);
		}
		const root = await workspace.rootRealPath();
		let canonical = path;
		let exists: boolean;
		if (root !== undefined) {
			const walked = await this._canonical(workspace, path, root, input, prefix);
			canonical = walked.relative;
			exists = walked.exists;
			if (climbsAfterName(segments)) {
				await this._sameAsKernel(workspace, root, segments, canonical, input, prefix);
			}
			if (intent === 'delete' && canonical === '') {
				throw new PathRefused(`"${input}" resolves to the workspace root; deleting it is not allowed.`);
			}
		} else {
			exists = (await workspace.stat(path)) !== undefined;
		}
		if (
			(intent === 'read' || intent === 'write') &&
			(isDeniedRead(path, this._policy) || isDeniedRead(canonical, this._policy))
		) {
			throw new PathRefused(
				`${shown(path)} matches the deny list (keel.permissions.denyRead: secrets, keys, credentials). It is not readable or writable by the agent; ask the user for what you need instead.`,
			);
		}
		if ((intent === 'write' || intent === 'read') && exists && (await isForeignHardLink(workspace, path, intent))) {
			throw new PathRefused(
				`${shown(path)} is hard-linked to another file that may be outside the workspace (realpath cannot tell where), so ${intent === 'write' ? 'writing' : 'reading'} it is refused.${intent === 'write' ? ' Write a new file instead.' : ''}`,
			);
		}
		const protectedReason = isProtectedPath(path, this._policy) ?? isProtectedPath(canonical, this._policy);
		return { path: prefix + path, canonical: prefix + canonical, exists, protectedReason };
	}

	/**
	 * `a/../b` names `b`, but the kernel opens the folder above wherever `a` really is: when `a`
	 * is a link the two differ, and what the kernel opens is what counts. Refused when they
	 * differ (the model is told the real path) or when the kernel's walk leaves the workspace.
	 */
	private async _sameAsKernel(
		workspace: Workspace,
		root: string,
		segments: string[],
		canonical: string,
		input: string,
		prefix: string,
	): Promise<void> {
		const walk = await kernelWalk(workspace, root, segments);
		if (walk.kind === 'dangling') {
			throw new PathRefused(
				`"${input}" goes through a symlink that points nowhere (${prefix}${walk.via}); it could land outside the workspace, so it is refused.`,
			);
		}
		if (walk.kind === 'outside') {
			throw new PathRefused(
				`"${input}" leads outside the workspace: "${walk.via}" is ${walk.where} on disk, so it opens ${walk.opens} (a ".." after a symlink goes above the link's target, not back to where the link is). Only files inside the workspace are allowed.`,
			);
		}
		if (walk.relative !== canonical) {
			throw new PathRefused(
				`"${input}" opens ${prefix}${displayPath(walk.relative)}, not ${prefix}${displayPath(canonical)}: a ".." after a symlink goes above the link's target. Name ${prefix}${displayPath(walk.relative)} without "..".`,
			);
		}
	}

	/**
	 * Execution applies what was approved: resolve again right before acting and refuse when
	 * the path now lands somewhere else (a folder swapped for a symlink while the card waited).
	 * The path is walked again as it was asked, `..` and all, so a folder that became a link
	 * under `race/../x` is seen.
	 */
	async confirm(approved: ResolvedPath, intent: PathIntent): Promise<ResolvedPath> {
		const asked = approved.asked ?? approved.path;
		const now = approved.word ? await this.resolveWord(asked, intent) : await this.resolve(asked, intent);
		if (now.canonical !== approved.canonical) {
			throw new PathRefused(
				`${displayPath(approved.path)} changed since it was approved: it led to ${displayPath(approved.canonical)} and now leads to ${displayPath(now.canonical)} (a symlink was created or swapped). Nothing was done; call again so the user sees where it really goes.`,
			);
		}
		return now;
	}

	/** realpath the deepest existing ancestor, then re-append the missing tail (no `..` left in it). */
	private async _canonical(
		workspace: Workspace,
		path: string,
		root: string,
		input: string,
		prefix: string,
	): Promise<{ relative: string; exists: boolean }> {
		const parts = path === '' ? [] : path.split('/');
		for (let keep = parts.length; keep >= 0; keep--) {
			const head = parts.slice(0, keep).join('/');
			const real = await workspace.realPath(head);
			if (real === 'dangling') {
				throw new PathRefused(
					`"${input}" goes through a symlink that points nowhere (${prefix}${head}); it could land outside the workspace, so it is refused.`,
				);
			}
			if (real === undefined) {
				continue;
			}
			if (!isUnder(root, real)) {
				const via = prefix ? await this._throughFolder(real, parts.slice(keep)) : undefined;
				throw new PathRefused(
					via
						? `"${input}" leads out of its folder through a symlink (${prefix}${head} → ${real}). Each workspace folder is checked on its own: use the path through the folder it lands in, "${via}".`
						: `"${input}" leads outside the workspace through a symlink (${prefix}${head || '.'} → ${real}). Only files inside the workspace are allowed.`,
				);
			}
			const relHead = relativeUnder(root, real);
			const tail = parts.slice(keep);
			return { relative: [relHead, ...tail].filter(Boolean).join('/'), exists: keep === parts.length };
		}
		throw new PathRefused('The workspace root could not be resolved. Is a folder open?');
	}

	/** The same place named through the workspace folder it really is in, for the refusal's hint. */
	private async _throughFolder(real: string, tail: string[]): Promise<string | undefined> {
		for (const folder of multiRootFolders(this._workspace) ?? []) {
			const root = await folder.workspace.rootRealPath();
			if (root && isUnder(root, real)) {
				return [folder.name, relativeUnder(root, real), ...tail].filter(Boolean).join('/');
			}
		}
		return undefined;
	}
}

/**
 * A hard link shares its inode with another path, possibly outside the workspace, and
 * realpath cannot see it. Writes to one are refused always (they would change the other file,
 * e.g. a package store); reads only outside node_modules, where pnpm's store links are normal.
 */
export async function isForeignHardLink(
	workspace: Workspace,
	path: string,
	intent: 'read' | 'write',
): Promise<boolean> {
	const stat = await workspace.stat(path);
	if (stat?.type !== 'file' || (stat.links ?? 1) <= 1) {
		return false;
	}
	return intent === 'write' || !/(^|\/)node_modules\//.test(path);
}
