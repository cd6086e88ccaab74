/**
 * The chat end to end in real VS Code (code-server) driven by Chromium: one auto-approved turn
 * of 1,500 rounds (short text with a code block and a file read each) against the model
 * double. How long after the loop's last event the last answer is on screen, and what the
 * chat's webview holds at the end. Every round reads with arguments of its own, so each read
 * runs: none is answered from the session's result cache.
 */
import { text, textThenTools, startModelDouble } from '../test/support/modelDouble';
import { ask, startKeel, testId } from '../test/e2e/harness';
import { printTable } from './table';

// In-page code runs in the webview; the Node program has no DOM types.
declare const document: any, performance: any;

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
			],
		);
	} finally {
		await keel.dispose();
		await double.close();
	}
}
