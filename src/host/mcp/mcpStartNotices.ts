import * as vscode from 'vscode';
import type { ServerStatus } from './mcpToolSync';

/**
 * What a server's start and life say where the user is looking: a Start from "Keel: MCP
 * Servers" joined a start under way, waits for the card in the chat, found the server running
 * or ran it; a server could not start, or stopped unexpectedly.
 */
export const mcpStartNotices = {
	pending(name: string, status: ServerStatus | undefined, revealCards: () => void): void {
		if (status === 'needsConsent') {
			revealCards();
			void vscode.window.showInformationMessage(
				`Keel: "${name}" waits for your permission: answer Allow or Deny on its card in the Keel chat.`,
			);
		} else {
			void vscode.window.showInformationMessage(`Keel: the MCP server "${name}" is starting.`);
		}
	},
	alreadyRunning(name: string): void {
		void vscode.window.showInformationMessage(`Keel: the MCP server "${name}" is already running.`);
	},
	failed(name: string, error: string, showLogs: () => void): void {
		const message = `Keel: the MCP server "${name}" did not start: ${error}`;
		void vscode.window.showErrorMessage(message, 'Show Logs').then(c => c && showLogs());
	},
	crashed(name: string, error: string, willRetry: boolean, showLogs: () => void): void {
		const next = willRetry ? ' Reconnecting…' : ' Restart it from "Keel: MCP Servers".';
		const message = `Keel: the MCP server "${name}" stopped unexpectedly (${error}).${next}`;
		void vscode.window.showWarningMessage(message, 'Show Logs').then(c => c && showLogs());
	},
	running(name: string, tools: number): void {
		void vscode.window.showInformationMessage(`Keel: the MCP server "${name}" is running with ${tools} tools.`);
	},
};
