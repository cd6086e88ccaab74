import * as vscode from 'vscode';
import { Disposable } from '../../core/util/lifecycle';
import { parseWebviewMessage, type WebviewToHost } from '../../shared/protocol';
import type { Logger } from '../../core/ports';
import { type WebviewChannel } from '../view/webviewChannel';
import type { Event } from '../../core/util/emitter';
import type { OutputStore } from '../../core/tools/outputStore';
import type { ActiveConversation } from '../common/conversation';
import { runChatAction } from './chatActionRunner';
import type { DiffEditor } from './diffEditor';
import { TurnControls, type TurnFiles, type TurnRewind } from './turnControls';

/** How long a conversation waits for its chat to say it drew the first page before it starts all the same. */
const START_UNDRAWN_MS = 2_000;

/** The composer's messages (composer/composerChat.ts): each is answered in the chat, never thrown. */
export interface ComposerMessages {
	submit(text: string, images?: Array<{ name: string; data: string }>): Promise<void>;
	complete(requestId: number, kind: 'slash' | 'mention', query: string): Promise<void>;
	measure(value: string): Promise<void>;
	drop(uris: readonly string[]): Promise<void>;
}

/**
 * What the chat shows and acts on; each message is answered by the feature it belongs to, which
 * the composition root hands over as the part the chat uses.
 */
export interface ChatViewDeps {
	controller: Pick<
		ActiveConversation,
		| 'sendFromUser'
		| 'decide'
		| 'decideContinue'
		| 'stop'
		| 'newChat'
		| 'loadOlder'
		| 'sendRawOutput'
		| 'page'
		| 'started'
		| 'prepare'
		| 'snapshot'
		| 'onDidEvent'
		| 'showNotice'
	>;
	channel: WebviewChannel;
	logger: Logger;
	composer: ComposerMessages;
	/** Each turn's changed files, diff and restore (checkpoints/turnChanges.ts), and rewinding the conversation. */
	changes: TurnFiles;
	rewind: TurnRewind;
	checkpointsChanged: Event<void>;
	/** The chat's mode picker (projectContext/modeControl.ts). */
	modes: { set(name: string): void };
	/** The diffs of write cards, for "Open diff". */
	diffs: DiffEditor;
	/** Full tool outputs, for "Show unfiltered". */
	outputs: OutputStore;
	/** The MCP servers' consent cards (built with the servers). */
	mcpConsents(): { decide(id: string, allow: boolean): void };
	/** "Retry" on a failed turn. */
	retry: { retry(): void };
}

/**
 * The chat view. Treats the webview as untrusted: every inbound message is validated and
 * dropped when it does not parse; nothing thrown escapes the message handler.
 */
export class ChatViewProvider extends Disposable {
	private _view: vscode.WebviewView | undefined;
	private _viewDisposables: vscode.Disposable[] = [];
	private readonly _turns: TurnControls;
	private _focusPending = false;
	/** Starts the conversation whose first page the chat was sent from its newest part: when the chat has drawn it. */
	private _startWhenDrawn: (() => void) | undefined;
	private _cancelStart: () => void = () => undefined;

	constructor(private readonly _deps: ChatViewDeps) {
		super();
		const { controller, channel, logger } = _deps;
		this._turns = this._register(
			new TurnControls(_deps.changes, _deps.rewind, controller, channel, logger, _deps.checkpointsChanged),
		);
		this._register({ dispose: () => this._disposeView() });
		this._register({ dispose: () => this._cancelStart() });
		// A focus asked for before the webview listened (the view was just opened) follows its snapshot.
		this._register(channel.onDidReset(() => this._focusPending && this.focusComposer()));
	}

	/** Keel: Focus Chat: the caret goes to the composer, now or once the webview is listening. */
	focusComposer(): void {
		const channel = this._deps.channel;
		this._focusPending = !channel.isOpen;
		if (channel.isOpen) {
			channel.push({ type: 'didFocusComposer' });
			channel.flush();
		}
	}

	/**
	 * Takes the chat view, whose HTML the activation shim set (the renderer booted the chat while
	 * the host loaded); what the chat sent meanwhile is `early`, handled now.
	 */
	resolve(view: vscode.WebviewView, early: readonly unknown[] = []): void {
		this._disposeView();
		this._view = view;
		this._viewDisposables.push(
			view.webview.onDidReceiveMessage(raw => this._onMessage(raw)),
			view.onDidDispose(() => {
				this._deps.channel.close();
				this._view = undefined;
			}),
		);
		early.forEach(raw => this._onMessage(raw));
	}

	get visible(): boolean {
		return this._view?.visible ?? false;
	}

	private _onMessage(raw: unknown): void {
		const message = parseWebviewMessage(raw);
		if (!message) {
			this._deps.logger.warn(`dropped an invalid message from the webview: ${safePreview(raw)}`);
			return;
		}
		try {
			this._handle(message);
		} catch (error) {
			this._deps.logger.error('webview message handler failed', error);
		}
	}

	/** Every message the webview may send is answered here, by the feature it belongs to. */
	private _handle(message: WebviewToHost): void {
		const { controller } = this._deps;
		const [composer, turns] = [this._deps.composer, this._turns];
		switch (message.type) {
			case 'ready':
				return this._open(message.protocolVersion);
			case 'drawn':
				return this._startWhenDrawn?.();
			case 'reloadWindow':
				// Only the refusal's button may ask: a webview cannot reload the window at will.
				if (this._deps.channel.refused) {
					void vscode.commands.executeCommand('workbench.action.reloadWindow');
				}
				return;
			case 'checkModel':
				return void vscode.commands.executeCommand('keel.checkModel');
			case 'submit':
				return void composer.submit(message.text, message.images);
			case 'sendPrompt':
				return controller.sendFromUser(message.text);
			case 'complete':
				return void composer.complete(message.requestId, message.kind, message.query);
			case 'measureMention':
				return void composer.measure(message.value);
			case 'dropUris':
				return void composer.drop(message.uris);
			case 'decideToolCall':
				return void controller.decide(message.toolCallId, message.approved, message.reason, message.always);
			case 'decideContinue':
				return void controller.decideContinue(message.id, message.proceed);
			case 'cancelTurn':
				return controller.stop();
			case 'newSession':
				return controller.newChat();
			case 'loadOlder':
				return controller.loadOlder(message.beforeId);
			case 'setMode':
				return this._deps.modes.set(message.name);
			case 'openTurnChanges':
				return turns.openChanges(message.turnId);
			case 'restoreCheckpoint':
				return turns.restore(message.turnId);
			case 'undoRestore':
				return turns.undoRestore();
			case 'rewindTo':
				return turns.rewindTo(message.turnId);
			case 'openDiff':
				return void this._deps.diffs.open(message.toolCallId, message.index ?? 0);
			case 'readRawOutput':
				return void controller
					.sendRawOutput(message.toolCallId, message.offset, this._deps.outputs.get)
					.catch(error => this._deps.logger.warn(`could not read a raw output: ${(error as Error).message}`));
			case 'decideMcpConsent':
				return this._deps.mcpConsents().decide(message.id, message.allow);
			case 'runAction':
				return runChatAction(message, this._deps.retry);
			case 'copyText':
				return void vscode.env.clipboard.writeText(message.text);
			case 'insertText':
				return void insertAtCursor(message.text);
		}
	}

	/**
	 * The webview is listening: it gets a full snapshot, then only changes. A conversation not yet
	 * started is sent its first page from the stored conversation's newest part, and is read
	 * whole (and what follows a snapshot is sent) once the chat has drawn that page: reading a
	 * long one holds up this process and the machine, and the page would wait for it.
	 */
	private _open(protocolVersion: number): void {
		const webview = this._view?.webview;
		if (!webview) {
			return;
		}
		const { controller, logger } = this._deps;
		const asked = Date.now();
		this._deps.channel.open(
			m => void webview.postMessage(m),
			protocolVersion,
			() => {
				const state = controller.page();
				// The time is in the line (npm run bench reads it): the log stamps lines where they are written.
				logger.info(
					`chat view ready: the newest ${state.items.length} items posted at ${new Date().toISOString()}, ` +
						`${Date.now() - asked} ms after the chat asked; ${state.olderCount} older on request`,
				);
				return { type: 'didSnapshot', state };
			},
			// Asked after the snapshot was built: a page from the newest part leaves the conversation unstarted.
			followUp => (controller.started ? followUp() : this._startOnceDrawn(followUp)),
		);
	}

	/** Starts the conversation when the chat says it drew its first page, or after a while if it never does (hidden at once). */
	private _startOnceDrawn(followUp: () => void): void {
		this._cancelStart();
		const fallback = setTimeout(() => this._startWhenDrawn?.(), START_UNDRAWN_MS);
		this._cancelStart = () => {
			clearTimeout(fallback);
			this._startWhenDrawn = undefined;
		};
		this._startWhenDrawn = () => {
			this._cancelStart();
			this._deps.controller.prepare();
			followUp();
		};
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
