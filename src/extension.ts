import * as path from 'path';
import * as vscode from 'vscode';
import type { KeelHost } from './host/keelHost';
import { EVERYDAY_COMMANDS } from './host/everydayApi';
import { KEEL_API_METHODS, type KeelApi } from './host/keelApi';

export type { KeelApi } from './host/keelApi';

// Taken when this module is evaluated, so the activation figure includes loading the shim.
const moduleLoadedAt = performance.now();

/** Timings for `npm run bench` and for tests that check the engine really loads lazily. */
export interface KeelDiagnostics {
	activationMs: number;
	/** Undefined until something needed the host bundle (the view opened, a command ran). */
	hostLoadMs?: number;
}

/**
 * Activation shim. Only registers the view and the commands; the host bundle (engine, SDKs,
 * zod) is required on first use so activation stays in the low milliseconds.
 */
export function activate(context: vscode.ExtensionContext): KeelApi & { diagnostics(): KeelDiagnostics } {
	const diagnostics: KeelDiagnostics = { activationMs: 0 };
	let host: KeelHost | undefined;
	const getHost = (): KeelHost => {
		if (!host) {
			const started = performance.now();
			// A computed path keeps esbuild from inlining the host into this bundle.
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const module = require(path.join(__dirname, 'host.js')) as typeof import('./host/keelHost');
			host = new module.KeelHost(context);
			context.subscriptions.push(host);
			diagnostics.hostLoadMs = performance.now() - started;
		}
		return host;
	};

	context.subscriptions.push(
		vscode.window.registerWebviewViewProvider('keel.chat', {
			resolveWebviewView: view => getHost().resolveWebviewView(view),
		}),
		vscode.commands.registerCommand('keel.newChat', () => getHost().newChat()),
		vscode.commands.registerCommand('keel.stop', () => getHost().stop()),
		vscode.commands.registerCommand('keel.focusChat', () => vscode.commands.executeCommand('keel.chat.focus')),
		vscode.commands.registerCommand('keel.askAboutSelection', (question?: unknown) =>
			getHost().askAboutSelection(typeof question === 'string' ? question : undefined),
		),
		vscode.commands.registerCommand('keel.setApiKey', () => getHost().setApiKey()),
		vscode.commands.registerCommand('keel.showHistory', (query?: unknown) =>
			getHost().showHistory(typeof query === 'string' ? query : undefined),
		),
		vscode.commands.registerCommand('keel.selectModel', () => getHost().selectModel()),
		vscode.commands.registerCommand('keel.probeModel', () => getHost().probeModel()),
		vscode.commands.registerCommand('keel.unblockTools', () => getHost().unblockTools()),
		vscode.commands.registerCommand('keel.mcpServers', () => getHost().showMcpServers()),
		...EVERYDAY_COMMANDS.map(id =>
			vscode.commands.registerCommand(id, (...args: unknown[]) => getHost().everydayCommand(id, args)),
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
					prepareInvocation: options => getHost().prepareLentTool(name, options.input),
					invoke: (options, token) => getHost().invokeLentTool(name, options.input, token),
				}),
			);
		}
	}

	diagnostics.activationMs = performance.now() - moduleLoadedAt;
	return { ...api, diagnostics: () => ({ ...diagnostics }) };
}

export function deactivate(): void {
	// Everything is owned by context.subscriptions and disposed by VS Code.
}
