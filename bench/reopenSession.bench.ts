/**
 * Reopening a long session in a fresh window, end to end in real VS Code (code-server) driven by
 * Chromium: the window that showed a 1,700-round session closes, a fresh window on the same
 * workspace opens at once (the closed window's extension host may still be shutting down), and
 * Keel is clicked. The figure is the time from that click until the session's last answer is on
 * screen, and the part of it before Keel's chat showed at all. Each window has its own browser
 * and its own extension host, as a VS Code window does.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { startKeel, testId } from '../test/e2e/harness';
import { launchBrowser, openKeelView, openWorkbench, webviewFrame } from '../test/support/browser';
import type { CanonicalMessage } from '../src/core/llm/canonical';
import { SessionStore } from '../src/core/store/sessionStore';
import { percentile, printTable } from './table';

export const title = 'Reopen a 1,700-round session in a fresh window (real VS Code)';

const ROUNDS = 1_700;
const WINDOWS = Number(process.env.KEEL_BENCH_WINDOWS ?? 6);
const BUDGET_MS = 1_000;
const LAST = 'All rounds done. LAST-MARK';
const KEEL_ITEM = '.part.activitybar li.action-item:has(> a.action-label[aria-label^="Keel"])';

export async function run(): Promise<void> {
	const session = writeSession();
	const keel = await startKeel();
	const browsers: Browser[] = [];
	try {
		// The session is the workspace's before Keel first opens it.
		const storage = await workspaceStorage(keel.server.userDataDir);
		fs.mkdirSync(path.join(storage, 'keel.keel'), { recursive: true });
		fs.copyFileSync(session.file, path.join(storage, 'keel.keel', 'sessions.db'));
		await openKeelView(keel.page);
		const first = await webviewFrame(keel.page, testId('prompt-input'), 60_000);
		await first.locator(`${testId('message-assistant')} >> text=${LAST}`).waitFor({ timeout: 120_000 });

		let open: Page = keel.page;
		const shown: number[] = [];
		const last: number[] = [];
		for (let window = 0; window < WINDOWS; window++) {
			await open.close({ runBeforeUnload: true });
			const browser = await launchBrowser();
			browsers.push(browser);
			open = await openWorkbench(browser, keel.server.url);
			const times = await clickKeelUntilLastAnswer(open);
			shown.push(times.shown);
			last.push(times.last);
		}
		const after = last.map((value, i) => value - shown[i]);
		printTable(
			['figure', 'p50', 'max', 'n', 'budget'],
			[
				[
					'reopen a 1,700-round session in a fresh window: click → last answer, ms',
					percentile(last, 0.5),
					Math.max(...last),
					last.length,
					`≤ ${BUDGET_MS.toLocaleString('en')}`,
				],
				[
					'  of which click → chat shown (VS Code, the webview booting), ms',
					percentile(shown, 0.5),
					Math.max(...shown),
					shown.length,
					'',
				],
				[
					'  of which chat shown → last answer, ms',
					percentile(after, 0.5),
					Math.max(...after),
					after.length,
					'',
				],
			],
		);
		console.log(
			`\nsession: ${session.events} stored events, database ${(fs.statSync(session.file).size / 1024 / 1024).toFixed(1)} MB; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
		);
	} finally {
		await Promise.all(browsers.map(browser => browser.close().catch(() => undefined)));
		await keel.dispose();
		fs.rmSync(path.dirname(session.file), { recursive: true, force: true });
	}
}

/** From the click on Keel's activity-bar item until the chat shows, and until its last answer does. */
async function clickKeelUntilLastAnswer(page: Page): Promise<{ shown: number; last: number }> {
	const item = page.locator(KEEL_ITEM).first();
	await item.waitFor({ state: 'visible', timeout: 60_000 });
	const started = Date.now();
	if ((await item.getAttribute('aria-selected')) !== 'true') {
		await item.click();
	}
	const chat = await webviewFrame(page, testId('prompt-input'), 60_000);
	const shown = Date.now() - started;
	await chat.locator(`${testId('message-assistant')} >> text=${LAST}`).waitFor({ timeout: 60_000 });
	return { shown, last: Date.now() - started };
}

/** The workspace's storage folder, once VS Code has made it for the first window. */
async function workspaceStorage(userDataDir: string): Promise<string> {
	const root = path.join(userDataDir, 'User', 'workspaceStorage');
	for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
		const found = fs.existsSync(root)
			? fs.readdirSync(root).find(entry => fs.existsSync(path.join(root, entry, 'meta.json')))
			: undefined;
		if (found) {
			return path.join(root, found);
		}
		await new Promise(resolve => setTimeout(resolve, 100));
	}
	throw new Error(`VS Code made no workspace storage folder under ${root}`);
}

/**
 * A 1,700-round session as the loop records it (an answer with a code block, a file read, its
 * output; one transaction per message), ending with the last answer.
 */
function writeSession(): { file: string; events: number } {
	const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-reopen-bench-')), 'sessions.db');
	const store = SessionStore.open(file);
	const output = Array.from({ length: 40 }, (_, i) => `${String(i + 1).padStart(4)}  line ${i} of README.md`).join(
		'\n',
	);
	const append = (message: CanonicalMessage) =>
		store.append('long', message, { turnId: 't1', provider: 'openai', model: 'glm-4.7-flash' });
	append({ kind: 'user', content: 'Go through every round.' });
	for (let round = 1; round <= ROUNDS; round++) {
		const id = `call_${round}`;
		const rawArguments = JSON.stringify({ path: 'README.md', offset: 1, limit: (round % 4) + 1 });
		append({ kind: 'assistant', content: `Round ${round}:\n\n\`\`\`ts\nrun(${round});\n\`\`\`` });
		append({
			kind: 'tool_call',
			content: `read_file(${rawArguments})`,
			data: { id, name: 'read_file', arguments: JSON.parse(rawArguments), rawArguments },
		});
		append({ kind: 'tool_result', content: output, data: { toolCallId: id, name: 'read_file', output, ok: true } });
	}
	append({ kind: 'assistant', content: LAST });
	const events = store.events('long').length;
	store.close();
	return { file, events };
}
