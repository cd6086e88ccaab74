/**
 * Cancellation and waiting on Node's own primitives, one way everywhere: `AbortSignal.any` to
 * combine, `AbortSignal.timeout` for deadlines, `timers/promises` to sleep, `events.addAbortListener`
 * for the work an abort must start (kill a process, cancel a VS Code token).
 *
 * `AbortSignal.any` on a signal that lives long and never aborts costs a little on Node 20, not
 * on Node 24 (`npm run bench -- abort` measures it on each Node it finds). On Node 20.20 every
 * combination leaves about 70 bytes on its source (not a listener: a weak reference in the
 * source's list of dependants, dropped only when the source aborts or is collected), 7 MB per
 * 100,000; on Node 24.21, which code-server 4.139 runs extensions on, nothing. Keel combines
 * per model request or tool call on a turn's signal, which goes away with the turn: a few
 * hundred entries at most. A listener added with `onAbort` and disposed keeps nothing on
 * either, so that is the one to use on a signal that outlives many uses (a window's, a
 * connection's).
 */
import { addAbortListener } from 'events';
import { setTimeout as delay } from 'timers/promises';
import type { IDisposable } from './lifecycle';

/** Aborts when any of the signals does, with its reason; the undefined ones are left out. */
export function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal {
	const present = signals.filter((s): s is AbortSignal => s !== undefined);
	return present.length === 1 ? present[0] : AbortSignal.any(present);
}

/** `signal`, or a deadline `ms` from now, whichever comes first; the deadline aborts with a `TimeoutError`. */
export function withTimeout(signal: AbortSignal | undefined, ms: number): AbortSignal {
	return anySignal(signal, AbortSignal.timeout(ms));
}

/** Waits `ms`; rejects with an `AbortError` as soon as `signal` aborts (at once when it already has). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return delay(ms, undefined, { signal });
}

/**
 * Runs `fn` once when `signal` aborts (in a microtask when it already has). Dispose when the
 * work is done, so a signal that outlives it does not keep the listener.
 */
export function onAbort(signal: AbortSignal | undefined, fn: () => void): IDisposable {
	if (!signal) {
		return { dispose() {} };
	}
	const listener = addAbortListener(signal, fn);
	return { dispose: () => listener[Symbol.dispose]() };
}
