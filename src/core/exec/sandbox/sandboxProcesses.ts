import * as fs from 'fs';

/**
 * Which processes live in a container, read on the host from the kernel itself: the
 * container's cgroup lists every task in it, and nothing in the container can leave it (the
 * cgroup file system is read-only there and it holds no capability). PID 1 and its `sleep`
 * run as a user of their own (sandboxSpec.ts: keeperUser), so after a command a live process
 * of any other user is one the command left; then, and only then, the runner ends them all
 * from a fresh exec. Where the host cannot see the container's processes (Docker Desktop's
 * VM, a remote engine), this answers undefined and the runner always does.
 */
export interface ContainerProcesses {
	/** The keeper's pid on the host. */
	init: number;
	/** The cgroup's list of tasks. */
	procs: string;
}

/** Finds the container's cgroup from its PID 1 (`docker inspect` State.Pid), cgroup v1 or v2. */
export function containerProcesses(init: number | undefined): ContainerProcesses | undefined {
	if (!init || process.platform !== 'linux') {
		return undefined;
	}
	let lines: string[];
	try {
		lines = fs.readFileSync(`/proc/${init}/cgroup`, 'utf8').split('\n');
	} catch {
		return undefined;
	}
	// v1: the pids controller's hierarchy; v2: the one unified hierarchy ("0::").
	const v1 = lines.map(l => /^\d+:pids:(.*)$/.exec(l)?.[1]).find(Boolean);
	const v2 = lines.map(l => /^0::(.*)$/.exec(l)?.[1]).find(Boolean);
	for (const procs of [v1 && `/sys/fs/cgroup/pids${v1}/cgroup.procs`, v2 && `/sys/fs/cgroup${v2}/cgroup.procs`]) {
		if (procs && readProcs(procs)?.includes(init)) {
			return { init, procs };
		}
	}
	return undefined;
}

function readProcs(file: string): number[] | undefined {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
	} catch {
		return undefined;
	}
}

/** A process's state letter and real uid, from /proc/<pid>/status; undefined once it is gone. */
function statusOf(pid: number): { state: string; uid: number } | undefined {
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		return {
			state: /^State:\s*(\S)/m.exec(status)?.[1] ?? '?',
			uid: Number(/^Uid:\s*(\d+)/m.exec(status)?.[1] ?? -1),
		};
	} catch {
		return undefined;
	}
}

/** Live processes in the container not of PID 1's user (zombies are dead already); undefined when unreadable. */
export function strayProcesses(container: ContainerProcesses): number[] | undefined {
	const pids = readProcs(container.procs);
	const keeper = statusOf(container.init);
	if (!pids?.includes(container.init) || !keeper) {
		return undefined;
	}
	return pids.filter(pid => {
		const status = statusOf(pid);
		return status !== undefined && status.uid !== keeper.uid && !/^[ZX]$/.test(status.state);
	});
}
