/**
 * The workspace copied onto an engine that does not see it (another machine, a VM without the
 * folder): a volume on that engine, labelled as Keel's and removed when the session ends (or by
 * the next window when this one died), holds what the tools may read of each folder: deny-read
 * files, folders of only deny-read files, engines' folders, sockets and devices are never sent.
 * Before each command what changed here since the last one is sent again (and what is gone
 * here, or became deny-read, is removed there); after it the engine lists the volume, and each
 * file the command wrote or deleted comes back as a change for the file tools to propose: the
 * host's files change only through the gate and the user's approval, with a diff, like any write.
 */
import type Docker from 'dockerode';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Readable, Writable } from 'stream';
import { ownerGone, parseOwner } from '../owner';
import { WORKSPACE_MOUNT } from '../../gate/paths/workspaceFolders';
import type { ScanRules } from './sandboxRules';
import type { MountRoot } from './sandboxScan';
import type { Logger } from '../../ports';
import { LABEL, removeLeftovers, sandboxLabels } from './sandboxSpec';
import { tarFiles, tarStream, type Owner, type TarEntry } from './tarArchive';

/** A file the command changed in the copy, named as the file tools name it (workspace-relative). */
export interface CopiedChange {
	path: string;
	/** The new text; absent when the command deleted the file. */
	content?: string;
	deleted?: true;
}

export interface CopyOutcome {
	/** The engine holding the copy, as DOCKER_HOST names it. */
	engine: string;
	changes: CopiedChange[];
	/** Changed in the copy but not brought back (binary, too large, a link, past the count), with why. */
	leftInCopy: string[];
}

/** Past these a change stays in the copy, named in the result: write_file proposes text of a reasonable size. */
const MAX_BACK_BYTES = 1 << 20;
const MAX_BACK_FILES = 100;

/** name → what it was: 'd' for a folder, `l:<target>` for a link, size:mtime:inode:mode for a file. */
type Manifest = Map<string, string>;

/** The volume's listing: name → type and change time (a command can set mtimes, never ctimes). */
type Listing = Map<string, { type: string; stamp: string }>;

export class CopyVolume {
	private _name: Promise<string> | undefined;
	/** What was last sent from here; the volume holds it (and whatever commands made since). */
	private _sent: Manifest = new Map();
	/** The volume's listing once the last command ended or the last send landed. */
	private _baseline: Listing | undefined;

	constructor(
		private readonly _docker: Docker,
		private readonly _labelRoot: string,
	) {}

	/** The volume's name, created on first use. */
	name(): Promise<string> {
		this._name ??= this._docker
			.createVolume({
				Name: `keel-workspace-${randomBytes(6).toString('hex')}`,
				Labels: { ...sandboxLabels(this._labelRoot), [LABEL]: 'volume' },
			})
			.then(volume => (volume as { Name?: string }).Name ?? (volume as unknown as { name: string }).name);
		const made = this._name;
		made.catch(() => {
			if (this._name === made) this._name = undefined;
		});
		return made;
	}

	/** Removed at the end of the session (its container first: a volume in use cannot go). */
	async remove(): Promise<void> {
		const name = await this._name?.catch(() => undefined);
		this._name = undefined;
		if (name)
			await this._docker
				.getVolume(name)
				.remove({ force: true })
				.catch(() => undefined);
	}

	/**
	 * Sends what changed here since the last send into the container's /workspace (the first
	 * time: everything the tools may read); `running` says whether removals can run there yet.
	 */
	async send(
		container: Docker.Container,
		roots: readonly MountRoot[],
		rules: ScanRules,
		owner: Owner,
		user: string,
		running: boolean,
	): Promise<void> {
		const now = await walk(roots, rules);
		const changed = [...now].filter(([name, stamp]) => this._sent.get(name) !== stamp);
		const gone = [...this._sent.keys()].filter(name => !now.has(name));
		if (changed.length === 0 && gone.length === 0) return;
		if (gone.length > 0 && running) {
			await execText(this._docker, container, user, [
				'rm',
				'-rf',
				'--',
				...gone.map(n => `${WORKSPACE_MOUNT}/${n}`),
			]);
		}
		if (changed.length > 0) {
			const entries = changed.map(([name, stamp]) => entryOf(name, stamp, roots));
			await container.putArchive(
				Readable.from(
					tarStream(
						entries.filter(e => e !== undefined),
						owner,
					),
				),
				{ path: WORKSPACE_MOUNT },
			);
		}
		// A container not started yet cannot run the removal: it stays owed, done before the first command.
		if (!running) for (const name of gone) now.set(name, 'gone');
		this._sent = now;
		this._baseline = undefined;
	}

	/** Called before the command: the listing its changes are measured against. */
	async settle(container: Docker.Container, user: string): Promise<void> {
		this._baseline ??= await listVolume(this._docker, container, user);
	}

	/** What the command changed in the copy, read back from the engine. */
	async changes(container: Docker.Container, user: string, engine: string): Promise<CopyOutcome> {
		const before = this._baseline ?? new Map();
		const after = await listVolume(this._docker, container, user);
		this._baseline = after;
		const outcome: CopyOutcome = { engine, changes: [], leftInCopy: [] };
		for (const [name, entry] of after) {
			const was = before.get(name);
			if (entry.type === 'd' || (was && was.type === entry.type && was.stamp === entry.stamp)) continue;
			if (entry.type !== 'f') {
				outcome.leftInCopy.push(`${name} (not a regular file)`);
				continue;
			}
			if (outcome.changes.length >= MAX_BACK_FILES) {
				outcome.leftInCopy.push(`${name} (more than ${MAX_BACK_FILES} files changed)`);
				continue;
			}
			const text = await changedText(container, name);
			if (typeof text === 'string') outcome.changes.push({ path: name, content: text });
			else outcome.leftInCopy.push(`${name} (${text.why})`);
		}
		for (const [name, entry] of before) {
			// Only a file this side has is deleted here: one the copy made and lost again was never here.
			if (entry.type === 'f' && !after.has(name) && this._sent.has(name)) {
				outcome.changes.push({ path: name, deleted: true });
			}
		}
		// The next send brings these back to what this side has: an approved write lands as written, a
		// refused one is undone in the copy, a file only the copy made and nobody took goes.
		for (const change of outcome.changes) this._sent.set(change.path, 'changed');
		return outcome;
	}
}

/** The root a volume name falls in, and its path here. */
function hostOf(name: string, roots: readonly MountRoot[]): string | undefined {
	for (const root of roots) {
		const prefix = root.target.slice(WORKSPACE_MOUNT.length + 1);
		if (!prefix) return path.join(root.host, ...name.split('/'));
		if (name === prefix || name.startsWith(`${prefix}/`))
			return path.join(root.host, ...name.slice(prefix.length + 1).split('/'));
	}
	return undefined;
}

function entryOf(name: string, stamp: string, roots: readonly MountRoot[]): TarEntry | undefined {
	const host = hostOf(name, roots);
	if (host === undefined) return undefined;
	if (stamp === 'd') return { type: 'dir', name, mode: 0o755 };
	if (stamp.startsWith('l:')) return { type: 'link', name, target: stamp.slice(2) };
	const [size, , , mode] = stamp.split(':');
	return { type: 'file', name, host, size: Number(size), mode: Number(mode) & 0o777 };
}

/**
 * What the tools may read of each folder, as the sandbox's scan judges it (sandboxScan.ts):
 * no deny-read file nor another name of one (a hard link), no folder of only deny-read files,
 * no engine's folder, no socket, FIFO or device. Links are sent as links (not followed).
 */
async function walk(roots: readonly MountRoot[], rules: ScanRules): Promise<Manifest> {
	const manifest: Manifest = new Map();
	const denied = new Set<string>();
	const files: Array<[string, fs.BigIntStats]> = [];
	for (const root of roots) {
		const prefix = root.target.slice(WORKSPACE_MOUNT.length + 1);
		if (prefix) manifest.set(prefix, 'd');
		const queue = [''];
		for (let done = 0; queue.length > 0; done++) {
			if (done % 500 === 499) await new Promise(resolve => setImmediate(resolve));
			const relDir = queue.pop()!;
			let entries: fs.Dirent[];
			try {
				entries = fs.readdirSync(path.join(root.host, relDir), { withFileTypes: true });
			} catch {
				continue;
			}
			for (const entry of entries) {
				const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
				const host = path.join(root.host, rel);
				const name = prefix ? `${prefix}/${rel}` : rel;
				const stat = fs.lstatSync(host, { bigint: true, throwIfNoEntry: false });
				if (!stat) continue;
				if (stat.isDirectory()) {
					if (rules.engineFolder(host, entry.name) || rules.deniedFolder(rel)) continue;
					manifest.set(name, 'd');
					queue.push(rel);
				} else if (stat.isSymbolicLink()) {
					manifest.set(name, `l:${fs.readlinkSync(host)}`);
				} else if (stat.isFile()) {
					if (rules.denied(rel)) denied.add(`${stat.dev}:${stat.ino}`);
					else files.push([name, stat]);
				}
			}
		}
	}
	for (const [name, stat] of files) {
		if (stat.nlink > 1n && denied.has(`${stat.dev}:${stat.ino}`)) continue;
		manifest.set(name, `${stat.size}:${stat.mtimeNs}:${stat.ino}:${stat.mode}`);
	}
	return manifest;
}

/** The volume as the engine has it: every entry's type and change time. */
async function listVolume(docker: Docker, container: Docker.Container, user: string): Promise<Listing> {
	const text = await execText(docker, container, user, [
		'find',
		WORKSPACE_MOUNT,
		'-mindepth',
		'1',
		'-printf',
		'%y\\t%C@\\t%s\\t%P\\0',
	]);
	const listing: Listing = new Map();
	for (const record of text.split('\0')) {
		const [type, ctime, size, ...rest] = record.split('\t');
		if (rest.length > 0) listing.set(rest.join('\t'), { type, stamp: `${ctime}:${size}` });
	}
	return listing;
}

/** A changed file's text from the engine, or why it stays in the copy. */
async function changedText(container: Docker.Container, name: string): Promise<string | { why: string }> {
	const stream = await container.getArchive({ path: `${WORKSPACE_MOUNT}/${name}` });
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		chunks.push(Buffer.from(chunk as Buffer));
		size += (chunk as Buffer).length;
		if (size > MAX_BACK_BYTES + 4096) return { why: `larger than ${MAX_BACK_BYTES} bytes` };
	}
	const bytes = [...tarFiles(Buffer.concat(chunks)).values()][0];
	if (!bytes) return { why: 'the engine did not hand it over' };
	if (bytes.length > MAX_BACK_BYTES) return { why: `larger than ${MAX_BACK_BYTES} bytes` };
	const text = bytes.toString('utf8');
	if (bytes.subarray(0, 8192).includes(0) || Buffer.byteLength(text) !== bytes.length) return { why: 'binary' };
	return text;
}

/** Runs `cmd` in the container as `user` and returns its stdout; a failure to list is an error. */
async function execText(docker: Docker, container: Docker.Container, user: string, cmd: string[]): Promise<string> {
	const exec = await container.exec({ Cmd: cmd, User: user, AttachStdout: true, AttachStderr: true });
	const stream = await exec.start({ hijack: true, stdin: false });
	const out: Buffer[] = [];
	const err: Buffer[] = [];
	await new Promise<void>((resolve, reject) => {
		const sink = (into: Buffer[]) =>
			new Writable({ write: (chunk: Buffer, _e, done) => (into.push(chunk), done()) });
		docker.modem.demuxStream(stream, sink(out), sink(err));
		stream.on('end', resolve);
		stream.on('close', resolve);
		stream.on('error', reject);
	});
	const info = await exec.inspect().catch(() => undefined);
	if (info && info.ExitCode !== 0 && info.ExitCode !== null) {
		throw new Error(`${cmd[0]} in the copied workspace failed: ${Buffer.concat(err).toString('utf8').trim()}`);
	}
	return Buffer.concat(out).toString('utf8');
}

/** Containers and copied workspaces a killed window left on this engine (their owner verifiably gone). */
export async function removeEarlierWindows(docker: Docker, logger: Logger): Promise<void> {
	const removed = await removeLeftovers(docker).catch(() => []);
	const volumes = await removeLeftoverVolumes(docker).catch(() => []);
	if (removed.length + volumes.length > 0) {
		logger.info(
			`sandbox: removed ${removed.length} container(s) and ${volumes.length} copied workspace(s) left by an earlier window`,
		);
	}
}

/** Volumes of windows that are gone (killed before they could remove theirs), on this engine. */
export async function removeLeftoverVolumes(docker: Docker, gone = ownerGone): Promise<string[]> {
	const found = await docker.listVolumes({ filters: { label: [`${LABEL}=volume`] } });
	const removed: string[] = [];
	for (const volume of found.Volumes ?? []) {
		const labels = volume.Labels ?? {};
		if (gone(parseOwner(`${labels['keel.owner'] ?? ''}/${labels['keel.owner.start'] ?? ''}`))) {
			await docker
				.getVolume(volume.Name)
				.remove({ force: true })
				.then(
					() => removed.push(volume.Name),
					() => undefined,
				);
		}
	}
	return removed;
}
