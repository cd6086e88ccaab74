/**
 * The engine cancels with AbortSignals, VS Code with CancellationTokens: one bridge each way,
 * each disposed when its call is done so a long-lived signal or token keeps no listener.
 */
import * as vscode from 'vscode';
import { onAbort } from '../../core/util/abort';
import type { IDisposable } from '../../core/util/lifecycle';

/** A token cancelled when `signal` aborts, for the VS Code APIs that take one. */
export function tokenFromSignal(signal: AbortSignal | undefined): IDisposable & { token: vscode.CancellationToken } {
	const source = new vscode.CancellationTokenSource();
	const listener = onAbort(signal, () => source.cancel());
	return {
		token: source.token,
		dispose() {
			listener.dispose();
			source.dispose();
		},
	};
}

/** A signal aborted when `token` is cancelled (already aborted when it already is), for the engine. */
export function signalFromToken(token: vscode.CancellationToken): IDisposable & { signal: AbortSignal } {
	const controller = new AbortController();
	if (token.isCancellationRequested) {
		controller.abort();
	}
	const subscription = token.onCancellationRequested(() => controller.abort());
	return { signal: controller.signal, dispose: () => subscription.dispose() };
}
