import * as fs from 'fs';
import * as os from 'os';
import { processStart } from '../../exec/owner';

/**
 * Who holds a store lock: written into the lock directory by the process that made it, so any
 * other process can tell a live holder (another VS Code window, in the milliseconds of its
 * transaction) from one that is gone (a crashed or killed window) and only then take the lock.
 */
export interface LockHolder {
	pid: number;
	/** The machine: a pid says nothing about a process on another host sharing the folder. */
	host: string;
	/** Linux: when the process started (clock ticks since boot), so a reused pid is not mistaken for it. */
	start?: string;
	/** Linux: the pid namespace, so a pid from another container is not looked up in ours. */
	ns?: string;
	/** One per acquisition, so a process knows its own lock from one an earlier process with its pid left. */
	token: string;
	/** When the lock was taken (ms since the epoch). */
	at: number;
}

/** alive: wait for it; dead: take the lock over; unknown: cannot be checked from here (another host, another container). */
export type HolderState = 'alive' | 'dead' | 'unknown';

const self = { host: os.hostname(), start: processStart('self') || undefined, ns: pidNamespace('self') };

export function holderRecord(token: string, now = Date.now()): LockHolder {
	return { pid: process.pid, ...self, token, at: now };
}

/** When this machine booted, from the uptime clock (ms since the epoch). */
export function bootTime(): number {
	return Date.now() - os.uptime() * 1000;
}

/** A clock adjusted a little since boot must not make a lock or a write look older than the boot. */
const BOOT_SLACK_MS = 60_000;

/**
 * Whether the holder recorded in a lock still runs. `heldHere` answers for this process's own
 * tokens: a lock carrying this pid but a token this process does not hold was left by an
 * earlier process that had the same pid (pids are reused, in containers often at once).
 */
export function holderState(
	holder: LockHolder,
	heldHere: (token: string) => boolean,
	booted = bootTime(),
): HolderState {
	if (holder.host !== self.host) {
		return 'unknown';
	}
	if (holder.at < booted - BOOT_SLACK_MS) {
		return 'dead'; // Taken before this machine last started: every process of that boot is gone.
	}
	if (holder.ns !== undefined && self.ns !== undefined && holder.ns !== self.ns) {
		return 'unknown';
	}
	if (holder.pid === process.pid && holder.start === self.start) {
		return heldHere(holder.token) ? 'alive' : 'dead';
	}
	if (!pidExists(holder.pid)) {
		return 'dead';
	}
	// The pid runs; it is the holder unless it started later than the holder did (a reused pid).
	const start = holder.start === undefined ? undefined : processStart(holder.pid) || undefined;
	return start !== undefined && start !== holder.start ? 'dead' : 'alive';
}

/** A lock directory's holder, or undefined while it is being written or when it cannot be read. */
export function parseHolder(text: string): LockHolder | undefined {
	try {
		const value = JSON.parse(text) as Partial<LockHolder>;
		return typeof value.pid === 'number' &&
			typeof value.host === 'string' &&
			typeof value.token === 'string' &&
			typeof value.at === 'number'
			? (value as LockHolder)
			: undefined;
	} catch {
		return undefined;
	}
}

function pidExists(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function pidNamespace(pid: string): string | undefined {
	try {
		return fs.readlinkSync(`/proc/${pid}/ns/pid`);
	} catch {
		return undefined;
	}
}
