import type * as vscode from 'vscode';
import { redactSecrets } from '../../core/gate/redact/redact';
import type { Logger } from '../../core/ports';

/** Longest message kept in the log: a server that answers with a megabyte of HTML gets its first part. */
const MAX_MESSAGE = 16 * 1024;

/**
 * Logs to the "Keel" output channel. Callers log ids and codes, but an error's message is a
 * server's words (an endpoint that echoes the key it was sent): every line is redacted like any
 * output, the secrets Keel holds included, and cut to a length a log can hold.
 */
export function createOutputLogger(channel: vscode.LogOutputChannel): Logger {
	const clean = (text: string) =>
		redactSecrets(text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}… (${text.length} characters)` : text)
			.text;
	return {
		info: message => channel.info(clean(message)),
		warn: message => channel.warn(clean(message)),
		error: (message, error) =>
			channel.error(clean(`${message}${error ? `: ${(error as Error)?.stack ?? String(error)}` : ''}`)),
	};
}
