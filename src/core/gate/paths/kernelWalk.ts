/**
 * A path as the kernel walks it: one segment at a time from the real folder it is in, so a `..`
 * goes to the folder above the real place the previous segments led to, not to the folder above
 * their names. `sub/../x` with `sub` a link to `/elsewhere/deep` opens `/elsewhere/x`: the walk
 * follows each existing segment with realpath (the Workspace port's), takes `..` as the parent of
 * that real folder, and once a segment does not exist goes on by name (a missing folder cannot be
 * a link; a program that creates it, `mkdir -p`, creates a real one). Segments are names and
 * nothing else: `%20`, a backslash, `${x}` or `http:` are what the kernel sees.
 */
import * as path from 'path';
import type { Workspace } from '../../ports';

export type KernelWalk =
	/** Lands inside `root`: relative to it with "/" ('' for the root itself). */
	| { kind: 'inside'; relative: string; exists: boolean }
	/** Leaves `root`: the real place the segments that led out reached, and what the kernel opens in the end. */
	| { kind: 'outside'; where: string; via: string; opens: string }
	/** Goes through a symlink that points nowhere. */
	| { kind: 'dangling'; via: string };

/** `child` is `root` or below it, compared by whole segments. */
function under(root: string, child: string): boolean {
	return child === root || child.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** `real` (a canonical path at or under `root`) relative to `root`, with forward slashes; '' for the root itself. */
export function relativeUnder(root: string, real: string): string {
	return real === root
		? ''
		: real
				.slice(root.length)
				.replace(/^[\\/]+/, '')
				.replace(/\\/g, '/');
}

/**
 * Walks `segments` (already split the way the reader splits: "/" for the kernel) from `root`,
 * the workspace's canonical folder, through `workspace.realPath`.
 */
export async function kernelWalk(workspace: Workspace, root: string, segments: readonly string[]): Promise<KernelWalk> {
	let real = root;
	const out = (where: string, i: number): KernelWalk => ({
		kind: 'outside',
		where,
		via: segments.slice(0, i + 1).join('/'),
		// Beyond the workspace the port cannot follow links: the rest is taken by name, which is what the message shows.
		opens: path.posix.join(where, ...segments.slice(i + 1).filter(s => s !== '')),
	});
	for (let i = 0; i < segments.length; i++) {
		const segment = segments[i];
		if (segment === '' || segment === '.') continue;
		if (segment === '..') {
			if (real === root) return out(path.dirname(root), i);
			real = path.dirname(real);
			continue;
		}
		const relative = [relativeUnder(root, real), segment].filter(Boolean).join('/');
		const found = await workspace.realPath(relative);
		if (found === 'dangling') return { kind: 'dangling', via: segments.slice(0, i + 1).join('/') };
		if (found === undefined) {
			// Nothing here: the rest is names the kernel would create or fail on, never a link.
			const parts = relativeUnder(root, real).split('/').filter(Boolean);
			for (let j = i; j < segments.length; j++) {
				const rest = segments[j];
				if (rest === '' || rest === '.') continue;
				if (rest === '..') {
					if (parts.length === 0) return out(path.dirname(root), j);
					parts.pop();
				} else {
					parts.push(rest);
				}
			}
			return { kind: 'inside', relative: parts.join('/'), exists: false };
		}
		if (!under(root, found)) return out(found, i);
		real = found;
	}
	return { kind: 'inside', relative: relativeUnder(root, real), exists: true };
}

/** The segments lexically: `a/b/../c` is `a/c`; undefined when `..` climbs above the start. */
export function lexicalSegments(segments: readonly string[]): string[] | undefined {
	const parts: string[] = [];
	for (const segment of segments) {
		if (segment === '' || segment === '.') continue;
		if (segment === '..') {
			if (parts.length === 0) return undefined;
			parts.pop();
		} else {
			parts.push(segment);
		}
	}
	return parts;
}

/** A `..` after a name: only then can the kernel's walk and the name's letters disagree. */
export function climbsAfterName(segments: readonly string[]): boolean {
	let named = false;
	for (const segment of segments) {
		if (segment === '..' && named) return true;
		if (segment !== '' && segment !== '.' && segment !== '..') named = true;
	}
	return false;
}
