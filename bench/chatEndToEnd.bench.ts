/**
 * The chat end to end in real VS Code (code-server) driven by Chromium: one auto-approved turn
 * of 1,500 rounds (short text with a code block and a file read each) against the model
 * double. How long after the loop's last event the last answer is on screen, what the
 * chat's webview holds at the end, and the main-thread tasks over 50 ms the webview's frame
 * saw while the turn streamed (Long Tasks API). Every round reads with arguments of its own, so each read
 * runs: none is answered from the session's result cache.
 */
import { text, textThenTools, startModelDouble } from '../test/support/modelDouble';
import { ask, startKeel, testId } from '../test/e2e/harness';
import { printTable } from './table';
import { startCpuProfile } from './webview/cpuProfile';

// In-page code runs in the webview; the Node program has no DOM types.
declare const document: any, performance: any, window: any, PerformanceObserver: any;

export const title = 'Chat end to end in VS Code: a 1,500-round auto-approved turn';

const ROUNDS = 1_500;

export async function run(): Promise<void> {
	const double = await startModelDouble();
	// A window large enough that the context guard never stops the turn: the figure is the chat's, not the guard's.
	const keel = await startKeel({
		settings: {
			'keel.model.baseUrl': double.openaiBaseUrl,
			'keel.agent.maxSteps': ROUNDS + 10,
			'keel.model.contextWindow': 10_000_000,
		},
	});
	try {
		double.script(
			...Array.from({ length: ROUNDS }, (_, i) =>
				// A read of its own each round: never a cache hit, never the same call twice (the doom-loop guard).
				textThenTools(
					`Round ${i + 1}:\n\n\`\`\`ts\nrun(${i + 1});\n\`\`\``,
					[
						{
							name: 'read_file',
							arguments: { path: 'README.md', offset: (i % 4) + 1, limit: Math.floor(i / 4) + 1 },
						},
					],
					{ chunks: 3 },
				),
			),
			text('All rounds done. LAST-MARK'),
		);
		const chat = await keel.openKeel();
		// Every main-thread task over 50 ms from here to the last answer, as the webview's frame sees it.
		await chat.evaluate(() => {
			window.__keelLongTasks = [];
			new PerformanceObserver((list: any) => {
				for (const entry of list.getEntries()) {
					// name: whose task it was (self = the webview's own frame, an ancestor = the workbench).
					window.__keelLongTasks.push({ ms: entry.duration, by: entry.name });
				}
			}).observe({ type: 'longtask' });
		});
		const profiler = await startCpuProfile(keel.page, chat);
		const started = Date.now();
		let loopEnded = 0;
		const watcher = setInterval(() => {
			if (!loopEnded && double.modelRequests.length > ROUNDS) {
				loopEnded = Date.now();
			}
		}, 5);
		await ask(chat, 'Go through every round.');
		await chat.locator(testId('stop')).waitFor();
		const last = chat.locator(`${testId('message-assistant')} >> text=LAST-MARK`);
		// The last answer, or the turn ending without it (a guard stopped it: say why).
		await last
			.or(chat.locator(testId('send')))
			.first()
			.waitFor({ timeout: 900_000 });
		const visible = Date.now();
		clearInterval(watcher);
		if ((await last.count()) === 0) {
			const notices = await chat.locator(`${testId('notice')}, ${testId('error-banner')}`).allTextContents();
			throw new Error(
				`the turn ended after ${double.modelRequests.length} requests without its last answer: ${notices.slice(-3).join(' | ')}`,
			);
		}
		// Long-task entries are delivered after the task: give the last ones a moment.
		await chat.waitForTimeout(500);
		const tasks: Array<{ ms: number; by: string }> = await chat.evaluate(() => window.__keelLongTasks);
		const longTasks = tasks.map(t => t.ms);
		const profile = await profiler.stop();
		const memory = await chat.evaluate(() => ({
			heap: (performance as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? NaN,
			nodes: document.getElementsByTagName('*').length,
		}));

		printTable(
			['figure', 'measured', 'budget'],
			[
				['rounds the loop ran', double.modelRequests.length - 1, ROUNDS],
				['turn duration (prompt → loop done, every read run), s', (loopEnded - started) / 1000, ''],
				['last answer visible after the loop ended, ms', visible - loopEnded, '≤ 1,000'],
				// performance.memory: the renderer's used heap as Chromium reports it to the page, garbage included.
				['webview renderer JS heap at the end, MB', memory.heap / 1024 / 1024, ''],
				['webview DOM nodes at the end', memory.nodes, '≤ 3,000'],
				['webview main-thread tasks over 50 ms during the turn', longTasks.length, '≤ 5'],
				['longest of them, ms', longTasks.length ? Math.max(...longTasks) : 0, ''],
				['their total, ms', longTasks.reduce((a, b) => a + b, 0), ''],
				['of them the webview frame’s own (self)', tasks.filter(t => t.by === 'self').length, ''],
			],
		);
		console.log('\nWhere the main thread spent its time during the turn (CPU profile, self time):');
		printTable(
			['script', 'ms'],
			profile.scripts.map(([name, ms]) => [name, ms]),
		);
		printTable(
			['function', 'ms'],
			profile.functions.map(([name, ms]) => [name, ms]),
		);
	} finally {
		await keel.dispose();
		await double.close();
	}
}
