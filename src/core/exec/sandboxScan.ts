import * as fs from 'fs';
import * as path from 'path';
import { ExecError } from './execError';
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
/** Folders read at once: enough to keep the disk busy, few enough to leave the extension host free. */
const CONCURRENCY = 16;

const idOf = (stat: fs.BigIntStats) => `${stat.dev}:${stat.ino}`;
const stampOf = (stat: fs.BigIntStats) => `${stat.mtimeNs}:${stat.ctimeNs}`;

async function lstatOf(file: string): Promise<fs.BigIntStats | undefined> {
	return fs.promises.lstat(file, { bigint: true }).catch(() => undefined);
}

function inRoot(roots: readonly MountRoot[], real: string): { root: MountRoot; rel: string } | undefined {
	for (const root of roots) {
		if (real === root.host || real.startsWith(`${root.host}${path.sep}`)) {
			return { root, rel: path.relative(root.host, real).split(path.sep).join('/') };
		}
	}
	return undefined;
}

const targetOf = (root: MountRoot, rel: string) => (rel ? `${root.target}/${rel}` : root.target);

/** Runs `work` over `items` with at most CONCURRENCY at once; new items may be pushed while it runs. */
async function pool<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			await work(items[next++]);
		}
	};
	// Workers that find the queue empty stop; a folder pushed later is taken by one still running.
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

class Walker {
	readonly found: Mask[] = [];
	readonly regularFiles: string[] = [];

	constructor(
		private readonly _plan: SandboxPlan,
		private readonly _rules: ScanRules,
	) {}

	private async _add(kind: MaskKind, host: string, extra: Partial<Mask> = {}): Promise<void> {
		const placed = inRoot(this._plan.roots, host);
		if (!placed) return;
		const target = targetOf(placed.root, placed.rel);
		if (this._plan.masks.has(target) || this.found.some(m => m.target === target)) return;
		const stat = await lstatOf(host);
		const id = stat && idOf(stat);
		this.found.push({ kind, host, target, id, ...extra });
		if (kind === 'denied' && stat) {
			this._plan.deniedIds.add(idOf(stat));
			this._plan.linked ||= stat.nlink > 1n;
		}
	}

	/** A `.git` file (`gitdir: …`) or a `commondir` names another gitdir: inside the workspace, it is read-only too. */
	private async _followGitPointer(file: string, prefix: RegExp): Promise<void> {
		const text = await fs.promises.readFile(file, 'utf8').catch(() => undefined);
		const line = text?.split('\n').find(l => prefix.test(l));
		if (!line) return;
		const real = await fs.promises
			.realpath(path.resolve(path.dirname(file), line.replace(prefix, '').trim()))
			.catch(() => undefined);
		if (real && inRoot(this._plan.roots, real)) {
			await this._add('git', real);
			await this._followGitPointer(path.join(real, 'commondir'), /^/);
		}
	}

	/** Judges one entry; returns the folder to walk next, if any. */
	async visit(root: MountRoot, relDir: string, entry: fs.Dirent): Promise<string | undefined> {
		const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
		const host = path.join(root.host, rel);
		if (entry.name === '.git') {
			if (entry.isSymbolicLink()) {
				// A link cannot be a mount point (the mount would land on what it names in the container):
				// the gitdir it names is, when inside the workspace; the link itself is watched by the poll.
				const real = await fs.promises.realpath(host).catch(() => undefined);
				if (real) await this._add('git', real);
				await this._add('git', host, { gitEntry: true, watchOnly: true });
				return undefined;
			}
			await this._add('git', host, { gitEntry: true });
			if (entry.isDirectory()) await this._followGitPointer(path.join(host, 'commondir'), /^/);
			else await this._followGitPointer(host, /^gitdir:/);
			return undefined;
		}
		if (entry.isSymbolicLink()) return undefined;
		if (entry.isDirectory()) {
			if (this._rules.engineFolder(host, entry.name)) {
				await this._add('engine', host);
				return undefined;
			}
			// Read-only already when the folder above it is.
			if (this._rules.protectedPath(rel) && !this._rules.protectedPath(relDir))
				await this._add('protected', host);
			if (this._rules.deniedFolder(rel) && (await this._onlyDenied(host, rel))) {
				await this._add('deniedFolder', host);
				return undefined;
			}
			return rel;
		}
		if (entry.isFile()) {
			if (this._rules.denied(rel)) await this._add('denied', host);
			else if (this._rules.protectedPath(rel) && !this._rules.protectedPath(relDir))
				await this._add('protected', host);
			else this.regularFiles.push(host);
			this._plan.files++;
			return undefined;
		}
		// A socket, FIFO, block or character device: nothing the sandbox should open.
		await this._add('special', host);
		return undefined;
	}

	/** Whether every file below `host` is deny-read (an allowed one, e.g. id_rsa.pub, keeps the folder visible). */
	private async _onlyDenied(host: string, rel: string): Promise<boolean> {
		const entries = await fs.promises.readdir(host, { withFileTypes: true }).catch(() => []);
		for (const entry of entries) {
			const child = `${rel}/${entry.name}`;
			if (
				entry.isDirectory()
					? !(await this._onlyDenied(path.join(host, entry.name), child))
					: !this._rules.denied(child)
			) {
				return false;
			}
		}
		return true;
	}

	/** Reads a folder, records its stamp, judges its entries; returns the sub-folders to walk. */
	async readFolder(root: MountRoot, rel: string): Promise<string[]> {
		const host = path.join(root.host, rel);
		// The stamp before the listing: a change between the two is seen by the next poll.
		const stat = await fs.promises.stat(host, { bigint: true }).catch(() => undefined);
		const entries = await fs.promises.readdir(host, { withFileTypes: true }).catch(() => undefined);
		if (!stat || !entries) return [];
		this._plan.dirs.set(host, { root, rel, stamp: stampOf(stat) });
		const next: string[] = [];
		for (const entry of entries) {
			const sub = await this.visit(root, rel, entry);
			if (sub !== undefined) next.push(sub);
		}
		return next;
	}

	/** Walks every folder below the given ones (breadth first, a few at a time). */
	async walk(start: Array<{ root: MountRoot; rel: string }>): Promise<void> {
		const queue = [...start];
		await pool(queue, async ({ root, rel }) => {
			for (const sub of await this.readFolder(root, rel)) queue.push({ root, rel: sub });
		});
	}

	/** Other names (hard links) of a deny-read file are masked too; only looked for when a link exists. */
	async hardLinks(files: readonly string[]): Promise<void> {
		if (!this._plan.linked) return;
		const list = [...files];
		await pool(list, async file => {
			const stat = await fs.promises.lstat(file, { bigint: true }).catch(() => undefined);
			if (stat && stat.nlink > 1n && this._plan.deniedIds.has(idOf(stat))) await this._add('denied', file);
		});
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
	await pool([...plan.masks.values()], async mask => {
		const stat = await lstatOf(mask.host);
		if (mask.id !== undefined && (stat ? idOf(stat) : undefined) !== mask.id) moved.push(mask);
		// A second name made for a secret since the walk: new files are compared below.
		if (mask.kind === 'denied' && stat && stat.nlink > 1n) plan.linked = true;
	});
	const changed: Array<{ root: MountRoot; rel: string }> = [];
	await pool([...plan.dirs], async ([host, dir]) => {
		const stat = await fs.promises.stat(host, { bigint: true }).catch(() => undefined);
		if (!stat) {
			plan.dirs.delete(host);
		} else if (stampOf(stat) !== dir.stamp) {
			changed.push(dir);
		}
	});
	const fresh: Array<{ root: MountRoot; rel: string }> = [];
	await pool(changed, async ({ root, rel }) => {
		for (const sub of await walker.readFolder(root, rel)) {
			if (!plan.dirs.has(path.join(root.host, sub))) fresh.push({ root, rel: sub });
		}
	});
	await walker.walk(fresh);
	// Hard links to a secret made since: the regular files of every changed folder are compared.
	await walker.hardLinks(walker.regularFiles);
	for (const mask of walker.found) plan.masks.set(mask.target, mask);
	return { added: walker.found, moved };
}
