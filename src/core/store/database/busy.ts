/**
 * Runs `fn`, again while SQLite says the database is locked or busy. node-sqlite3-wasm's VFS
 * has no busy handler: a lock held by another window fails at once, so it is waited for here,
 * synchronously (the store is synchronous on purpose: a message is on disk before the loop goes
 * on). A live window holds the lock for the milliseconds of a transaction, a repair on open for
 * longer; a holder that is gone never makes anyone wait (storeLock.ts takes its lock over).
 * `describe` says who holds the lock when the wait runs out.
 */
export function whileBusy<T>(fn: () => T, describe?: () => string, limitMs = BUSY_LIMIT_MS): T {
	const started = Date.now();
	for (let attempt = 0; ; attempt++) {
		try {
			return fn();
		} catch (error) {
			if (!isBusy(error)) {
				throw error;
			}
			const waited = Date.now() - started;
			if (waited >= limitMs) {
				const holder = describe?.();
				throw new Error(
					`Keel's session history stayed locked for ${Math.round(waited / 1000)} s${holder ? ` (held by ${holder})` : ''}. ` +
						'Another VS Code window on this workspace may be stuck: close it, or wait and try again.',
					{ cause: error },
				);
			}
			// 1, 2, 4 … 32 ms: a commit of another window ends in a few.
			blockFor(Math.min(32, 2 ** Math.min(attempt, 5)));
		}
	}
}

/** Long enough for another window's repair of a large file; reached only when that window is stuck. */
export const BUSY_LIMIT_MS = 20_000;

export function isBusy(error: unknown): boolean {
	return /database is locked|database table is locked|SQLITE_BUSY|busy/i.test((error as Error)?.message ?? '');
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function blockFor(ms: number): void {
	Atomics.wait(sleeper, 0, 0, ms);
}
