// End-to-end harness: a real VS Code (code-server) with Keel installed from its VSIX,
// driven by real Chromium. One session per suite (starting one costs ~3 s), torn down by
// the suite's `after` hook even when a test or `before` failed.
//
//   describe('chat', function () {
//     this.timeout(120_000);
//     const keel = useKeel({ settings: { 'keel.model.baseUrl': double.url } });
//     it('...', async () => { const chat = await keel.openKeel(); await chat.fill(...) });
//   });
import { type Browser, type Frame, type Page } from 'playwright-core';
import { launchBrowser, openKeelView, openWorkbench, screenshot, webviewFrame } from '../support/browser';
import { type CodeServer, type CodeServerOptions, keelVsixPath, startCodeServer } from '../support/codeServer';
import { startModelDouble, type ModelDouble, type ModelDoubleOptions } from '../support/modelDouble';

/** Keel's chat input; present once the webview has rendered. */
export const PROMPT_INPUT = '[data-testid="prompt-input"]';

export interface KeelE2EOptions extends CodeServerOptions {
	/** Default: Keel's VSIX ($KEEL_VSIX or dist/keel.vsix). */
	vsix?: string[];
}

export interface KeelE2E {
	server: CodeServer;
	page: Page;
	/** Shows Keel's view and returns its webview frame (waits for PROMPT_INPUT). */
	openKeel(): Promise<Frame>;
	/** The webview frame holding `selector`; re-resolved each call since VS Code may recreate it. */
	webview(selector?: string): Promise<Frame>;
	/** Saves test-results/<name>.png and returns its path. */
	screenshot(name: string): Promise<string>;
	dispose(): Promise<void>;
}

export async function startKeel(opts: KeelE2EOptions = {}): Promise<KeelE2E> {
	const vsix = opts.vsix ?? [requireKeelVsix()];
	const started = Date.now();
	const server = await startCodeServer({ ...opts, vsix });
	let browser: Browser | undefined;
	try {
		browser = await launchBrowser();
		const page = await openWorkbench(browser, server.url);
		timing(
			`started in ${Date.now() - started} ms (VSIX ${server.installMs} ms, server ${server.startupMs} ms, browser and workbench ${Date.now() - started - server.installMs - server.startupMs} ms)`,
		);
		const b = browser;
		const webview = (selector = PROMPT_INPUT) => webviewFrame(page, selector);
		return {
			server,
			page,
			webview,
			openKeel: async () => {
				await openKeelView(page);
				return webview();
			},
			screenshot: name => screenshot(page, name),
			dispose: async () => {
				const stopping = Date.now();
				await b.close().catch(() => undefined);
				await server.dispose();
				timing(`stopped in ${Date.now() - stopping} ms`);
			},
		};
	} catch (err) {
		await browser?.close().catch(() => undefined);
		await server.dispose();
		throw err;
	}
}

/**
 * Mocha helper: starts a session in `before`, screenshots failed tests, disposes in `after`.
 * Returns a handle whose members are valid inside tests and hooks (not at describe time).
 * Pass a function when options are only known in `before` (e.g. a model double's URL).
 */
export function useKeel(opts: KeelE2EOptions | (() => KeelE2EOptions) = {}): KeelE2E {
	let session: KeelE2E | undefined;
	const current = (): KeelE2E => {
		if (!session) throw new Error('Keel session not started: use it inside a test or hook');
		return session;
	};
	before(async function () {
		this.timeout(Math.max(this.timeout(), 120_000));
		session = await startKeel(typeof opts === 'function' ? opts() : opts);
	});
	afterEach(async function () {
		const t = this.currentTest;
		if (session && t?.state === 'failed')
			await session.screenshot(`failed-${t.fullTitle()}`).catch(() => undefined);
	});
	after(async () => {
		await session?.dispose();
		session = undefined;
	});
	return {
		get server() {
			return current().server;
		},
		get page() {
			return current().page;
		},
		openKeel: () => current().openKeel(),
		webview: (selector?: string) => current().webview(selector),
		screenshot: (name: string) => current().screenshot(name),
		dispose: async () => {
			await session?.dispose();
			session = undefined;
		},
	};
}

/** With KEEL_E2E_TIMING=1 each session says where its start and stop time went. */
function timing(line: string): void {
	if (process.env.KEEL_E2E_TIMING === '1') console.log(`      [session] ${line}`);
}

function requireKeelVsix(): string {
	const vsix = keelVsixPath();
	if (!vsix) throw new Error('dist/keel.vsix not found: run `npm run build && npm run package` (or set KEEL_VSIX)');
	return vsix;
}

/** A `[data-testid="…"]` selector: the stable hooks the chat exposes to tests. */
export const testId = (id: string) => `[data-testid="${id}"]`;

/** Types a prompt into the chat and sends it, as a user would. */
export async function ask(chat: Frame, prompt: string): Promise<void> {
	await chat.locator(testId('prompt-input')).fill(prompt);
	await chat.locator(testId('send')).click();
}

/**
 * A model double for the suite, started before (and so usable in) the `useKeel` options that
 * follow it, closed after. Call it before `useKeel` so the hooks run in that order.
 */
export function useModelDouble(options?: ModelDoubleOptions): () => ModelDouble {
	let double: ModelDouble | undefined;
	before(async () => {
		double = await startModelDouble(options);
	});
	after(async () => {
		await double?.close();
		double = undefined;
	});
	return () => {
		if (!double) throw new Error('model double not started: use it inside a test or hook');
		return double;
	};
}

/** Shows Keel and starts a new chat when the last test left one behind; returns the webview. */
export async function freshChat(keel: KeelE2E): Promise<Frame> {
	const chat = await keel.openKeel();
	// The list is virtualised: a long chat's first message can be out of the DOM, so ask the empty state.
	if ((await chat.locator(testId('empty-state')).count()) === 0) {
		await chat.locator(testId('new-chat')).click();
		await chat.locator(testId('empty-state')).waitFor();
	}
	return chat;
}

/** A new chat with an empty composer, whatever the test before left behind (messages, a refilled prompt). */
export async function cleanChat(keel: KeelE2E): Promise<Frame> {
	const chat = await freshChat(keel);
	const input = chat.locator(testId('prompt-input'));
	if (await input.inputValue()) {
		await input.fill('');
	}
	return chat;
}

/** Rethrows a failed wait with what the chat showed, so a red run says what the user would have seen. */
export async function explainFailure(chat: Frame, error: unknown): Promise<never> {
	throw new Error(
		`${(error as Error).message}\nchat shows: ${(await chat.locator('body').innerText()).slice(0, 1500)}`,
	);
}
