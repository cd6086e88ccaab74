/**
 * When Keel itself runs in a container (a dev container that reaches the host's engine through
 * its socket), the workspace it sees at /workspaces/app is a bind mount of some folder on the
 * engine's machine, and the engine knows only that folder's path. Keel asks the engine about
 * its own container: its id from the mount table (the engine bind-mounts /etc/hostname from
 * `…/containers/<id>/hostname`), or the hostname (the short id by default), and `docker
 * inspect` of it says where each of its mounts comes from. A folder under one of them is
 * mapped to the same place under the mount's source; the preflight then confirms the mapping
 * with its marker before anything is mounted.
 */
import type Docker from 'dockerode';
import * as fs from 'fs';
import * as os from 'os';

/** Ids this process's container might have, most certain first; empty outside a container. */
export function ownContainerIds(mountinfo = readMountinfo(), hostname = os.hostname()): string[] {
	const ids: string[] = [];
	for (const line of mountinfo.split('\n')) {
		const fields = line.split(' ');
		// mountinfo: id parent major:minor root mount-point …; root names the file on the engine's side.
		const [root, mountPoint] = [fields[3], fields[4]];
		if (!root || !/^\/etc\/(hostname|hosts|resolv\.conf)$/.test(mountPoint ?? '')) continue;
		const id = /\/([0-9a-f]{64})\//.exec(root)?.[1];
		if (id && !ids.includes(id)) ids.push(id);
	}
	if (/^[0-9a-f]{12,64}$/.test(hostname) && !ids.some(id => id.startsWith(hostname))) {
		ids.push(hostname);
	}
	return ids;
}

function readMountinfo(): string {
	try {
		return fs.readFileSync('/proc/self/mountinfo', 'utf8');
	} catch {
		return '';
	}
}

/** A mount of this container as the engine describes it. */
export interface EngineMount {
	Source: string;
	Destination: string;
}

/** Where `local` is on the engine's machine, through the deepest mount that holds it; undefined when none does. */
export function mapThroughMounts(local: string, mounts: readonly EngineMount[]): string | undefined {
	const holding = mounts
		.filter(m => m.Source && (local === m.Destination || local.startsWith(`${m.Destination.replace(/\/+$/, '')}/`)))
		.sort((a, b) => b.Destination.length - a.Destination.length)[0];
	return (
		holding && `${holding.Source.replace(/\/+$/, '')}${local.slice(holding.Destination.replace(/\/+$/, '').length)}`
	);
}

/**
 * The engine's path of each folder, when Keel runs in a container of this engine and each
 * folder is under one of its mounts; undefined otherwise (not in a container, a container of
 * another engine, a folder only in the container's own file system).
 */
export async function engineSources(docker: Docker, folders: readonly string[]): Promise<string[] | undefined> {
	for (const id of ownContainerIds()) {
		const info = await docker
			.getContainer(id)
			.inspect()
			.catch(() => undefined);
		if (!info) continue;
		const mounts = (info.Mounts ?? []) as EngineMount[];
		const mapped = folders.map(folder => mapThroughMounts(folder, mounts));
		return mapped.every((source): source is string => source !== undefined) ? mapped : undefined;
	}
	return undefined;
}
