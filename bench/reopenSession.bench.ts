/**
 * Reopening a long session in a fresh window, end to end in real VS Code (code-server) driven by
 * Chromium: the window that showed a 1,700-round session closes, a fresh window on the same
 * workspace opens, and Keel is clicked: once the moment its icon shows (the window still
 * starting its extension host), and once in a window that has settled. The figure is the time
 * from that click until the session's last answer is on screen, split where it goes: VS Code
 * (the extension host activating Keel, the webview's frame), the webview booting, and Keel's
 * load (the first page built, posted and drawn), with Keel's host loading beside the webview's
 * frame and boot. The host's moments come
 * from Keel's log, the webview's from its performance marks. Each window has its own browser
 * and its own extension host, as a VS Code window does.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser, Frame, Page } from 'playwright-core';
import { startKeel, testId } from '../test/e2e/harness';
import { launchBrowser, openKeelView, openWorkbench, webviewFrame } from '../test/support/browser';
import type { CanonicalMessage } from '../src/core/llm/canonical';
import { SessionStore } from '../src/core/store/sessionStore';
import { percentile, printTable } from './table';

export const title = 'Reopen a 1,700-round session in a fresh window (real VS Code)';

const ROUNDS = 1_700;
const WINDOWS = Number(process.env.KEEL_BENCH_WINDOWS ?? 4);
const SETTLE_MS = 8_000;
const BUDGET_MS = 600;
const LAST = 'All rounds done. LAST-MARK';
const KEEL_ITEM = '.part.activitybar li.action-item:has(> a.action-label[aria-label^="Keel"])';

/** One reopen, in ms from the click. */
interface Reopen {
	activated: number;
	/** Keel's host has loaded and taken the view. */
	hostLoaded: number;
	/** Of that, loading the host bundle, and whether V8's compiled code from an earlier start was used. */
	bundleLoad: number;
	codeCache: string;
	/** The webview's HTML asked for Keel's script. */
	scriptRequested: number;
	ready: number;
	/** Keel's host took the chat's `ready`, and posted its first page. */
	asked: number;
	posted: number;
	/** The webview took the first page. */
	snapshot: number;
	last: number;
}

// In the order they happen from the click; the host's load runs beside the webview's frame and
// boot (Keel sets the chat's HTML at activation), so it is its own row, not a part of the sum.
const PARTS: Array<[string, (r: Reopen) => number]> = [
	['VS Code: the extension host activates Keel', r => r.activated],
	["VS Code: the webview's frame takes the chat's HTML", r => r.scriptRequested - r.activated],
	["the webview boots (Keel's script loads and runs, until it asks for the chat)", r => r.ready - r.scriptRequested],
	["Keel's load: the first page built, posted and drawn", r => r.last - r.ready],
	["  of which the chat's ask waits for Keel's host", r => r.asked - r.ready],
	["  of which Keel's host builds and posts the first page", r => r.posted - r.asked],
	['  of which the page travels to the webview', r => r.snapshot - r.posted],
	['  of which the webview draws it', r => r.last - r.snapshot],
	["beside these: Keel's host loads, from activation", r => r.hostLoaded - r.activated],
	['  of which its bundle loads (V8 compiles it, or takes the code cached at an earlier start)', r => r.bundleLoad],
];

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
		const runs: Record<'at once' | 'settled', Reopen[]> = { 'at once': [], settled: [] };
		for (let window = 0; window < WINDOWS * 2; window++) {
			const settle = window % 2 === 1;
			await open.close({ runBeforeUnload: true });
			const browser = await launchBrowser();
			browsers.push(browser);
			open = await openWorkbench(browser, keel.server.url);
			runs[settle ? 'settled' : 'at once'].push(
				await clickKeelUntilLastAnswer(open, keel.server.userDataDir, settle ? SETTLE_MS : 0),
			);
		}
		const rows: Array<Array<string | number>> = [];
		for (const [when, reopens] of Object.entries(runs)) {
			const total = reopens.map(r => r.last);
			rows.push([
				`clicked ${when === 'settled' ? `${SETTLE_MS / 1000} s after the icon showed` : 'the moment the icon showed'}: click → last answer, ms`,
				percentile(total, 0.5),
				Math.max(...total),
				total.length,
				`≤ ${BUDGET_MS}`,
			]);
			for (const [label, part] of PARTS) {
				const values = reopens.map(part);
				rows.push([`  ${label}`, percentile(values, 0.5), Math.max(...values), values.length, '']);
			}
		}
		printTable(['figure', 'p50', 'max', 'n', 'budget'], rows);
		const caches = Object.values(runs).flatMap(reopens => reopens.map(r => r.codeCache));
		console.log(
			`\nthe host bundle's compiled code from an earlier start: ${['used', 'absent', 'rejected', 'off']
				.map(state => `${state} in ${caches.filter(c => c === state).length}`)
				.join(', ')} of ${caches.length} windows`,
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

/** From the click on Keel's activity-bar item until the chat's last answer shows, and where the time went. */
async function clickKeelUntilLastAnswer(page: Page, userDataDir: string, settleMs: number): Promise<Reopen> {
	const item = page.locator(KEEL_ITEM).first();
	await item.waitFor({ state: 'visible', timeout: 60_000 });
	await page.waitForTimeout(settleMs);
	const logsBefore = keelLogs(userDataDir);
	const started = Date.now();
	if ((await item.getAttribute('aria-selected')) !== 'true') {
		await item.click();
	}
	const chat = await webviewFrame(page, testId('prompt-input'), 60_000);
	await chat.locator(`${testId('message-assistant')} >> text=${LAST}`).waitFor({ timeout: 60_000 });
	const last = Date.now() - started;
	const webview = await webviewMoments(chat);
	const opened = await viewOpenedLine(userDataDir, logsBefore);
	const firstPage = await firstPageLine(userDataDir, logsBefore);
	return {
		activated: opened.at - opened.afterActivationMs - started,
		hostLoaded: opened.at - started,
		bundleLoad: opened.bundleLoadMs,
		codeCache: opened.codeCache,
		scriptRequested: webview.scriptRequested - started,
		ready: webview.ready - started,
		asked: firstPage.at - firstPage.afterAskMs - started,
		posted: firstPage.at - started,
		snapshot: webview.snapshot - started,
		last,
	};
}

/** When the webview's HTML asked for Keel's script, and its "ready" and first-snapshot marks, as wall-clock times. */
async function webviewMoments(chat: Frame): Promise<{ scriptRequested: number; ready: number; snapshot: number }> {
	// Not the document's time origin: VS Code may create the frame before the HTML arrives.
	return chat.evaluate(() => {
		const script = performance
			.getEntriesByType('resource')
			.find(entry => entry.name.split('?')[0].endsWith('/webview.js'));
		const ready = performance.getEntriesByName('keel-ready')[0];
		const snapshot = performance.getEntriesByName('keel-snapshot')[0];
		return {
			scriptRequested: performance.timeOrigin + (script?.startTime ?? Number.NaN),
			ready: performance.timeOrigin + (ready?.startTime ?? Number.NaN),
			snapshot: performance.timeOrigin + (snapshot?.startTime ?? Number.NaN),
		};
	});
}

/** Keel's log files (one per extension host) under code-server's log folder. */
function keelLogs(userDataDir: string): string[] {
	const logs = path.join(userDataDir, 'logs');
	if (!fs.existsSync(logs)) return [];
	return fs
		.readdirSync(logs, { recursive: true, encoding: 'utf8' })
		.filter(file => file.endsWith(path.join('keel.keel', 'Keel.log')))
		.map(file => path.join(logs, file));
}

/**
 * The new extension host's "chat view opened at T, N ms after Keel activated; the host bundle
 * loaded in B ms (compiled code from an earlier start: C)" line: T, N, B and C.
 */
async function viewOpenedLine(
	userDataDir: string,
	before: string[],
): Promise<{ at: number; afterActivationMs: number; bundleLoadMs: number; codeCache: string }> {
	const [at, afterActivationMs, bundleLoadMs, codeCache] = await logLine(
		userDataDir,
		before,
		/chat view opened at ([^\s,]+), (\d+) ms after Keel activated; the host bundle loaded in (\d+) ms \(compiled code from an earlier start: (\w+)\)/,
	);
	return {
		at: new Date(at).getTime(),
		afterActivationMs: Number(afterActivationMs),
		bundleLoadMs: Number(bundleLoadMs),
		codeCache,
	};
}

/** Its "chat view ready: … posted at T, N ms after the chat asked" line: T and N. */
async function firstPageLine(userDataDir: string, before: string[]): Promise<{ at: number; afterAskMs: number }> {
	const [at, afterAskMs] = await logLine(userDataDir, before, /posted at ([^\s,]+), (\d+) ms after the chat asked/);
	return { at: new Date(at).getTime(), afterAskMs: Number(afterAskMs) };
}

/** The groups of the first line matching `pattern` in a Keel log of the new window. */
async function logLine(userDataDir: string, before: string[], pattern: RegExp): Promise<string[]> {
	for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
		for (const file of keelLogs(userDataDir).filter(file => !before.includes(file))) {
			const line = pattern.exec(fs.readFileSync(file, 'utf8'));
			if (line) {
				return line.slice(1);
			}
		}
		await new Promise(resolve => setTimeout(resolve, 100));
	}
	throw new Error(`Keel logged no line matching ${pattern} in the new window`);
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
