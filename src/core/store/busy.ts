/**
 * Runs `fn`, again while SQLite says the database is locked or busy. node-sqlite3-wasm's VFS
 * has no busy handler: a lock held by another window (for the milliseconds of its transaction)
 * fails at once, so it is waited for here, briefly and synchronously.
 */
export function whileBusy<T>(fn: () => T, attempts = 100): T {
	for (let attempt = 0; ; attempt++) {
		try {
			return fn();
		} catch (error) {
			if (attempt >= attempts || !/locked|busy/i.test((error as Error).message)) {
				throw error;
			}
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
		}
	}
}
