import { createHash } from 'crypto';
import * as os from 'os';
import * as path from 'path';
import * as fs from 'fs';
import type Docker from 'dockerode';
import { ExecError } from './execError';

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
export const WORKSPACE_MOUNT = '/workspace';

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

/** Labels find our containers again: ours now, or leftovers of a crashed window. */
export function sandboxLabels(root: string): Record<string, string> {
	return {
		[LABEL]: 'container',
		'keel.workspace': workspaceKey(root),
		'keel.owner': `${os.hostname()}/${process.pid}`,
	};
}

/** A container nobody used for this long stops and is removed by the engine (AutoRemove). */
export const DEFAULT_IDLE_SECONDS = 30 * 60;

/**
 * PID 1 keeps the container alive and reaps orphans: a killed fork bomb leaves hundreds of
 * zombies re-parented to PID 1, and `sleep infinity` would never reap them, so their pids
 * stay taken. A shell does (its SIGCHLD handler waits for any child), and `kill -1` from a
 * timeout spares it because it is PID 1. It exits after `idleSeconds` without a command
 * (every exec touches /tmp/.keel-alive) and with no process running, so a window killed
 * before it could remove its container leaves nothing behind for long. Only builtins run
 * between sleeps: a `kill -1` landing at that moment cannot make it misjudge.
 */
export function keeperScript(idleSeconds: number): string {
	const step = Math.max(1, Math.min(60, Math.floor(idleSeconds / 4)));
	const rounds = Math.max(1, Math.ceil(idleSeconds / step));
	return [
		'trap "exit 0" TERM',
		': > /tmp/.keel-alive',
		'while :; do',
		'  : > /tmp/.keel-mark; i=0',
		`  while [ $i -lt ${rounds} ]; do sleep ${step} & wait $!; i=$((i+1)); done`,
		'  n=0; for p in /proc/[0-9]*; do n=$((n+1)); done',
		'  [ "$n" -gt 1 ] || [ /tmp/.keel-alive -nt /tmp/.keel-mark ] || exit 0',
		'done',
	].join('\n');
}

const SOCKETS = ['/var/run/docker.sock', '/run/docker.sock'];

/**
 * Paths that make the host run code later (git hooks and config, editor tasks, CI, dev
 * containers, package-manager and agent config): mounted read-only (A27), so a command in
 * the sandbox cannot plant what the host runs next. Keep in step with pathPolicy.ts.
 */
export const SANDBOX_PROTECTED = [
	'.git/hooks',
	'.git/config',
	'.vscode',
	'.github',
	'.gitlab',
	'.gitlab-ci.yml',
	'.husky',
	'.devcontainer',
	'.devcontainer.json',
	'.pre-commit-config.yaml',
	'.yarnrc.yml',
	'.yarnrc',
	'.npmrc',
	'.envrc',
	'.keel',
	'.mcp.json',
	'.cursor',
	'.claude',
	'.gitmodules',
];
/** Created (empty) when missing, so the sandbox cannot create them: VS Code would run what lands there. */
const CREATE_WHEN_MISSING = ['.vscode'];

/** Each submodule's own config and hooks (.git/modules/<name>/…, nested), which git runs like the top-level ones. */
function submoduleGitPaths(workspace: string): string[] {
	const out: string[] = [];
	const walk = (rel: string, depth: number) => {
		let names: string[];
		try {
			names = fs.readdirSync(path.join(workspace, rel));
		} catch {
			return;
		}
		for (const name of names) {
			const sub = `${rel}/${name}`;
			out.push(`${sub}/config`, `${sub}/hooks`);
			if (depth < 4) walk(`${sub}/modules`, depth + 1);
		}
	};
	walk('.git/modules', 0);
	return out;
}

/** The read-only mounts over the workspace, for what exists (and .vscode, created empty when missing). */
export function protectedMounts(workspace: string, target = WORKSPACE_MOUNT): Docker.MountSettings[] {
	const mounts: Docker.MountSettings[] = [];
	for (const rel of CREATE_WHEN_MISSING) {
		try {
			fs.mkdirSync(path.join(workspace, rel));
		} catch {
			// Exists already (or cannot be made: then it is not mounted and the guard's name checks remain).
		}
	}
	for (const rel of [...SANDBOX_PROTECTED, ...submoduleGitPaths(workspace)]) {
		const source = path.join(workspace, rel);
		// lstat: a protected name that is a symlink is mounted as what it points to only if that stays inside.
		const real = fs.existsSync(source) ? fs.realpathSync(source) : undefined;
		if (
			real !== undefined &&
			(real === workspace ||
				real.startsWith(`${workspace}${path.sep}`) ||
				real.startsWith(`${fs.realpathSync(workspace)}${path.sep}`))
		) {
			mounts.push({ Type: 'bind', Source: source, Target: `${target}/${rel}`, ReadOnly: true });
		}
	}
	return mounts;
}

/**
 * The hardened container: non-root, no network, capped memory/CPU/pids, no capabilities,
 * no-new-privileges, read-only root with a tmpfs /tmp, the workspace at /workspace, and
 * never the Docker socket.
 */
export function containerSpec(
	root: SandboxWorkspace,
	image: string,
	limits: SandboxLimits,
): Docker.ContainerCreateOptions {
	const points = sandboxMountPoints(root);
	const workspace = points.map(p => p.source).join('\n');
	if (limits.user.split(':')[0] === '0' || limits.user.startsWith('root')) {
		throw new ExecError(
			'containerFailed',
			'keel.shell.user must not be root: the sandbox only runs commands as a non-root user.',
		);
	}
	if (limits.network === 'host' || limits.network.startsWith('container:')) {
		// The host's network namespace reaches every local service (Ollama, a Docker TCP port).
		throw new ExecError(
			'containerFailed',
			`keel.shell.network "${limits.network}" would share a network namespace with the host or another container; use "none" or a Docker network such as "bridge".`,
		);
	}
	for (const { source } of points) {
		for (const socket of SOCKETS) {
			const rel = path.relative(source, socket);
			if (!rel.startsWith('..') && !path.isAbsolute(rel)) {
				throw new ExecError(
					'containerFailed',
					`The workspace ${source} contains the Docker socket; Keel will not mount it into the sandbox. Open a project folder instead.`,
				);
			}
		}
	}
	// Every folder read-write at its place, then each one's protected paths read-only over it.
	const mounts: Docker.MountSettings[] = [
		...points.map(({ source, target }): Docker.MountSettings => ({
			Type: 'bind',
			Source: source,
			Target: target,
			ReadOnly: false,
		})),
		...points.flatMap(({ source, target }) => protectedMounts(source, target)),
	];
	const memory = Math.round(limits.memoryMb * 1024 * 1024);
	return {
		Image: image,
		Cmd: ['/bin/sh', '-c', keeperScript(limits.idleSeconds ?? DEFAULT_IDLE_SECONDS)],
		User: limits.user,
		WorkingDir: WORKSPACE_MOUNT,
		Env: ['HOME=/tmp', 'LANG=C.UTF-8'],
		Labels: sandboxLabels(workspace),
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
 * Removes containers a crashed or killed window left behind: same host, owner process gone.
 * Containers of live windows (other workspaces) are left alone.
 */
export async function removeLeftovers(docker: Docker, isAlive: (pid: number) => boolean = pidAlive): Promise<string[]> {
	const found = await docker.listContainers({ all: true, filters: { label: [`${LABEL}=container`] } });
	const removed: string[] = [];
	for (const info of found) {
		const [host, pid] = (info.Labels['keel.owner'] ?? '').split('/');
		if (host === os.hostname() && !isAlive(Number(pid))) {
			await docker
				.getContainer(info.Id)
				.remove({ force: true })
				.catch(() => undefined);
			removed.push(info.Id);
		}
	}
	return removed;
}

function pidAlive(pid: number): boolean {
	if (!Number.isInteger(pid) || pid <= 0) {
		return false;
	}
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}
