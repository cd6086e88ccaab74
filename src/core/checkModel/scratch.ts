import * as fs from 'fs/promises';
import * as os from 'os';
import * as path from 'path';
import { ownerGone, ownerText, parseOwner } from '../exec/owner';

/** Names the folder so a leftover (a killed process) says whose it is. */
export const SCRATCH_PREFIX = 'keel-check-model-';
/** Inside each scratch folder, beside workspace/: who made it (host/pid/start, owner.ts). */
export const OWNER_FILE = 'owner';

/**
 * The temporary folder a check runs in, never the user's files: `workspace/` is what the
 * tools see (and the sandbox mounts), `outside/` sits beside it for the task that must not
 * reach it. Each trial starts from the task's files alone; `dispose` removes everything.
 */
export class ScratchFolder {
	/** Who owns the workspace's files, when that is not this process (a sandbox user other than root). */
	owner: { uid: number; gid: number } | undefined;
	private _disposed = false;
	/** The reset in flight, if any (settled either way), which a removal waits for. */
	private _resetting: Promise<void> = Promise.resolve();

	private constructor(readonly root: string) {}

	static async create(parent = os.tmpdir()): Promise<ScratchFolder> {
		const root = await fs.realpath(await fs.mkdtemp(path.join(parent, SCRATCH_PREFIX)));
		// The label first: a run killed from here on leaves a folder the next run can reap.
		await fs.writeFile(path.join(root, OWNER_FILE), ownerText());
		const scratch = new ScratchFolder(root);
		await fs.mkdir(scratch.workspace);
		return scratch;
	}

	get workspace(): string {
		return path.join(this.root, 'workspace');
	}

	get outside(): string {
		return path.join(this.root, 'outside');
	}

	/** Empties the workspace (keeping the folder, which the sandbox has mounted) and lays out a task's files. */
	reset(files: Record<string, string>, outside: Record<string, string> = {}): Promise<void> {
		const resetting = this._reset(files, outside);
		this._resetting = resetting.catch(() => undefined);
		return resetting;
	}

	/**
	 * Removes the folder. A reset still laying out files (a Ctrl+C as a trial starts) would create
	 * it again (a write makes its parent folders): the reset stops at its next step and is waited
	 * for first, so nothing is written after the removal.
	 */
	async dispose(): Promise<void> {
		this._disposed = true;
		await this._resetting;
		await fs.rm(this.root, { recursive: true, force: true, maxRetries: 3 });
	}

	private async _reset(files: Record<string, string>, outside: Record<string, string>): Promise<void> {
		const live = () => {
			if (this._disposed) throw new Error('the scratch folder was removed');
		};
		live();
		for (const entry of await fs.readdir(this.workspace)) {
			live();
			await fs.rm(path.join(this.workspace, entry), { recursive: true, force: true });
		}
		await fs.rm(this.outside, { recursive: true, force: true });
		await writeAll(this.workspace, files, live);
		await writeAll(this.outside, outside, live);
		if (this.owner) {
			live();
			await chownAll(this.workspace, this.owner);
		}
	}
}

/**
 * Removes scratch folders a killed run left in `parent`: Keel's by name and owner file, their
 * owner verifiably gone (another host's, a live run's, or one without an owner file stay).
 */
export async function reapScratchFolders(parent = os.tmpdir()): Promise<string[]> {
	const names = await fs.readdir(parent).catch(() => [] as string[]);
	const reaped: string[] = [];
	for (const name of names.filter(n => n.startsWith(SCRATCH_PREFIX))) {
		const root = path.join(parent, name);
		const owner = parseOwner(await fs.readFile(path.join(root, OWNER_FILE), 'utf8').catch(() => undefined));
		if (ownerGone(owner)) {
			await fs.rm(root, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
			reaped.push(root);
		}
	}
	return reaped;
}

async function writeAll(base: string, files: Record<string, string>, live: () => void): Promise<void> {
	for (const [relative, content] of Object.entries(files)) {
		live();
		const target = path.join(base, ...relative.split('/'));
		await fs.mkdir(path.dirname(target), { recursive: true });
		await fs.writeFile(target, content);
	}
}

/** The folder and everything in it, so commands in the sandbox may change what the tools wrote. */
async function chownAll(target: string, owner: { uid: number; gid: number }): Promise<void> {
	await fs.chown(target, owner.uid, owner.gid);
	for (const entry of await fs.readdir(target, { withFileTypes: true })) {
		const child = path.join(target, entry.name);
		if (entry.isDirectory()) {
			await chownAll(child, owner);
		} else {
			await fs.chown(child, owner.uid, owner.gid);
		}
	}
}
