import type { NoticeCode } from '../../core/agent/noticeCodes';
import type { Logger } from '../../core/ports';
import { Disposable } from '../../core/util/lifecycle';
import type { CompletionView, TurnControl, WebviewToHost } from '../../shared/protocol';
import type { EverydayApi, TurnInfo } from '../everydayApi';
import { ImagesRefused } from '../../core/llm/imageParts';
import type { SessionController } from '../session/sessionController';
import type { WebviewChannel } from './webviewChannel';

type EverydayMessage = Extract<
	WebviewToHost,
	{
		type:
			| 'submit'
			| 'complete'
			| 'setMode'
			| 'openTurnChanges'
			| 'restoreCheckpoint'
			| 'undoRestore'
			| 'rewindTo'
			| 'measureMention'
			| 'dropUris';
	}
>;

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
	/** The current chat's stored turns as last read (with their changed files); empty until read. */
	private _stored: TurnInfo[] = [];

	constructor(
		private readonly _api: EverydayApi,
		private readonly _controller: SessionController,
		private readonly _channel: WebviewChannel,
		private readonly _logger: Logger,
	) {
		super();
		this._register(
			_channel.onDidReset(() => {
				// Another chat (or a reloaded view): the turns read before belong to it no more.
				this._stored = [];
				this.pushMode();
				void this.pushTurns();
			}),
		);
		this._register(
			_api.onDidChangeState(what =>
				what === 'mode' ? this.pushMode() : what === 'checkpoints' ? void this.pushTurns() : undefined,
			),
		);
		this._register(
			_controller.onDidEvent(event => {
				if (event.type === 'turnFinished') {
					// The controls show when the turn ends; the file counts follow when its closing snapshot is in (git can be slow).
					void this.pushTurns();
				}
			}),
		);
	}

	handles(message: WebviewToHost): message is EverydayMessage {
		return [
			'submit',
			'complete',
			'setMode',
			'openTurnChanges',
			'restoreCheckpoint',
			'undoRestore',
			'rewindTo',
			'measureMention',
			'dropUris',
		].includes(message.type);
	}

	handle(message: EverydayMessage): void {
		switch (message.type) {
			case 'submit':
				return void this._submit(message.text, message.images);
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
			case 'undoRestore':
				return this._try(async () => {
					const outcome = await this._api.undoRestore();
					this._notice(outcome.cancelled ? 'warning' : 'info', 'restore', outcome.message);
					void this.pushTurns();
				});
			case 'measureMention':
				return void this._measure(message.value);
			case 'dropUris':
				return this._try(async () => {
					const { values, refused } = await this._api.mentionsForUris(message.uris);
					if (values.length) {
						this._channel.push({ type: 'didAddMentions', values });
						this._channel.flush();
					}
					if (refused.length) {
						this._notice('warning', 'mention', `Not attached: ${refused.join('; ')}.`);
					}
				});
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

	/**
	 * Sends the controls at once from what is known (turns run in this window are named by their
	 * items), then again once the store and the checkpoints have answered: a slow snapshot delays
	 * only the file counts, never the controls.
	 */
	async pushTurns(): Promise<void> {
		const request = ++this._turnsRequest;
		this._sendTurns();
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
		this._stored = turns;
		this._sendTurns();
	}

	private _sendTurns(): void {
		this._channel.push({ type: 'didSetTurns', turns: pairTurns(this._controller.snapshot().items, this._stored) });
		this._channel.flush();
	}

	private async _submit(text: string, images?: Array<{ name: string; data: string }>): Promise<void> {
		try {
			const result = await this._api.submit(text, images?.length ? { images } : undefined);
			if (result.kind === 'command' && !SILENT_COMMANDS.has(result.command)) {
				this._notice('info', `command-${result.command}`, result.message);
			}
		} catch (error) {
			const message = (error as Error).message;
			if (error instanceof ImagesRefused) {
				// Nothing was sent: the text and the images go back into the composer, with the reason.
				this._notice('error', 'images', message);
				this._channel.push({ type: 'didFillComposer', text, images });
				this._channel.flush();
			} else if (text.trimStart().startsWith('/')) {
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
			items =
				kind === 'slash'
					? (await this._api.slashCompletions(query)).map(c => ({
							value: c.name,
							label: `/${c.name}`,
							description: c.description,
							kind: c.source === 'builtin' ? 'command' : 'prompt',
						}))
					: (await this._api.mentionCandidates(query)).map(c => ({
							value: c.value,
							label: c.label,
							kind: c.kind,
						}));
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
			result = attachment
				? { label: attachment.label, tokens: attachment.error ? 0 : attachment.tokens, error: attachment.error }
				: { label: value, tokens: 0, error: 'not a mention' };
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

/**
 * The per-turn controls: a user item named after its turn (`<turnId>-user`, a turn run in this
 * window) gets that turn, stored or not yet; the rest (a resumed conversation's `h<n>` items)
 * pair with the remaining stored turns from the end: the n-th last such message is the n-th
 * last such turn.
 */
export function pairTurns(
	items: ReadonlyArray<{ kind: string; id: string }>,
	turns: readonly TurnInfo[],
): TurnControl[] {
	const users = items.filter(item => item.kind === 'user');
	const byId = new Map(turns.map(turn => [turn.turnId, turn]));
	const named = new Map<string, TurnControl>();
	for (const item of users) {
		if (item.id.endsWith(LIVE_SUFFIX)) {
			const turnId = item.id.slice(0, -LIVE_SUFFIX.length);
			named.set(item.id, control(item.id, turnId, byId.get(turnId)));
		}
	}
	const claimed = new Set([...named.values()].map(control => control.turnId));
	const others = users.filter(item => !named.has(item.id));
	const rest = turns.filter(turn => !claimed.has(turn.turnId));
	const positional = new Map<string, TurnControl>();
	for (let i = 1; i <= Math.min(others.length, rest.length); i++) {
		const turn = rest[rest.length - i];
		const item = others[others.length - i];
		positional.set(item.id, control(item.id, turn.turnId, turn));
	}
	return users.flatMap(item => {
		const control = named.get(item.id) ?? positional.get(item.id);
		return control ? [control] : [];
	});
}

const LIVE_SUFFIX = '-user';

function control(itemId: string, turnId: string, turn: TurnInfo | undefined): TurnControl {
	return {
		itemId,
		turnId,
		filesChanged: turn?.changes?.length || undefined,
		...(turn?.restored ? { undoRestore: true } : {}),
	};
}

/** What the user typed, without the mentions' content appended at send (resending attaches it afresh). */
export function typedPrompt(prompt: string): string {
	const at = prompt.search(
		/\n\nAttached (file|folder|selection|problems|terminal|url) [^\n]*\(\d+ tokens[^\n]*\):\n/,
	);
	return at === -1 ? prompt : prompt.slice(0, at);
}
