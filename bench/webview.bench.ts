/**
 * The chat at scale: real Chromium loads the production webview bundle, receives a 5,000-item
 * session from the real host projection, then a live turn streams into it while it is on
 * screen, then the user types. Figures next to the budgets the chat is held to.
 */
import * as path from 'path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/support/browser';
import { percentile, printTable } from './table';
import { createBenchHost } from './webview/host';
import { writeBenchPage } from './webview/page';
import { roundEvents, sessionEvents } from './webview/session';

// In-page code runs in Chromium; the Node program has no DOM types.
declare const window: any,
	document: any,
	queueMicrotask: (cb: () => void) => void,
	XPathResult: any,
	PerformanceObserver: any,
	requestAnimationFrame: (cb: () => void) => void;
type Element = { getBoundingClientRect(): { top: number; bottom: number; height: number } };

export const title = 'Chat webview at scale (Chromium, production bundle, 5,000-item session)';

const ROUNDS = 2_499; // 1 prompt + 2 items per round + the closing answer = 5,000 items
const STREAM_ROUNDS = 60;
const KEYS = 'hello keel, go on'.length;

export async function run(): Promise<void> {
	const repoRoot = path.resolve(__dirname, '..', '..');
	const history = sessionEvents('t1', ROUNDS);
	history.push(
		{ type: 'textDelta', turnId: 't1', text: 'All files read. LAST-MARK' },
		{ type: 'turnFinished', turnId: 't1', reason: 'completed' },
	);
	const host = createBenchHost(history);
	const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
	try {
		const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
		await page.goto(`file://${writeBenchPage(repoRoot)}`);
		await page.waitForFunction(() => (window as any).__bench.posted.some((m: any) => m.type === 'ready'));
		const snapshot = host.snapshot();
		const openMs = await page.evaluate(
			json =>
				new Promise<number>(resolve => {
					const start = performance.now();
					window.dispatchEvent(new MessageEvent('message', { data: JSON.parse(json) }));
					const check = () => {
						const hit = document.evaluate(
							"//*[contains(text(),'LAST-MARK')]",
							document.body,
							null,
							XPathResult.FIRST_ORDERED_NODE_TYPE,
							null,
						).singleNodeValue as Element | null;
						const rect = hit?.getBoundingClientRect();
						if (rect && rect.bottom > 0 && rect.top < window.innerHeight && rect.height > 0) {
							resolve(performance.now() - start);
						} else {
							requestAnimationFrame(check);
						}
					};
					requestAnimationFrame(check);
				}),
			snapshot.json,
		);
		const domAfterOpen = await page.evaluate(() => document.getElementsByTagName('*').length);

		// A live turn streams into the long session, one flush (≈33 ms) per round.
		const batches = Array.from({ length: STREAM_ROUNDS }, (_, i) => host.feed(roundEvents('t2', i + 1)));
		// All main-thread work while streaming (parse, apply, render, layout, paint), from Chromium's own counters.
		const cdp = await page.context().newCDPSession(page);
		await cdp.send('Performance.enable');
		const taskSeconds = async () =>
			(await cdp.send('Performance.getMetrics')).metrics.find(m => m.name === 'TaskDuration')?.value ?? NaN;
		const busyBefore = await taskSeconds();
		batches.unshift(host.feed([{ type: 'turnStarted', turnId: 't2', prompt: 'go on' }]));
		const stream = await page.evaluate(
			batches =>
				new Promise<{ perDelta: number[]; longTasks: number[] }>(resolve => {
					const perDelta: number[] = [];
					const longTasks: number[] = [];
					const observer = new PerformanceObserver((list: any) =>
						list.getEntries().forEach((e: any) => longTasks.push(e.duration)),
					);
					observer.observe({ type: 'longtask', buffered: false });
					let index = 0;
					const tick = async () => {
						for (const data of batches[index++]) {
							const start = performance.now();
							window.dispatchEvent(new MessageEvent('message', { data }));
							await Promise.resolve(); // anything the message scheduled as a microtask
							perDelta.push(performance.now() - start);
						}
						if (index < batches.length) {
							setTimeout(() => void tick(), 33); // nothing in tick rejects; the page's own errors end the run
						} else {
							setTimeout(() => {
								observer.disconnect();
								resolve({ perDelta, longTasks });
							}, 500);
						}
					};
					setTimeout(() => void tick(), 33);
				}),
			batches,
		);
		const busyMs = ((await taskSeconds()) - busyBefore) * 1000;
		const domAfterStream = await page.evaluate(() => document.getElementsByTagName('*').length);

		// Typing with the session on screen: keydown to the next frame, per key.
		await page.evaluate(() => {
			const w = window as any;
			w.__keys = [];
			w.__frames = [];
			let down = 0;
			document.addEventListener(
				'keydown',
				(e: any) => {
					down = e.timeStamp;
					const t = down;
					requestAnimationFrame(() => w.__frames.push(performance.now() - t));
				},
				true,
			);
			// After the chat's own input handler and the render it scheduled (a microtask): the key's work.
			document.addEventListener('input', () => {
				const t = down;
				queueMicrotask(() => queueMicrotask(() => w.__keys.push(performance.now() - t)));
			});
		});
		await page.locator('[data-testid="prompt-input"]').click();
		await page.keyboard.type('hello keel, go on', { delay: 40 });
		await page.waitForTimeout(300);
		const keys = await page.evaluate(() => (window as any).__keys as number[]);
		const frames = await page.evaluate(() => (window as any).__frames as number[]);
		const state = await page.evaluate(
			() => (window as any).__bench as { setStateBytes: number; setStateCalls: number },
		);

		const maxLong = stream.longTasks.length ? Math.max(...stream.longTasks) : 0;
		printTable(
			['figure', 'measured', 'budget'],
			[
				['open → last item visible (host snapshot + webview), ms', snapshot.buildMs + openMs, '≤ 300'],
				['  snapshot sent on open, KB', snapshot.json.length / 1024, 'not growing with the session'],
				['DOM nodes after open', domAfterOpen, '≤ 3,000'],
				['DOM nodes after streaming', domAfterStream, '≤ 3,000'],
				[
					`streaming: p95 per applied delta, ms (${stream.perDelta.length} deltas)`,
					percentile(stream.perDelta, 0.95),
					'≤ 4',
				],
				['streaming: median per applied delta, ms', percentile(stream.perDelta, 0.5), ''],
				[
					'streaming: all main-thread work per delta (mean, incl. render/layout/paint), ms',
					busyMs / stream.perDelta.length,
					'',
				],
				['streaming: longest task, ms', maxLong, '≤ 50'],
				['streaming: long tasks (> 50 ms)', stream.longTasks.length, '0'],
				[
					`typing: p95 keydown → key handled and rendered, ms (${keys.length} keys)`,
					percentile(keys, 0.95),
					'≤ 16',
				],
				['typing: p95 keydown → next frame (includes the wait for vsync), ms', percentile(frames, 0.95), ''],
				['setState: KB stored in total', state.setStateBytes / 1024, 'only what a repaint needs'],
			],
		);
		if (keys.length < KEYS) {
			console.log(`(only ${keys.length} of ${KEYS} keys were measured)`);
		}
	} finally {
		await browser.close();
	}
}
