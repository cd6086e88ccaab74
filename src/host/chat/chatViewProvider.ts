import * as vscode from 'vscode';
import { Disposable } from '../../core/util/lifecycle';
import { parseWebviewMessage, type WebviewToHost } from '../../shared/protocol';
import type { Logger } from '../../core/ports';
import { type WebviewChannel } from './webviewChannel';
import { renderWebviewHtml, webviewOptions } from './webviewHtml';
import type { SessionController } from '../session/sessionController';
import type { EverydayBridge } from './everydayBridge';

/**
 * The chat view. Treats the webview as untrusted: every inbound message is validated and
 * dropped when it does not parse; nothing thrown escapes the message handler.
 */
export class ChatViewProvider extends Disposable {
	private _view: vscode.WebviewView | undefined;
	private _viewDisposables: vscode.Disposable[] = [];

	constructor(
		private readonly _extensionUri: vscode.Uri,
		private readonly _controller: SessionController,
		private readonly _channel: WebviewChannel,
		private readonly _logger: Logger,
		/** Opens a card's diff in VS Code's diff editor (diffEditor.ts). */
		private readonly _openDiff?: (toolCallId: string, index: number) => void,
		/** "Show unfiltered": answers with a page of a card's stored raw output. */
		private readonly _readRawOutput?: (toolCallId: string, offset: number) => Promise<void>,
		/** Slash commands, mentions, modes and per-turn controls (everydayBridge.ts). */
		private readonly _everyday?: EverydayBridge,
		/** The answer on an MCP server's consent card (mcpConsentPrompts.ts). */
		private readonly _decideMcpConsent?: (id: string, allow: boolean) => void,
	) {
		super();
		this._register({ dispose: () => this._disposeView() });
	}

	resolve(view: vscode.WebviewView): void {
		this._disposeView();
		this._view = view;
		view.webview.options = webviewOptions(this._extensionUri);
		view.webview.html = renderWebviewHtml(view.webview, this._extensionUri);
		this._viewDisposables.push(
			view.webview.onDidReceiveMessage(raw => this._onMessage(raw)),
			view.onDidDispose(() => {
				this._channel.close();
				this._view = undefined;
			}),
		);
	}

	get visible(): boolean {
		return this._view?.visible ?? false;
	}

	private _onMessage(raw: unknown): void {
		const message = parseWebviewMessage(raw);
		if (!message) {
			this._logger.warn(`dropped an invalid message from the webview: ${safePreview(raw)}`);
			return;
		}
		try {
			this._handle(message);
		} catch (error) {
			this._logger.error('webview message handler failed', error);
		}
	}

	private _handle(message: WebviewToHost): void {
		if (this._everyday?.handles(message)) {
			this._everyday.handle(message);
			return;
		}
		switch (message.type) {
			case 'ready': {
				const webview = this._view?.webview;
				if (webview) {
					this._channel.open(
						m => void webview.postMessage(m),
						message.protocolVersion,
						() => ({ type: 'didSnapshot', state: this._controller.page() }),
					);
				}
				return;
			}
			case 'reloadWindow':
				// Only the refusal's button may ask: a webview cannot reload the window at will.
				if (this._channel.refused) {
					void vscode.commands.executeCommand('workbench.action.reloadWindow');
				}
				return;
			case 'sendPrompt':
				this._controller.sendFromUser(message.text);
				return;
			case 'decideToolCall':
				this._controller.decide(message.toolCallId, message.approved, message.reason, message.always);
				return;
			case 'openDiff':
				this._openDiff?.(message.toolCallId, message.index ?? 0);
				return;
			case 'cancelTurn':
				this._controller.stop();
				return;
			case 'decideContinue':
				this._controller.decideContinue(message.id, message.proceed);
				return;
			case 'newSession':
				this._controller.newChat();
				return;
			case 'loadOlder':
				this._controller.loadOlder(message.beforeId);
				return;
			case 'copyText':
				void vscode.env.clipboard.writeText(message.text);
				return;
			case 'insertText':
				void insertAtCursor(message.text);
				return;
			case 'readRawOutput':
				this._readRawOutput?.(message.toolCallId, message.offset).catch(error =>
					this._logger.warn(`could not read a raw output: ${(error as Error).message}`),
				);
				return;
			case 'decideMcpConsent':
				this._decideMcpConsent?.(message.id, message.allow);
				return;
			case 'submit':
				// Without the everyday features (tests of the view alone), a plain send.
				this._controller.sendFromUser(message.text);
				return;
		}
	}

	private _disposeView(): void {
		this._viewDisposables.forEach(d => d.dispose());
		this._viewDisposables = [];
	}
}

/** "Insert at cursor": replaces the selection of the editor the user was last in. */
async function insertAtCursor(text: string): Promise<void> {
	const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
	if (!editor) {
		void vscode.window.showInformationMessage(
			'Keel: open a file to insert the code into, then press Insert again.',
		);
		return;
	}
	await editor.edit(edit => editor.selections.forEach(selection => edit.replace(selection, text)));
}

function safePreview(raw: unknown): string {
	try {
		return JSON.stringify(raw).slice(0, 200);
	} catch {
		return String(raw).slice(0, 200);
	}
}
