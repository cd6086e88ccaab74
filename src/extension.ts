import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { KeelHost } from './host/keelHost';
import { afterMessagesSent } from './host/common/afterSent';
import { HOST_COMMANDS } from './host/common/commandIds';
import { requireWithCodeCache, type CodeCacheState } from './host/platform/codeCache';
import { CHAT_WEBVIEW, renderWebviewHtml, webviewOptions } from './host/platform/webviewHtml';
import { KEEL_API_METHODS, type KeelApi } from './host/common/keelApi';

export type { KeelApi } from './host/common/keelApi';

// Taken when this module is evaluated, so the activation figure includes loading the shim.
const moduleLoadedAt = performance.now();

/** Timings and what was loaded, for `npm run bench` and for the test that checks the host loads lazily. */
export interface KeelDiagnostics {
	activationMs: number;
	/** Undefined until something needed the host bundle (the view opened, a command ran). */
	hostLoadMs?: number;
	/** Of hostLoadMs, building the composition root (the rest is loading the bundle). */
	hostBuildMs?: number;
	/** Whether loading the host bundle found V8's compiled code from an earlier start. */
	hostCodeCache?: CodeCacheState;
	/** The extension's own files loaded into the extension host so far (bundles, vendor SDKs), with their size. */
	loaded: Array<{ file: string; bytes: number }>;
	/** The host features built so far (keelHost.ts builds the others on first use). */
	built: string[];
}

/**
 * Activation shim. Only registers the view and the commands; the host bundle (engine, SDKs,
 * zod) is required on first use so activation stays in the low milliseconds.
 */
export function activate(context: vscode.ExtensionContext): KeelApi & { diagnostics(): KeelDiagnostics } {
	let activationMs = 0;
	// Wall-clock time, for the log line that says how long the chat view took to open after this.
	const activatedAt = Date.now();
	let host: { instance: KeelHost; loadMs: number; buildMs: number; codeCache: CodeCacheState } | undefined;
	const getHost = (): KeelHost => {
		if (!host) {
			const started = performance.now();
			// Loaded by path at run time, so esbuild keeps the host out of this bundle.
			const loaded = requireWithCodeCache(path.join(__dirname, 'host.js'), codeCacheDir(context));
			const module = loaded.exports as typeof import('./host/keelHost');
			const required = performance.now();
			const instance = new module.KeelHost(context, activatedAt, {
				loadMs: required - started,
				codeCache: loaded.cache,
			});
			context.subscriptions.push(instance);
			const done = performance.now();
			host = { instance, loadMs: done - started, buildMs: done - required, codeCache: loaded.cache };
			// Written once Keel has run a while, so the cache holds the code that opening a chat
			// compiled too, and off the way of the chat's first page; or when the window closes first.
			const saving = setTimeout(loaded.save, CODE_CACHE_SAVED_AFTER_MS);
			context.subscriptions.push({
				dispose: () => {
					clearTimeout(saving);
					loaded.save();
				},
			});
		}
		return host.instance;
	};

	context.subscriptions.push(
		vscode.window.registerWebviewViewProvider('keel.chat', {
			resolveWebviewView: view => openChatView(view, context.extensionUri, getHost),
		}),
		// The view first (it loads the host when it opens), then the caret into its composer.
		vscode.commands.registerCommand('keel.focusChat', async () => {
			await vscode.commands.executeCommand('keel.chat.focus');
			getHost().focusComposer();
		}),
		...HOST_COMMANDS.map(id =>
			vscode.commands.registerCommand(id, (...args: unknown[]) => getHost().runCommand(id, args)),
		),
	);
	// The whole API, forwarded by name: the host (and with it the engine) loads on the first call.
	const api = Object.fromEntries(
		KEEL_API_METHODS.map(name => [
			name,
			(...args: unknown[]) => (getHost().api[name] as (...a: unknown[]) => unknown)(...args),
		]),
	) as unknown as KeelApi;

	// Keel's read/search tools for VS Code's agent and other extensions (package.json languageModelTools).
	// Registering is cheap; the host loads on the first call.
	const lent = (context.extension.packageJSON.contributes?.languageModelTools ?? []) as Array<{ name: string }>;
	if (vscode.lm?.registerTool) {
		for (const { name } of lent) {
			context.subscriptions.push(
				vscode.lm.registerTool<unknown>(name, {
					prepareInvocation: options => getHost().lentTools.prepare(name, options.input),
					invoke: (options, token) => getHost().lentTools.invoke(name, options.input, token),
				}),
			);
		}
	}

	activationMs = performance.now() - moduleLoadedAt;
	const diagnostics = (): KeelDiagnostics => ({
		activationMs,
		hostLoadMs: host?.loadMs,
		hostBuildMs: host?.buildMs,
		hostCodeCache: host?.codeCache,
		loaded: loadedFiles(),
		built: [...(host?.instance.builtFeatures ?? [])],
	});
	return { ...api, diagnostics };
}

const CODE_CACHE_SAVED_AFTER_MS = 10_000;

/** V8's code cache for the host bundle lives with Keel's per-user storage, which only the user writes. */
function codeCacheDir(context: vscode.ExtensionContext): string | undefined {
	const storage = context.globalStorageUri;
	return storage.scheme === 'file' ? path.join(storage.fsPath, 'code-cache') : undefined;
}

/** How many messages the chat may send before the host has loaded (it sends one, `ready`). */
const EARLY_MESSAGES_KEPT = 64;

/**
 * The chat's HTML is set from this small bundle, so the renderer loads and boots the chat while
 * the host bundle loads here; the host takes the view once VS Code has sent the HTML on, with
 * what the chat said meanwhile (its `ready`).
 */
function openChatView(view: vscode.WebviewView, extensionUri: vscode.Uri, getHost: () => KeelHost): void {
	view.webview.options = webviewOptions(extensionUri);
	view.webview.html = renderWebviewHtml(view.webview, extensionUri, CHAT_WEBVIEW);
	// The webview is untrusted: what it says before the host takes over is kept up to a bound (the
	// chat says `ready` and perhaps a click or two in that time), and the rest is dropped.
	const early: unknown[] = [];
	const listening = view.webview.onDidReceiveMessage(message => {
		if (early.length < EARLY_MESSAGES_KEPT) early.push(message);
	});
	let disposed = false;
	const disposing = view.onDidDispose(() => (disposed = true));
	afterMessagesSent(() => {
		listening.dispose();
		disposing.dispose();
		if (disposed) {
			return;
		}
		try {
			getHost().resolveWebviewView(view, early);
		} catch (error) {
			void vscode.window.showErrorMessage(`Keel could not open its chat: ${(error as Error).message}`);
		}
	});
}

/** Files under this extension's dist/ that Node has loaded (the host requires its vendor SDKs on first use). */
function loadedFiles(): Array<{ file: string; bytes: number }> {
	const prefix = __dirname + path.sep;
	return Object.keys(require.cache)
		.filter(file => file.startsWith(prefix))
		.sort()
		.map(file => ({
			file: path.relative(__dirname, file).split(path.sep).join('/'),
			bytes: fs.statSync(file).size,
		}));
}

export function deactivate(): void {
	// Everything is owned by context.subscriptions and disposed by VS Code.
}
