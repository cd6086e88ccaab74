import * as fs from 'fs';
import * as path from 'path';
import { ExecError } from '../execError';
import type { ScanRules } from './sandboxRules';

/**
 * What the container must not see as the host has it, found by one linear walk of each
 * mounted folder when the container is created (symlinks are not followed; what a mask hides
 * is not walked):
 * - `special`: a socket, FIFO or device node: /dev/null over it, so nothing in the sandbox can
 *   connect to a host process or open a device through it;
 * - `engine`: a folder where a container engine keeps its socket: an empty read-only folder
 *   over it, which also hides a socket bound there later;
 * - `denied`: a deny-read file, and every hard link to it: /dev/null over it, so no spelling of
 *   its name reads it; `deniedFolder`: a folder whose every file is deny-read (`.ssh`, `.aws`):
 *   an empty read-only folder over it;
 * - `git`: every `.git` (folder or file), the gitdir a `.git` file or a `commondir` points to
 *   inside the workspace: itself, read-only;
 * - `protected`: the gate's protected paths (tasks, CI, hooks, agent config): read-only.
 * A path with a mount over it cannot be renamed, replaced or deleted from inside the container
 * (the kernel answers EBUSY), so none of this can be undone by a command. Each mask remembers
 * the inode it covers: the host replacing the file (an atomic save) detaches the mount, and
 * `pollPlan` tells the runner to start a container that covers the new one.
 */
export type MaskKind = 'special' | 'engine' | 'denied' | 'deniedFolder' | 'git' | 'protected';

export interface Mask {
	kind: MaskKind;
	/** Where it is on the host and in the container. */
	host: string;
	target: string;
	/** dev:ino of what it covers; undefined when it covers nothing yet. */
	id: string | undefined;
	/** A `.git` entry itself (not a gitdir it points to): what a command must not create. */
	gitEntry?: boolean;
	/** Watched by the poll but not mounted over (a `.git` symlink: a mount would land on what it names). */
	watchOnly?: boolean;
}

export interface MountRoot {
	host: string;
	target: string;
}

export interface SandboxPlan {
	roots: MountRoot[];
	masks: Map<string, Mask>;
	/** Every folder walked, with its change time, for `pollPlan`. */
	dirs: Map<string, { root: MountRoot; rel: string; stamp: string }>;
	/** dev:ino of every deny-read file: another name for one of them is masked too. */
	deniedIds: Set<string>;
	/** Whether a deny-read file has more than one name, so every regular file must be compared. */
	linked: boolean;
	files: number;
	elapsedMs: number;
}

/** More masks than this and the container's start would take seconds: refused with the reason instead. */
export const MAX_MASKS = 4000;
/**
 * Folders handled between two turns of the event loop. The walk and the poll use the
 * synchronous calls (a few microseconds each; the thread pool's round trips cost more than
 * the work) in slices, so the extension host is never held for long.
 */
const SLICE = 500;

const idOf = (stat: fs.BigIntStats) => `${stat.dev}:${stat.ino}`;
const stampOf = (stat: fs.BigIntStats) => `${stat.mtimeNs}:${stat.ctimeNs}`;
const lstatOf = (file: string) => fs.lstatSync(file, { bigint: true, throwIfNoEntry: false });
const turn = () => new Promise(resolve => setImmediate(resolve));

function inRoot(roots: readonly MountRoot[], real: string): { root: MountRoot; rel: string } | undefined {
	for (const root of roots) {
		if (real === root.host || real.startsWith(`${root.host}${path.sep}`)) {
			return { root, rel: path.relative(root.host, real).split(path.sep).join('/') };
		}
	}
	return undefined;
}

const targetOf = (root: MountRoot, rel: string) => (rel ? `${root.target}/${rel}` : root.target);

function realOf(file: string): string | undefined {
	try {
		return fs.realpathSync.native(file);
	} catch {
		return undefined;
	}
}

class Walker {
	readonly found: Mask[] = [];
	readonly regularFiles: string[] = [];
	private readonly _targets = new Set<string>();

	constructor(
		private readonly _plan: SandboxPlan,
		private readonly _rules: ScanRules,
	) {}

	/** Adds a mask unless one covers the place already; says whether it did. */
	private _add(kind: MaskKind, host: string, extra: Partial<Mask> = {}): boolean {
		const placed = inRoot(this._plan.roots, host);
		if (!placed) return false;
		const target = targetOf(placed.root, placed.rel);
		if (this._plan.masks.has(target) || this._targets.has(target)) return false;
		this._targets.add(target);
		const stat = lstatOf(host);
		this.found.push({ kind, host, target, id: stat && idOf(stat), ...extra });
		if (kind === 'denied' && stat) {
			this._plan.deniedIds.add(idOf(stat));
			this._plan.linked ||= stat.nlink > 1n;
		}
		return true;
	}

	/** A `.git` file (`gitdir: …`) or a `commondir` names another gitdir: inside the workspace, it is read-only too. */
	private _followGitPointer(file: string, prefix: RegExp): void {
		let text: string;
		try {
			text = fs.readFileSync(file, 'utf8');
		} catch {
			return;
		}
		const line = text.split('\n').find(l => prefix.test(l));
		const real = line && realOf(path.resolve(path.dirname(file), line.replace(prefix, '').trim()));
		// Followed only to a gitdir not covered yet, so `commondir` pointing back (".") ends here.
		if (real && this._add('git', real)) {
			this._followGitPointer(path.join(real, 'commondir'), /^/);
		}
	}

	/** Judges one entry; returns the folder to walk next, if any. */
	visit(root: MountRoot, relDir: string, entry: fs.Dirent): string | undefined {
		const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
		const host = `${root.host}${path.sep}${rel}`;
		if (entry.name.includes('\uFFFD') && !lstatOf(host)) {
			// Not valid UTF-8: no string names it, so it can be neither judged, walked nor mounted over.
			throw new ExecError(
				'containerFailed',
				`The workspace holds ${JSON.stringify(rel)}, whose name is not valid UTF-8: the sandbox cannot tell what it is or hide it. Rename it, or run commands in the terminal (keel.shell.backend).`,
			);
		}
		if (entry.name === '.git') {
			if (entry.isSymbolicLink()) {
				// A link cannot be a mount point (the mount would land on what it names in the container):
				// the gitdir it names is, when inside the workspace; the link itself is watched by the poll.
				const real = realOf(host);
				if (real) this._add('git', real);
				this._add('git', host, { gitEntry: true, watchOnly: true });
				return undefined;
			}
			this._add('git', host, { gitEntry: true });
			if (entry.isDirectory()) this._followGitPointer(path.join(host, 'commondir'), /^/);
			else this._followGitPointer(host, /^gitdir:/);
			return undefined;
		}
		if (entry.isSymbolicLink()) return undefined;
		if (entry.isDirectory()) {
			if (this._rules.engineFolder(host, entry.name)) {
				this._add('engine', host);
				return undefined;
			}
			// Read-only already when the folder above it is.
			if (this._rules.protectedPath(rel) && !this._rules.protectedPath(relDir)) this._add('protected', host);
			if (this._rules.deniedFolder(rel) && this._onlyDenied(host, rel)) {
				this._add('deniedFolder', host);
				return undefined;
			}
			return rel;
		}
		if (entry.isFile()) {
			this._plan.files++;
			if (this._rules.denied(rel)) this._add('denied', host);
			else if (this._rules.protectedPath(rel) && !this._rules.protectedPath(relDir)) this._add('protected', host);
			else this.regularFiles.push(host);
			return undefined;
		}
		// A socket, FIFO, block or character device: nothing the sandbox should open.
		this._add('special', host);
		return undefined;
	}

	/** Whether every file below `host` is deny-read (an allowed one, e.g. id_rsa.pub, keeps the folder visible). */
	private _onlyDenied(host: string, rel: string): boolean {
		let entries: fs.Dirent[];
		try {
			entries = fs.readdirSync(host, { withFileTypes: true });
		} catch {
			return true;
		}
		return entries.every(entry => {
			const child = `${rel}/${entry.name}`;
			return entry.isDirectory()
				? this._onlyDenied(path.join(host, entry.name), child)
				: this._rules.denied(child);
		});
	}

	/** Reads a folder, records its stamp, judges its entries; returns the sub-folders to walk. */
	readFolder(root: MountRoot, rel: string): string[] {
		const host = rel ? `${root.host}${path.sep}${rel}` : root.host;
		// The stamp before the listing: a change between the two is seen by the next poll.
		const stat = fs.statSync(host, { bigint: true, throwIfNoEntry: false });
		let entries: fs.Dirent[];
		try {
			entries = fs.readdirSync(host, { withFileTypes: true });
		} catch {
			return [];
		}
		if (!stat) return [];
		this._plan.dirs.set(host, { root, rel, stamp: stampOf(stat) });
		const next: string[] = [];
		for (const entry of entries) {
			const sub = this.visit(root, rel, entry);
			if (sub !== undefined) next.push(sub);
		}
		return next;
	}

	/** Walks every folder below the given ones, a slice at a time. */
	async walk(start: Array<{ root: MountRoot; rel: string }>): Promise<void> {
		const queue = [...start];
		for (let done = 0; queue.length > 0; done++) {
			if (done > 0 && done % SLICE === 0) await turn();
			const { root, rel } = queue.pop()!;
			for (const sub of this.readFolder(root, rel)) queue.push({ root, rel: sub });
		}
	}

	/** Other names (hard links) of a deny-read file are masked too; only looked for when a link exists. */
	async hardLinks(files: readonly string[]): Promise<void> {
		if (!this._plan.linked) return;
		for (let i = 0; i < files.length; i++) {
			if (i > 0 && i % (SLICE * 10) === 0) await turn();
			const stat = lstatOf(files[i]);
			if (stat && stat.nlink > 1n && this._plan.deniedIds.has(idOf(stat))) this._add('denied', files[i]);
		}
	}
}

function check(masks: number): void {
	if (masks > MAX_MASKS) {
		throw new ExecError(
			'containerFailed',
			`The workspace holds ${masks} files and folders the sandbox must hide or keep read-only (deny-read files, sockets, repositories); more than ${MAX_MASKS} would make every container start take seconds. Open a smaller folder, or narrow keel.permissions.denyRead.`,
		);
	}
}

/** The first walk, when a container is created. */
export async function scanWorkspace(roots: MountRoot[], rules: ScanRules): Promise<SandboxPlan> {
	const started = performance.now();
	const plan: SandboxPlan = {
		roots,
		masks: new Map(),
		dirs: new Map(),
		deniedIds: new Set(),
		linked: false,
		files: 0,
		elapsedMs: 0,
	};
	const walker = new Walker(plan, rules);
	await walker.walk(roots.map(root => ({ root, rel: '' })));
	await walker.hardLinks(walker.regularFiles);
	for (const mask of walker.found) plan.masks.set(mask.target, mask);
	check(plan.masks.size);
	plan.elapsedMs = performance.now() - started;
	return plan;
}

export interface PlanChanges {
	/** Entries that now need a mask the container does not have. */
	added: Mask[];
	/** Masks whose entry the host replaced or removed (the mount may have been detached). */
	moved: Mask[];
}

/**
 * Since the walk: which folders changed (their change time moved), and what in them now needs
 * a mask; which masked entries were replaced. Costs one stat per folder when nothing changed.
 */
export async function pollPlan(plan: SandboxPlan, rules: ScanRules): Promise<PlanChanges> {
	const walker = new Walker(plan, rules);
	const moved: Mask[] = [];
	for (const mask of plan.masks.values()) {
		const stat = lstatOf(mask.host);
		if (mask.id !== undefined && (stat ? idOf(stat) : undefined) !== mask.id) moved.push(mask);
		// A second name made for a secret since the walk: new files are compared below.
		if (mask.kind === 'denied' && stat && stat.nlink > 1n) plan.linked = true;
	}
	const changed: Array<{ root: MountRoot; rel: string }> = [];
	const folders = [...plan.dirs];
	for (let start = 0; start < folders.length; start += SLICE * 4) {
		if (start > 0) await turn();
		for (const [host, dir] of folders.slice(start, start + SLICE * 4)) {
			const stat = fs.statSync(host, { bigint: true, throwIfNoEntry: false });
			if (!stat) {
				plan.dirs.delete(host);
			} else if (stampOf(stat) !== dir.stamp) {
				changed.push(dir);
			}
		}
	}
	const fresh: Array<{ root: MountRoot; rel: string }> = [];
	for (const { root, rel } of changed) {
		for (const sub of walker.readFolder(root, rel)) {
			if (!plan.dirs.has(`${root.host}${path.sep}${sub}`)) fresh.push({ root, rel: sub });
		}
	}
	await walker.walk(fresh);
	// Hard links to a secret made since: the regular files of every changed folder are compared.
	await walker.hardLinks(walker.regularFiles);
	for (const mask of walker.found) plan.masks.set(mask.target, mask);
	return { added: walker.found, moved };
}
