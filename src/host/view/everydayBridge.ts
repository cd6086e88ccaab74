import type { NoticeCode } from '../../core/agent/noticeCodes';
import type { Logger } from '../../core/ports';
import { Disposable } from '../../core/util/lifecycle';
import type { CompletionView, TurnControl, WebviewToHost } from '../../shared/protocol';
import type { EverydayApi, TurnInfo } from '../everydayApi';
import type { SessionController } from '../sessionController';
import type { WebviewChannel } from '../webviewChannel';

type EverydayMessage = Extract<WebviewToHost, { type: 'submit' | 'complete' | 'setMode' | 'openTurnChanges' | 'restoreCheckpoint' | 'rewindTo' | 'measureMention' }>;

/** Commands whose own effect already shows in the chat (a mode notice, a new chat, a turn). */
const SILENT_COMMANDS = new Set(['plan', 'act', 'mode', 'new', 'init']);

/**
 * The chat's everyday controls over the host API (everydayApi.ts): the composer's send through
 * the slash-command path, its completion lists and mode control, and each turn's "N files
 * changed", "Restore files to here" and "Rewind the conversation to here". Failures become a
 * notice in the chat, never an exception in the message handler.
 */
export class EverydayBridge extends Disposable {
	private _turnsRequest = 0;
	/** The controls last sent, so a live turn can be added before the full list is known. */
	private _turns: TurnControl[] = [];

	constructor(
		private readonly _api: EverydayApi,
		private readonly _controller: SessionController,
		private readonly _channel: WebviewChannel,
		private readonly _logger: Logger,
	) {
		super();
		this._register(_channel.onDidReset(() => {
			this._turns = [];
			this.pushMode();
			void this.pushTurns();
		}));
		this._register(_api.onDidChangeState(what => (what === 'mode' ? this.pushMode() : what === 'checkpoints' ? void this.pushTurns() : undefined)));
		this._register(_controller.onDidEvent(event => {
			if (event.type === 'turnFinished') {
				// Rewind is offered at once; the file counts follow when the turn's closing snapshot is in (git can be slow).
				this._pushLiveTurns();
				setTimeout(() => void this.pushTurns(), 0);
			}
		}));
	}

	handles(message: WebviewToHost): message is EverydayMessage {
		return ['submit', 'complete', 'setMode', 'openTurnChanges', 'restoreCheckpoint', 'rewindTo', 'measureMention'].includes(message.type);
	}

	handle(message: EverydayMessage): void {
		switch (message.type) {
			case 'submit':
				return void this._submit(message.text);
			case 'complete':
				return void this._complete(message.requestId, message.kind, message.query);
			case 'setMode':
				return this._try(async () => void this._api.setMode(message.name));
			case 'openTurnChanges':
				return this._try(async () => void (await this._api.turnDiff(message.turnId)));
			case 'restoreCheckpoint':
				return this._try(async () => {
					const outcome = await this._api.restoreCheckpoint(message.turnId);
					this._notice(outcome.cancelled ? 'warning' : 'info', 'restore', outcome.message);
					void this.pushTurns();
				});
			case 'measureMention':
				return void this._measure(message.value);
			case 'rewindTo':
				return this._try(async () => {
					const { prompt } = await this._api.rewindTo(message.turnId);
					this._channel.push({ type: 'didFillComposer', text: typedPrompt(prompt) });
					this._channel.flush();
				});
		}
	}

	pushMode(): void {
		try {
			this._channel.push({ type: 'didSetMode', mode: this._api.mode(), modes: this._api.modes() });
			this._channel.flush();
		} catch (error) {
			this._logger.warn(`mode not shown: ${(error as Error).message}`);
		}
	}

	/** The loaded conversation's user items paired with the stored turns, newest first (older pages may be unloaded). */
	async pushTurns(): Promise<void> {
		const request = ++this._turnsRequest;
		let turns: TurnInfo[];
		try {
			turns = await this._api.turns();
		} catch (error) {
			this._logger.warn(`turn controls not shown: ${(error as Error).message}`);
			return;
		}
		if (request !== this._turnsRequest) {
			return; // a newer refresh is under way
		}
		this._sendTurns(pairTurns(this._controller.snapshot().items, turns));
	}

	/** Turns run in this window have items named after them (`<turnId>-user`): no need to wait for the store. */
	private _pushLiveTurns(): void {
		const known = new Set(this._turns.map(t => t.itemId));
		const live = this._controller.snapshot().items
			.filter(item => item.kind === 'user' && item.id.endsWith('-user') && !known.has(item.id))
			.map(item => ({ itemId: item.id, turnId: item.id.slice(0, -'-user'.length) }));
		if (live.length) {
			this._sendTurns([...this._turns, ...live]);
		}
	}

	private _sendTurns(turns: TurnControl[]): void {
		this._turns = turns;
		this._channel.push({ type: 'didSetTurns', turns });
		this._channel.flush();
	}

	private async _submit(text: string): Promise<void> {
		try {
			const result = await this._api.submit(text);
			if (result.kind === 'command' && !SILENT_COMMANDS.has(result.command)) {
				this._notice('info', `command-${result.command}`, result.message);
			}
		} catch (error) {
			const message = (error as Error).message;
			if (text.trimStart().startsWith('/')) {
				this._notice('error', 'command', message);
			} else {
				// A failed turn already shows in the chat; only log it.
				this._logger.warn(`prompt refused: ${message}`);
			}
		}
	}

	private async _complete(requestId: number, kind: 'slash' | 'mention', query: string): Promise<void> {
		let items: CompletionView[] = [];
		try {
			items = kind === 'slash'
				? (await this._api.slashCompletions(query)).map(c => ({ value: c.name, label: `/${c.name}`, description: c.description, kind: c.source === 'builtin' ? 'command' : 'prompt' }))
				: (await this._api.mentionCandidates(query)).map(c => ({ value: c.value, label: c.label, kind: c.kind }));
		} catch (error) {
			this._logger.warn(`completions failed: ${(error as Error).message}`);
		}
		this._channel.push({ type: 'didComplete', requestId, items: items.slice(0, 50) });
		this._channel.flush();
	}

	/** Resolves the one mention as sending would (deny-read and the network guard hold), for its chip. */
	private async _measure(value: string): Promise<void> {
		let result: { label: string; tokens: number; error?: string };
		try {
			const attachment = (await this._api.resolveMentions(`@${value}`)).attachments[0];
			result = attachment ? { label: attachment.label, tokens: attachment.error ? 0 : attachment.tokens, error: attachment.error } : { label: value, tokens: 0, error: 'not a mention' };
		} catch (error) {
			result = { label: value, tokens: 0, error: (error as Error).message };
		}
		this._channel.push({ type: 'didMeasureMention', value, ...result });
		this._channel.flush();
	}

	private _try(run: () => Promise<void>): void {
		run().catch(error => this._notice('error', 'everyday', (error as Error).message));
	}

	private _notice(level: 'info' | 'warning' | 'error', code: NoticeCode, text: string): void {
		this._controller.showNotice({ level, code, text });
	}
}

/** Pairs user items with turns from the end: the n-th last user message is the n-th last turn. */
export function pairTurns(items: ReadonlyArray<{ kind: string; id: string }>, turns: readonly TurnInfo[]): TurnControl[] {
	const users = items.filter(item => item.kind === 'user');
	const pairs: TurnControl[] = [];
	for (let i = 1; i <= Math.min(users.length, turns.length); i++) {
		const turn = turns[turns.length - i];
		pairs.unshift({ itemId: users[users.length - i].id, turnId: turn.turnId, filesChanged: turn.changes?.length || undefined });
	}
	return pairs;
}

/** What the user typed, without the mentions' content appended at send (resending attaches it afresh). */
export function typedPrompt(prompt: string): string {
	const at = prompt.search(/\n\nAttached (file|folder|selection|problems|terminal|url) [^\n]*\(\d+ tokens[^\n]*\):\n/);
	return at === -1 ? prompt : prompt.slice(0, at);
}
