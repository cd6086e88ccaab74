import type { NoticeCode } from '../../core/agent/noticeCodes';
import { ImagesRefused } from '../../core/llm/imageParts';
import type { Logger } from '../../core/ports';
import type { CompletionView } from '../../shared/protocol';
import type { WebviewChannel } from '../view/webviewChannel';
import type { Composer, Conversation, MentionSource } from './composer';

/** Commands whose own effect already shows in the chat (a mode notice, a new chat, a turn). */
const SILENT_COMMANDS = new Set(['plan', 'act', 'mode', 'new', 'init']);

/**
 * The chat's composer over the host: its send, its completion lists, the cost of a mention
 * chip, and files dropped from the Explorer. Every request is answered (an empty list, a chip
 * with its error), and a failure becomes a notice in the chat, never an exception in the
 * message handler.
 */
export class ComposerChat {
	constructor(
		private readonly _composer: Pick<Composer, 'submit' | 'completions'>,
		private readonly _mentions: MentionSource,
		private readonly _conversation: Pick<Conversation, 'showNotice'>,
		private readonly _channel: WebviewChannel,
		private readonly _logger: Logger,
	) {}

	async submit(text: string, images?: Array<{ name: string; data: string }>): Promise<void> {
		try {
			const result = await this._composer.submit(text, images);
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

	async complete(requestId: number, kind: 'slash' | 'mention', query: string): Promise<void> {
		let items: CompletionView[] = [];
		try {
			items =
				kind === 'slash'
					? (await this._composer.completions(query)).map(c => ({
							value: c.name,
							label: `/${c.name}`,
							description: c.description,
							kind: c.source === 'builtin' ? 'command' : 'prompt',
						}))
					: (await this._mentions.candidates(query)).map(c => ({
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
	async measure(value: string): Promise<void> {
		let result: { label: string; tokens: number; error?: string };
		try {
			const attachment = (await this._mentions.resolve(`@${value}`)).attachments[0];
			result = attachment
				? { label: attachment.label, tokens: attachment.error ? 0 : attachment.tokens, error: attachment.error }
				: { label: value, tokens: 0, error: 'not a mention' };
		} catch (error) {
			result = { label: value, tokens: 0, error: (error as Error).message };
		}
		this._channel.push({ type: 'didMeasureMention', value, ...result });
		this._channel.flush();
	}

	/** Files and folders dropped from the Explorer become mention chips; what was refused is said. */
	async drop(uris: readonly string[]): Promise<void> {
		try {
			const { values, refused } = await this._mentions.mentionsForUris(uris);
			if (values.length) {
				this._channel.push({ type: 'didAddMentions', values });
				this._channel.flush();
			}
			if (refused.length) {
				this._notice('warning', 'mention', `Not attached: ${refused.join('; ')}.`);
			}
		} catch (error) {
			this._notice('error', 'mention', (error as Error).message);
		}
	}

	private _notice(level: 'info' | 'warning' | 'error', code: NoticeCode, text: string): void {
		this._conversation.showNotice({ level, code, text });
	}
}
