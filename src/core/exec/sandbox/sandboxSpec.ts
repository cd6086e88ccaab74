import { createHash } from 'crypto';
import * as path from 'path';
import * as fs from 'fs';
import type Docker from 'dockerode';
import { WORKSPACE_MOUNT } from '../../gate/paths/workspaceFolders';
import { ExecError } from '../execError';
import { currentOwner, ownerGone, parseOwner, type Owner } from '../owner';
import { refusePlacement } from './sandboxRules';
import type { MountRoot, SandboxPlan } from './sandboxScan';
import { parseSandboxUser, type SandboxUser } from './sandboxUser';

/** Every limit of the sandbox; each one is a keel.shell.* setting. */
export interface SandboxLimits {
	/** 'none' (default) or a Docker network the user opted into, e.g. 'bridge'. */
	network: string;
	memoryMb: number;
	cpus: number;
	pids: number;
	tmpSizeMb: number;
	/** Not a limit: how long an unused container lives (default 30 min); tests shorten it. */
	idleSeconds?: number;
	/** 'uid:gid'; never root. */
	user: string;
}

export const defaultLimits: SandboxLimits = {
	network: 'none',
	memoryMb: 512,
	cpus: 0.5,
	pids: 256,
	tmpSizeMb: 256,
	user: defaultUser(),
};

export const LABEL = 'keel.sandbox';

/** A folder of a multi-root workspace: mounted at /workspace/<name>, the path the tools use for it. */
export interface SandboxFolder {
	name: string;
	path: string;
}

/** What the sandbox mounts: one folder at /workspace, or several at /workspace/<name>. */
export type SandboxWorkspace = string | readonly SandboxFolder[];

/** Each host folder with where it appears in the container. */
export function sandboxMountPoints(workspace: SandboxWorkspace): Array<{ source: string; target: string }> {
	if (typeof workspace === 'string') {
		return [{ source: path.resolve(workspace), target: WORKSPACE_MOUNT }];
	}
	if (workspace.length === 1) {
		return [{ source: path.resolve(workspace[0].path), target: WORKSPACE_MOUNT }];
	}
	return workspace.map(folder => {
		if (!folder.name || /[/\\]|^\.\.?$/.test(folder.name)) {
			throw new ExecError(
				'containerFailed',
				`The workspace folder name "${folder.name}" cannot be a mount point; rename the folder in the .code-workspace file.`,
			);
		}
		return { source: path.resolve(folder.path), target: `${WORKSPACE_MOUNT}/${folder.name}` };
	});
}

/**
 * On Linux the container runs as the host user so files it writes in the workspace stay the
 * user's; as root (CI) or elsewhere it runs as the image's non-root user 1000.
 */
export function defaultUser(): string {
	if (process.platform !== 'linux') {
		return '1000:1000';
	}
	const uid = process.getuid?.() ?? 1000;
	const gid = process.getgid?.() ?? 1000;
	return uid === 0 ? '1000:1000' : `${uid}:${gid}`;
}

export function workspaceKey(root: string): string {
	return createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 16);
}

/**
 * Labels find our containers again: ours now, or leftovers of a killed window or Check Model
 * run. The owner's start time tells a reused pid apart (owner.ts).
 */
export function sandboxLabels(root: string): Record<string, string> {
	const owner = currentOwner();
	return {
		[LABEL]: 'container',
		'keel.workspace': workspaceKey(root),
		'keel.owner': `${owner.host}/${owner.pid}`,
		'keel.owner.start': owner.start,
	};
}

/** A container nobody used for this long stops and is removed by the engine (AutoRemove). */
export const DEFAULT_IDLE_SECONDS = 30 * 60;

/**
 * PID 1 keeps the container alive and reaps orphans: a killed fork bomb leaves hundreds of
 * zombies re-parented to PID 1, and `sleep infinity` would never reap them, so their pids
 * stay taken. A shell does (its SIGCHLD handler waits for any child). It runs as a user of
 * its own (keeperUser), not the one commands run as, so no command can signal it, trace it
 * or take it over to keep something running after the command ends, and `kill -9 -1` as
 * the sandbox user leaves it alone. It exits after `idleSeconds` without a command (every
 * exec touches /tmp/.keel/alive, which it makes writable for them) and with no process
 * running, so a window killed before it could remove its container leaves nothing behind for
 * long. Only builtins run between sleeps.
 */
export function keeperScript(idleSeconds: number): string {
	const step = Math.max(1, Math.min(60, Math.floor(idleSeconds / 4)));
	const rounds = Math.max(1, Math.ceil(idleSeconds / step));
	return [
		'trap "exit 0" TERM',
		'umask 0; mkdir -p /tmp/.keel; : > /tmp/.keel/alive; umask 022',
		'while :; do',
		'  : > /tmp/.keel-mark; i=0',
		`  while [ $i -lt ${rounds} ]; do sleep ${step} & wait $!; i=$((i+1)); done`,
		'  n=0; for p in /proc/[0-9]*; do n=$((n+1)); done',
		'  [ "$n" -gt 1 ] || [ /tmp/.keel/alive -nt /tmp/.keel-mark ] || exit 0',
		'done',
	].join('\n');
}

/** The keeper's own uid:gid: nobody's, or the one below it when commands run as nobody. */
export function keeperUser(commands: SandboxUser): string {
	const id = commands.uid === KEEPER_ID || commands.gid === KEEPER_ID ? KEEPER_ID - 1 : KEEPER_ID;
	return `${id}:${id}`;
}
const KEEPER_ID = 65534;

/** The engine folders as named and as they really are (a link to /var/run is /run). */
export function realFolders(folders: readonly string[]): string[] {
	const real = folders.map(folder => {
		try {
			return fs.realpathSync.native(folder);
		} catch {
			return folder;
		}
	});
	return [...new Set([...folders, ...real])];
}

/** Created (empty) when missing, so the sandbox cannot create them: VS Code would run what lands there. */
const CREATE_WHEN_MISSING = ['.vscode'];

/**
 * Each folder to mount, at its real path (what the engine will mount, links resolved), refused
 * when it is or is inside an engine's socket folder or is the whole file system; `.vscode` is
 * created in each so a command cannot create it.
 */
export function mountRoots(root: SandboxWorkspace, engines: readonly string[]): MountRoot[] {
	return sandboxMountPoints(root).map(({ source, target }) => {
		let real: string;
		try {
			real = fs.realpathSync.native(source);
		} catch (error) {
			throw new ExecError(
				'containerFailed',
				`The workspace folder ${source} cannot be mounted: ${(error as Error).message}`,
			);
		}
		refusePlacement(real, engines);
		for (const rel of CREATE_WHEN_MISSING) {
			try {
				fs.mkdirSync(path.join(real, rel));
			} catch {
				// Exists already (or cannot be made: then the guard's name checks remain).
			}
		}
		return { host: real, target };
	});
}

/** The masks as mounts: /dev/null over files, an empty read-only folder over folders, the rest bound read-only. */
export function maskMounts(plan: SandboxPlan): Docker.MountSettings[] {
	return [...plan.masks.values()]
		.filter(mask => mask.id !== undefined && !mask.watchOnly)
		.sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0))
		.map((mask): Docker.MountSettings => {
			if (mask.kind === 'special' || mask.kind === 'denied') {
				return { Type: 'bind', Source: '/dev/null', Target: mask.target, ReadOnly: true };
			}
			if (mask.kind === 'engine' || mask.kind === 'deniedFolder') {
				return {
					Type: 'tmpfs',
					Source: '',
					Target: mask.target,
					ReadOnly: true,
					TmpfsOptions: { SizeBytes: 4096, Mode: 0o555 },
				};
			}
			return { Type: 'bind', Source: mask.host, Target: mask.target, ReadOnly: true };
		});
}

/**
 * The hardened container: non-root, no network, capped memory/CPU/pids, no capabilities,
 * no-new-privileges, read-only root with a tmpfs /tmp, the workspace at /workspace with what
 * the plan hides or pins mounted over it, and never an engine's socket.
 */
export function containerSpec(plan: SandboxPlan, image: string, limits: SandboxLimits): Docker.ContainerCreateOptions {
	const user = parseSandboxUser(limits.user);
	if (limits.network === 'host' || limits.network.startsWith('container:')) {
		// The host's network namespace reaches every local service (Ollama, a Docker TCP port).
		throw new ExecError(
			'containerFailed',
			`keel.shell.network "${limits.network}" would share a network namespace with the host or another container; use "none" or a Docker network such as "bridge".`,
		);
	}
	// Every folder read-write at its place, then what the plan hides or pins over it.
	const mounts: Docker.MountSettings[] = [
		...plan.roots.map(({ host, target }): Docker.MountSettings => ({
			Type: 'bind',
			Source: host,
			Target: target,
			ReadOnly: false,
		})),
		...maskMounts(plan),
	];
	const memory = Math.round(limits.memoryMb * 1024 * 1024);
	return {
		Image: image,
		Cmd: ['/bin/sh', '-c', keeperScript(limits.idleSeconds ?? DEFAULT_IDLE_SECONDS)],
		// PID 1's user; every command runs as `user` (the exec's User, sandboxContainer.ts).
		User: keeperUser(user),
		WorkingDir: WORKSPACE_MOUNT,
		Env: ['HOME=/tmp', 'LANG=C.UTF-8'],
		Labels: sandboxLabels(plan.roots.map(r => r.host).join('\n')),
		NetworkDisabled: limits.network === 'none',
		HostConfig: {
			NetworkMode: limits.network,
			Memory: memory,
			// Equal to Memory: no swap, so a memory hog is OOM-killed instead of thrashing the disk.
			MemorySwap: memory,
			NanoCpus: Math.round(limits.cpus * 1e9),
			PidsLimit: limits.pids,
			CapDrop: ['ALL'],
			SecurityOpt: ['no-new-privileges'],
			ReadonlyRootfs: true,
			Tmpfs: { '/tmp': `rw,nosuid,nodev,exec,size=${limits.tmpSizeMb}m,mode=1777` },
			Mounts: mounts,
			Init: false,
			AutoRemove: true,
		},
	};
}

/**
 * Removes containers a killed window or Check Model run left behind: ours by label, on this
 * host, their owner verifiably gone (owner.ts). Containers of live windows are left alone.
 */
export async function removeLeftovers(
	docker: Docker,
	gone: (owner: Owner | undefined) => boolean = ownerGone,
): Promise<string[]> {
	const found = await docker.listContainers({ all: true, filters: { label: [`${LABEL}=container`] } });
	const removed: string[] = [];
	for (const info of found) {
		const owner = parseOwner(`${info.Labels['keel.owner'] ?? ''}/${info.Labels['keel.owner.start'] ?? ''}`);
		if (gone(owner)) {
			await docker
				.getContainer(info.Id)
				.remove({ force: true })
				.catch(() => undefined);
			removed.push(info.Id);
		}
	}
	return removed;
}
