import type * as vscode from 'vscode';
import type { Logger } from '../../core/ports';

/** Logs to the "Keel" output channel. Never handed secrets: callers log ids and codes. */
export function createOutputLogger(channel: vscode.LogOutputChannel): Logger {
	return {
		info: message => channel.info(message),
		warn: message => channel.warn(message),
		error: (message, error) =>
			channel.error(`${message}${error ? `: ${(error as Error)?.stack ?? String(error)}` : ''}`),
	};
}
