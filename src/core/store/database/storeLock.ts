import * as path from 'path';
import { holderRecord, holderState, parseHolder, type LockHolder } from './lockHolder';

// The module object itself, not an import copy: node-sqlite3-wasm's file layer looks up
// `mkdirSync`, `rmdirSync` and `accessSync` on it at every call.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeFs = require('node:fs') as typeof import('fs');

/**
 * The lock of every session database Keel opens, made to know its holder.
 *
 * node-sqlite3-wasm's file layer locks a database by creating the directory `<db>.lock` (mkdir
 * is atomic: one process wins) for any lock level, removes it when the connection unlocks, and
 * answers SQLite's "does another connection hold the write lock?" by whether that directory
 * exists. Two things follow that this module fixes, for the files registered here only:
 *
 * - The directory says nothing about its holder. A window killed inside a transaction leaves
 *   it behind, and every other window then waits forever, or (as before) removes it on a guess
 *   and may remove a live window's lock. Here the holder writes who it is into the directory
 *   (lockHolder.ts), and a lock whose holder is gone is taken over at once by whoever next
 *   needs it, in a window that is open as much as in one that opens; a live holder is waited
 *   for (busy.ts). Older builds' empty directories still exclude us, and we them.
 * - The question about the write lock is asked only by a connection that holds the directory
 *   itself (SQLite asks it when it finds a journal at the start of a read, to tell a hot
 *   journal from another writer's live one). Since the lock is exclusive, the true answer is
 *   always "no": the journal is hot, and SQLite rolls the killed writer's commit back.
 */

interface LockState {
	/** Connections of this process open on the file. */
	connections: number;
	/** The token of the lock this process holds now, if any. */
	token: string | undefined;
	/** A journal a killed writer left was found when the lock was taken (SQLite then rolled it back). */
	hotJournal: boolean;
}

const states = new Map<string, LockState>();
const HOLDER = 'holder';
/**
 * A lock whose holder cannot be checked is waited for this long: one with no holder written (an
 * older build's, or one caught in the microseconds before its holder is written), or one held
 * from another machine or container. Their transactions last milliseconds; a repair, seconds.
 */
const UNVERIFIED_STALE_MS = 10_000;
/** Taking over is serialised by a second directory, held for microseconds; older means its maker died. */
const BREAKER_STALE_MS = 10_000;
const JOURNAL_MAGIC = Buffer.from('d9d505f920a163d7', 'hex');

/** Registers a database file this process opens; returns the lock path. Call release() when closing it. */
export function registerLock(file: string): string {
	install();
	const lock = `${path.resolve(file)}.lock`;
	const state = states.get(lock) ?? { connections: 0, token: undefined, hotJournal: false };
	state.connections++;
	states.set(lock, state);
	return lock;
}

export function unregisterLock(lock: string): void {
	const state = states.get(lock);
	if (state && --state.connections <= 0 && state.token === undefined) {
		states.delete(lock);
	}
}

/** Whether a journal a killed writer left was found (and so played back) since the last call. */
export function takeHotJournal(lock: string): boolean {
	const state = states.get(lock);
	const found = state?.hotJournal ?? false;
	if (state) {
		state.hotJournal = false;
	}
	return found;
}

/** Who holds the lock now (for a message when waiting for it takes too long). */
export function currentHolder(lock: string): LockHolder | undefined {
	return readHolder(lock);
}

let installed = false;
let original: {
	mkdirSync: typeof nodeFs.mkdirSync;
	rmdirSync: typeof nodeFs.rmdirSync;
	accessSync: typeof nodeFs.accessSync;
};

function install(): void {
	if (installed) {
		return;
	}
	installed = true;
	original = { mkdirSync: nodeFs.mkdirSync, rmdirSync: nodeFs.rmdirSync, accessSync: nodeFs.accessSync };
	// Every other path goes straight to the original function.
	nodeFs.mkdirSync = function (target: unknown, ...rest: unknown[]) {
		const state = typeof target === 'string' ? states.get(target) : undefined;
		return state ? acquire(target as string, state) : Reflect.apply(original.mkdirSync, nodeFs, [target, ...rest]);
	} as typeof nodeFs.mkdirSync;
	nodeFs.rmdirSync = function (target: unknown, ...rest: unknown[]) {
		const state = typeof target === 'string' ? states.get(target) : undefined;
		return state ? release(target as string, state) : Reflect.apply(original.rmdirSync, nodeFs, [target, ...rest]);
	} as typeof nodeFs.rmdirSync;
	nodeFs.accessSync = function (target: unknown, ...rest: unknown[]) {
		const state = typeof target === 'string' ? states.get(target) : undefined;
		if (state?.token !== undefined) {
			throw errno('ENOENT', `no other connection holds ${String(target)}`);
		}
		return Reflect.apply(original.accessSync, nodeFs, [target, ...rest]);
	} as typeof nodeFs.accessSync;
}

/** The file layer's mkdir: EEXIST means busy (SQLite then reports SQLITE_BUSY and busy.ts waits). */
function acquire(lock: string, state: LockState): undefined {
	for (let attempt = 0; ; attempt++) {
		try {
			original.mkdirSync.call(nodeFs, lock);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt === 0 && takeOverIfStale(lock, state)) {
				continue;
			}
			throw error;
		}
		const token = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
		try {
			nodeFs.writeFileSync(path.join(lock, HOLDER), JSON.stringify(holderRecord(token)));
		} catch (error) {
			removeLock(lock);
			throw error;
		}
		state.token = token;
		state.hotJournal ||= journalIsHot(lock.slice(0, -'.lock'.length) + '-journal');
		return undefined;
	}
}

/** The file layer's rmdir. A lock that is no longer ours (taken over while we were thought gone) is left alone. */
function release(lock: string, state: LockState): undefined {
	const token = state.token;
	state.token = undefined;
	if (token !== undefined && readHolder(lock)?.token === token) {
		removeLock(lock);
	}
	if (state.connections <= 0) {
		states.delete(lock);
	}
	return undefined;
}

/**
 * Takes a lock over when its holder is gone; returns whether it did. Only one process at a time
 * decides (the breaker directory), and it reads the holder again once it holds that, so a lock
 * another process has just taken over and re-made is never removed.
 */
function takeOverIfStale(lock: string, state: LockState): boolean {
	const seen = lockStatus(lock, state);
	if (seen.status !== 'stale') {
		return seen.status === 'gone';
	}
	const breaker = `${lock}.break`;
	try {
		original.mkdirSync.call(nodeFs, breaker);
	} catch {
		if (Date.now() - mtime(breaker) > BREAKER_STALE_MS) {
			nodeFs.rmSync(breaker, { recursive: true, force: true });
		}
		return false;
	}
	try {
		const again = lockStatus(lock, state);
		if (again.status !== 'stale' || again.holder?.token !== seen.holder?.token) {
			return again.status === 'gone';
		}
		removeLock(lock);
		return true;
	} finally {
		nodeFs.rmSync(breaker, { recursive: true, force: true });
	}
}

function lockStatus(lock: string, state: LockState): { status: 'gone' | 'live' | 'stale'; holder?: LockHolder } {
	const made = mtime(lock);
	if (Number.isNaN(made)) {
		return { status: 'gone' };
	}
	const holder = readHolder(lock);
	const verdict = holder ? holderState(holder, token => token === state.token) : 'unknown';
	const stale = verdict === 'dead' || (verdict === 'unknown' && Date.now() - made > UNVERIFIED_STALE_MS);
	return { status: stale ? 'stale' : 'live', holder };
}

function readHolder(lock: string): LockHolder | undefined {
	try {
		return parseHolder(nodeFs.readFileSync(path.join(lock, HOLDER), 'utf8'));
	} catch {
		return undefined;
	}
}

function removeLock(lock: string): void {
	nodeFs.rmSync(path.join(lock, HOLDER), { force: true });
	try {
		original.rmdirSync.call(nodeFs, lock);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
			throw error;
		}
	}
}

function mtime(target: string): number {
	try {
		return nodeFs.statSync(target).mtimeMs;
	} catch {
		return NaN;
	}
}

/** A journal SQLite will play back: it starts with the journal header's magic number (a zeroed one is ignored). */
function journalIsHot(journal: string): boolean {
	let fd: number | undefined;
	try {
		fd = nodeFs.openSync(journal, 'r');
		const head = Buffer.alloc(JOURNAL_MAGIC.length);
		return nodeFs.readSync(fd, head, 0, head.length, 0) === head.length && head.equals(JOURNAL_MAGIC);
	} catch {
		return false;
	} finally {
		if (fd !== undefined) {
			nodeFs.closeSync(fd);
		}
	}
}

function errno(code: string, message: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`${code}: ${message}`), { code });
}
