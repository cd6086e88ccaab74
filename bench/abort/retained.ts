/**
 * Run by abort.bench.ts in a child Node with --expose-gc: what a long-lived signal that never
 * aborts keeps per short-lived use of it, each use dropped at once. Prints one JSON line.
 */
import { setMaxListeners } from 'events';
import { anySignal, onAbort, sleep } from '../../src/core/util/abort';

const CALLS = 100_000;
const TIMEOUT_MS = 1000;

const uses: Record<string, (source: AbortSignal) => Promise<void> | void> = {
	// What Keel does per model request or tool call on a turn's signal.
	anySignal: source => void anySignal(source, new AbortController().signal),
	// A timeout signal is held until its timer fires; measured after the timers fired.
	anySignalWithTimeout: source => void anySignal(source, AbortSignal.timeout(TIMEOUT_MS)),
	onAbortDisposed: source => onAbort(source, () => undefined).dispose(),
	sleep: source => sleep(0, source),
};

async function collect(): Promise<number> {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) {
		throw new Error('run with --expose-gc');
	}
	for (let i = 0; i < 6; i++) {
		gc();
		await new Promise(resolve => setImmediate(resolve));
	}
	return process.memoryUsage().heapUsed;
}

async function round(use: (source: AbortSignal) => Promise<void> | void, source: AbortSignal): Promise<number> {
	// A thousand at a time, so a round of sleeps takes a hundred timer ticks, not a hundred thousand.
	for (let i = 0; i < CALLS; i += 1000) {
		await Promise.all(Array.from({ length: 1000 }, () => use(source)));
	}
	await new Promise(resolve => setTimeout(resolve, TIMEOUT_MS + 500));
	return collect();
}

/**
 * Three rounds; what the second and third add is what each use keeps, and the first round's
 * one-time growth (timer lists, caches warming up) is left out.
 */
async function main(): Promise<void> {
	const use = uses[process.argv[2]];
	const source = new AbortController().signal;
	// A thousand listeners at once is the point here, not a leak to warn about.
	setMaxListeners(0, source);
	const first = await round(use, source);
	await round(use, source);
	const third = await round(use, source);
	// Read after the last collection, so the source stays alive (and keeps what it holds) until then.
	const alive = !source.aborted;
	console.log(JSON.stringify({ node: process.version, calls: 2 * CALLS, bytes: third - first, alive }));
}

void main().then(() => process.exit(0));
