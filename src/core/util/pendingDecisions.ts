import { onAbort } from './abort';
import { Deferred } from './deferred';
import type { IDisposable } from './lifecycle';

/**
 * Questions the loop waits on until the user answers, keyed by ids the loop created. Fails
 * closed: an aborted turn, cancelAll, dispose or a duplicate id all answer with the refusal,
 * and each id can be decided once (a replayed or forged answer changes nothing).
 */
export class PendingDecisions<T> implements IDisposable {
	private readonly _pending = new Map<string, Deferred<T>>();
	private _disposed = false;

	constructor(private readonly _refusal: (reason: string) => T) {}

	async wait(id: string, signal: AbortSignal): Promise<T> {
		if (this._disposed || signal.aborted) {
			return this._refusal('cancelled');
		}
		if (this._pending.has(id)) {
			return this._refusal(`duplicate request for ${id}`);
		}
		const deferred = new Deferred<T>();
		this._pending.set(id, deferred);
		const cancelled = onAbort(signal, () => deferred.resolve(this._refusal('cancelled')));
		try {
			return await deferred.promise;
		} finally {
			cancelled.dispose();
			this._pending.delete(id);
		}
	}

	/** Returns false when the id is not pending (forged, replayed, or already decided). */
	decide(id: string, value: T): boolean {
		return this._pending.get(id)?.resolve(value) ?? false;
	}

	ids(): string[] {
		return [...this._pending.keys()];
	}

	cancelAll(reason = 'cancelled'): void {
		for (const deferred of this._pending.values()) {
			deferred.resolve(this._refusal(reason));
		}
	}

	dispose(): void {
		this._disposed = true;
		this.cancelAll('disposed');
	}
}
