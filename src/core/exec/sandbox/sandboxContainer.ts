import type Docker from 'dockerode';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Logger } from '../../ports';
import type { PathPolicy } from '../../gate/paths/pathPolicy';
import { engineFolders, scanRules, type ScanRules } from './sandboxRules';
import { pollPlan, scanWorkspace, type Mask, type SandboxPlan } from './sandboxScan';
import { END_ALL, readCounters, type CgroupCounters } from './sandboxShell';
import { WORKSPACE_MOUNT } from '../../gate/paths/workspaceFolders';
import { containerSpec, mountRoots, realFolders, type SandboxLimits, type SandboxWorkspace } from './sandboxSpec';
import { containerProcesses, strayProcesses, type ContainerProcesses } from './sandboxProcesses';
import { parseSandboxUser, verifyRunningUser } from './sandboxUser';
import { engineEndpoint, ensureWorkspaceShared, type WorkspaceOnEngine } from './sandboxPreflight';
import { ExecError } from '../execError';
import type { CopyOutcome, CopyVolume } from './sandboxCopy';
import type { MountRoot } from './sandboxScan';
import type { Owner } from './tarArchive';

/** A started container with what was hidden and pinned in it, and whether that is still true. */
export interface Warm {
	container: Docker.Container;
	specKey: string;
	counters: CgroupCounters;
	plan: SandboxPlan;
	rules: ScanRules;
	/** Something changed on disk that the container's mounts do not cover: the next command gets a new one. */
	stale: boolean;
	/** Where the host reads the container's processes, when it can. */
	processes: ContainerProcesses | undefined;
	/** Who commands run as (every exec's User; PID 1 runs as another user). */
	user: string;
	/** Where the engine mounts the workspace from, when that is not the path Keel sees (mapped). */
	mappedTo?: string;
	/** The engine does not see the workspace at all: it runs on a copy in a volume there (sandboxCopy.ts). */
	copied?: CopiedWarm;
}

/** What a copied container needs to send changes in and read them back. */
export interface CopiedWarm {
	volume: CopyVolume;
	roots: readonly MountRoot[];
	owner: Owner;
	engine: string;
}

/**
 * What the container will mount, hide and pin for `root`: refused placements throw ExecError.
 * `beforeScan` sees the folders first (the preflight: its marker comes and goes before the walk
 * records each folder's change time, so it does not read as a change later).
 */
export async function planSandbox(
	root: SandboxWorkspace,
	policy: PathPolicy,
	engineSocket?: string,
	beforeScan?: (roots: SandboxPlan['roots']) => Promise<void>,
): Promise<{ plan: SandboxPlan; rules: ScanRules }> {
	const engines = realFolders(engineFolders(process.env, os.homedir(), engineSocket));
	const roots = mountRoots(root, engines);
	await beforeScan?.(roots);
	const rules = scanRules(policy, engines);
	return { plan: await scanWorkspace(roots, rules), rules };
}

/**
 * Scans the workspace, creates and starts the container with its masks, and asks the kernel
 * inside it who commands run as; a container that would run as root is removed and refused.
 */
export async function startContainer(
	docker: Docker,
	request: {
		root: SandboxWorkspace;
		image: string;
		limits: SandboxLimits;
		policy: PathPolicy;
		specKey: string;
		/** When the engine does not see the workspace: the session's volume to copy it into. */
		copy?: CopyVolume;
	},
	logger: Logger,
): Promise<Warm> {
	// docker-modem holds the socket path once resolved (a function that finds it before that).
	const socketPath = (docker.modem as { socketPath?: unknown }).socketPath;
	const socket = typeof socketPath === 'string' ? socketPath : undefined;
	// Before anything mounts it: does that engine see these folders at all (a remote engine, a VM),
	// and at which paths (Keel in a container of that engine)?
	let seen: WorkspaceOnEngine | undefined;
	let copyInto: string | undefined;
	const { plan, rules } = await planSandbox(request.root, request.policy, socket, async roots => {
		try {
			seen = await ensureWorkspaceShared(docker, roots, request.image, logger);
		} catch (error) {
			if (!request.copy || !(error instanceof ExecError) || error.code !== 'workspaceNotShared') throw error;
			copyInto = await request.copy.name();
			const said = error.message.split('. The sandbox bind-mounts')[0];
			logger.info(`sandbox: ${said}; the workspace is copied into the volume ${copyInto}`);
		}
	});
	const made = containerSpec(plan, request.image, request.limits);
	const spec = copyInto ? inVolume(made, copyInto) : onEngine(made, seen);
	const sandboxUser = parseSandboxUser(request.limits.user);
	const user = sandboxUser.docker;
	const copied: CopiedWarm | undefined =
		copyInto && request.copy
			? {
					volume: request.copy,
					roots: plan.roots,
					engine: await engineEndpoint(docker),
					owner: {
						uid: typeof sandboxUser.uid === 'number' ? sandboxUser.uid : 1000,
						gid: typeof sandboxUser.gid === 'number' ? sandboxUser.gid : 1000,
					},
				}
			: undefined;
	const container = await docker.createContainer(spec);
	try {
		// The copy lands before anything runs: the archive API writes into a created container's volume.
		await copied?.volume.send(container, copied.roots, rules, copied.owner, user, false);
		await container.start();
		await verifyRunningUser(docker, container, request.limits.user, user, spec.User!);
		await copied?.volume.settle(container, user);
	} catch (error) {
		await container.remove({ force: true }).catch(() => undefined);
		throw error;
	}
	const counters = await readCounters(docker, container).catch(() => ({ oomKills: 0, pidsMax: 0 }));
	const init = await container.inspect().then(
		info => info.State.Pid,
		() => undefined,
	);
	logger.info(
		`sandbox: container ${container.id.slice(0, 12)} started from ${request.image}; ${plan.masks.size} path(s) hidden or read-only, ${plan.files} files scanned in ${Math.round(plan.elapsedMs)} ms`,
	);
	return {
		container,
		specKey: request.specKey,
		counters,
		plan,
		rules,
		stale: false,
		processes: containerProcesses(init),
		user,
		mappedTo: seen?.mapped?.map(m => m.engine).join(', '),
		...(copied ? { copied } : {}),
	};
}

/** Before a command on a copy: what changed here since the last one (an approved write, the user's edit) goes there. */
export async function sendCopy(warm: Warm): Promise<void> {
	const copied = warm.copied;
	if (!copied) return;
	await copied.volume.send(warm.container, copied.roots, warm.rules, copied.owner, warm.user, true);
	await copied.volume.settle(warm.container, warm.user);
}

/** After a command on a copy: what it changed there, for the file tools to propose. */
export function readCopy(warm: Warm): Promise<CopyOutcome | undefined> {
	return warm.copied
		? warm.copied.volume.changes(warm.container, warm.user, warm.copied.engine)
		: Promise.resolve(undefined);
}

/** The workspace from the session's volume instead of bind mounts: nothing of this disk is mounted. */
function inVolume(spec: Docker.ContainerCreateOptions, volume: string): Docker.ContainerCreateOptions {
	const mounts: Docker.MountSettings[] = [
		{ Type: 'volume', Source: volume, Target: WORKSPACE_MOUNT, ReadOnly: false },
	];
	return { ...spec, HostConfig: { ...spec.HostConfig, Mounts: mounts } };
}

/** Every bind of a path under a mapped folder names that path on the engine's machine instead. */
function onEngine(
	spec: Docker.ContainerCreateOptions,
	seen: WorkspaceOnEngine | undefined,
): Docker.ContainerCreateOptions {
	const mapped = seen?.mapped;
	if (!mapped || !spec.HostConfig?.Mounts) {
		return spec;
	}
	const toEngine = (source: string) => {
		const hit = mapped.find(m => source === m.local || source.startsWith(`${m.local}/`));
		return hit ? hit.engine + source.slice(hit.local.length) : source;
	};
	const mounts = spec.HostConfig.Mounts.map(m => (m.Type === 'bind' ? { ...m, Source: toEngine(m.Source) } : m));
	return { ...spec, HostConfig: { ...spec.HostConfig, Mounts: mounts } };
}

/** Whether the host changed something the container's mounts no longer cover (checked before each command). */
export async function needsNewContainer(warm: Warm): Promise<boolean> {
	if (warm.stale) {
		return true;
	}
	const changes = await pollPlan(warm.plan, warm.rules);
	return changes.added.length > 0 || changes.moved.length > 0;
}

/**
 * After every command: ends every process it left (from a fresh exec, so a command that
 * killed its wrapper gains nothing), then looks at what it changed. A `.git` it created is
 * moved aside, since git on the host (VS Code's Git extension runs it on its own) would run
 * what that repository's config and hooks say; anything else new that needs a mask makes the
 * next command start in a new container. Returns a sentence for the result, if any.
 */
export async function afterCommand(warm: Warm, logger: Logger): Promise<string | undefined> {
	// The wrapper's own `kill -9 -1` usually left nothing; the kernel's list of the container's
	// tasks says so without another exec. Anything alive but PID 1 (or no way to look) → end all.
	const strays = warm.processes && strayProcesses(warm.processes);
	if (strays === undefined || strays.length > 0) {
		await endAll(warm.container, warm.user);
	}
	const changes = await pollPlan(warm.plan, warm.rules);
	if (changes.added.length > 0 || changes.moved.length > 0) {
		warm.stale = true;
	}
	const repositories = changes.added.filter(mask => mask.gitEntry);
	if (repositories.length === 0) {
		return undefined;
	}
	const moved = await Promise.all(repositories.map(quarantine));
	logger.warn(`sandbox: moved aside git repositories a command created: ${moved.join(', ')}`);
	return `Keel: this command created a git repository (${moved.join('; ')}). The sandbox may not create repositories, because git on your machine would run what their config and hooks say; each was renamed so git ignores it. Run \`git init\` or \`git clone\` in your own terminal instead.`;
}

async function quarantine(mask: Mask): Promise<string> {
	const aside = `${mask.host}.keel-quarantined-${Date.now()}`;
	const shown = (file: string) => path.basename(path.dirname(file)) + '/' + path.basename(file);
	try {
		await fs.promises.rename(mask.host, aside);
		return `${shown(mask.host)} → ${path.basename(aside)}`;
	} catch (error) {
		return `${shown(mask.host)}, which Keel could not move aside (${(error as Error).message}): delete it before running git there`;
	}
}

/**
 * `kill -9 -1` as the sandbox user: every process but PID 1 and the killer itself. When even
 * that cannot start (every pid taken), the container goes and the next command gets a new one.
 */
export async function endAll(container: Docker.Container, user: string): Promise<void> {
	// As the commands' user: its `kill -1` reaches every process of theirs and none of PID 1's.
	const exec = await container.exec({ Cmd: END_ALL, User: user, AttachStdout: true, AttachStderr: true });
	const stream = await exec.start({ hijack: true, stdin: false });
	await new Promise<void>(resolve => {
		stream.on('end', resolve);
		stream.on('close', resolve);
		stream.on('error', () => resolve());
		stream.resume();
	});
}
