import * as fs from 'fs';
import * as os from 'os';

/**
 * Who made a container or a scratch folder, written on it so a later run can reap what a
 * killed one left: the host, the pid, and (on Linux) the process's start time, so a pid the
 * system has since handed to another process is not taken for the owner.
 */
export interface Owner {
	host: string;
	pid: number;
	/** Clock ticks after boot when the process started (/proc/<pid>/stat, field 22); '' where unknown. */
	start: string;
}

/** When a process started, to tell it from a later one given the same pid; '' where unknown. */
export function processStart(pid: number | 'self'): string {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name (field 2) may hold spaces and parentheses: count from the last ')'.
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
	} catch {
		return '';
	}
}

export function currentOwner(): Owner {
	return { host: os.hostname(), pid: process.pid, start: processStart(process.pid) };
}

/** `host/pid/start`, the form kept in labels and owner files. */
export function ownerText(owner: Owner = currentOwner()): string {
	return `${owner.host}/${owner.pid}/${owner.start}`;
}

export function parseOwner(text: string | undefined): Owner | undefined {
	const [host, pid, start = ''] = (text ?? '').trim().split('/');
	const number = Number(pid);
	return host && Number.isInteger(number) && number > 0 ? { host, pid: number, start } : undefined;
}

/**
 * True only when the owner is verifiably gone: it ran on this host, and its pid is free or
 * now belongs to a process that started at another time. Anything else (another host, a
 * process we may not signal, an owner we cannot read) is left alone.
 */
export function ownerGone(owner: Owner | undefined): boolean {
	if (!owner || owner.host !== os.hostname()) {
		return false;
	}
	try {
		process.kill(owner.pid, 0);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'ESRCH';
	}
	const now = processStart(owner.pid);
	return owner.start !== '' && now !== '' && now !== owner.start;
}
