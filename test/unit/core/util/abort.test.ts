import * as assert from 'assert';
import { getEventListeners } from 'events';
import fc from 'fast-check';
import { anySignal, onAbort, sleep, withTimeout } from '../../../../src/core/util/abort';
import { isAbortError } from '../../../../src/core/errors';

describe('abort helpers', () => {
	it('anySignal aborts with the reason of whichever source aborts first, and only then', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 6 }),
				fc.array(fc.nat(), { maxLength: 8 }),
				fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
				(count, order, gaps) => {
					const controllers = Array.from({ length: count }, () => new AbortController());
					// Some positions are undefined, as callers pass optional signals.
					const signals = controllers.map((c, i) => (gaps[i] && i > 0 ? undefined : c.signal));
					const combined = anySignal(...signals);
					const live = controllers.filter((_, i) => signals[i] !== undefined);
					const aborted = order.map(i => live[i % live.length]);
					for (const controller of aborted) {
						controller.abort(`reason ${live.indexOf(controller)}`);
					}
					if (aborted.length === 0) {
						assert.strictEqual(combined.aborted, false);
					} else {
						assert.strictEqual(combined.aborted, true);
						assert.strictEqual(combined.reason, `reason ${live.indexOf(aborted[0])}`);
					}
				},
			),
		);
	});

	it('anySignal of one signal is that signal, and of none a signal that never aborts', () => {
		const one = new AbortController().signal;
		assert.strictEqual(anySignal(undefined, one), one);
		assert.strictEqual(anySignal().aborted, false);
	});

	it('withTimeout aborts with a TimeoutError at the deadline, or with the signal if it aborts first', async () => {
		const timed = withTimeout(undefined, 10);
		await new Promise(resolve => timed.addEventListener('abort', resolve));
		assert.strictEqual((timed.reason as Error).name, 'TimeoutError');

		const controller = new AbortController();
		const early = withTimeout(controller.signal, 60_000);
		controller.abort('stopped');
		assert.strictEqual(early.reason, 'stopped');
	});

	it('sleep waits, and rejects with an AbortError when its signal aborts, before or during', async () => {
		await sleep(1);
		const before = new AbortController();
		before.abort();
		await assert.rejects(sleep(60_000, before.signal), error => isAbortError(error));
		const during = new AbortController();
		const waiting = sleep(60_000, during.signal);
		during.abort();
		await assert.rejects(waiting, error => isAbortError(error));
		assert.strictEqual(getEventListeners(during.signal, 'abort').length, 0);
	});

	it('onAbort runs its work once on abort, at once for a signal already aborted, never after dispose', async () => {
		const controller = new AbortController();
		let runs = 0;
		onAbort(controller.signal, () => runs++);
		controller.abort();
		controller.abort();
		assert.strictEqual(runs, 1);

		let late = 0;
		onAbort(controller.signal, () => late++);
		await Promise.resolve();
		assert.strictEqual(late, 1);

		const other = new AbortController();
		let disposed = 0;
		onAbort(other.signal, () => disposed++).dispose();
		other.abort();
		assert.strictEqual(disposed, 0);
		onAbort(undefined, () => assert.fail('no signal, no work')).dispose();
	});

	it('onAbort leaves no listener on a long-lived signal once its work is disposed', () => {
		const window = new AbortController().signal;
		for (let i = 0; i < 1000; i++) {
			onAbort(window, () => undefined).dispose();
		}
		assert.strictEqual(getEventListeners(window, 'abort').length, 0);
	});
});
