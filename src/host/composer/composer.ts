import type { NoticeCode } from '../../core/agent/noticeCodes';
import type { NoticeLevel } from '../../core/agent/events';
import type { TurnOutcome } from '../../core/agent/loop/runAgent';
import { ImagesRefused, type ImagePart } from '../../core/llm/imageParts';
import type { Gate } from '../../core/gate/gate';
import type { Attachment, MentionOrigin } from '../../core/mentions/mentions';
import type { Workspace } from '../../core/ports';
import {
	BUILT_IN_COMMANDS,
	completions,
	expandPrompt,
	loadPromptFiles,
	parseSlash,
	type CommandInfo,
} from '../../core/prompts/slashCommands';
import type { MentionCandidate, SubmitResult } from '../common/keelApi';
import { isBuiltIn, runBuiltIn, type CommandTargets } from './builtInCommands';

/** The `@` mentions: resolved from VS Code (mentionsHost.ts) through the path and network guards. */
export interface MentionSource {
	/** `origin`: part of the text came from a workspace file; only `origin.typed` was typed by the user. */
	resolve(text: string, origin?: MentionOrigin): Promise<{ prompt: string; attachments: Attachment[] }>;
	candidates(query: string): Promise<MentionCandidate[]>;
	mentionsForUris(uris: readonly string[]): Promise<{ values: string[]; refused: string[] }>;
}

/** The conversation a prompt goes to (the session controller). */
export interface Conversation {
	send(prompt: string, images?: ImagePart[]): Promise<TurnOutcome>;
	showNotice(notice: { level: NoticeLevel; code: NoticeCode; text: string }): void;
}

export interface ComposerDeps {
	/** Where the prompt files are (`.keel/prompts/NAME.md`). */
	workspace: Workspace;
	/** Prompt files are read through it like read_file reads. */
	gate: Gate;
	mentions: MentionSource;
	/** Checks pasted images and that the configured model takes them (images.ts); throws ImagesRefused. */
	checkImages(images: ReadonlyArray<{ name: string; data: string }>): ImagePart[];
	conversation: Conversation;
	commands: CommandTargets;
}

/**
 * What the composer's text becomes before it is a turn: a built-in command (`/new`, `/mode` …),
 * a prompt file with its arguments, or a prompt with its @-mentions attached and its images
 * checked. The chat (composerChat.ts), the API and tests all send through `submit`.
 */
export class Composer {
	constructor(private readonly _deps: ComposerDeps) {}

	async submit(text: string, rawImages?: ReadonlyArray<{ name: string; data: string }>): Promise<SubmitResult> {
		const images = rawImages?.length ? this._deps.checkImages(rawImages) : undefined;
		const command = parseSlash(text);
		if (command && isBuiltIn(command)) {
			if (images?.length) {
				throw new ImagesRefused(
					`/${command.name} does not take images. Send the image with a question instead.`,
				);
			}
			return runBuiltIn(command, this._deps.commands);
		}
		const file = command ? await this._promptFile(command.name) : undefined;
		const typed = command && file ? expandPrompt(file.body, command.args) : text;
		// Only the arguments are the user's: an address the prompt file itself wrote is not contacted.
		const { prompt, attachments } = await this._attachMentions(
			typed,
			command && file ? { typed: command.args, from: file.path } : undefined,
		);
		const outcome = await this._deps.conversation.send(prompt, images);
		return { kind: 'prompt', outcome, attachments, ...(command ? { command: command.name } : {}) };
	}

	async completions(prefix: string): Promise<CommandInfo[]> {
		return completions(prefix, await loadPromptFiles(this._deps.workspace, this._deps.gate));
	}

	/** The prompt with each mention's content attached; a mention that could not be attached is said in the chat. */
	private async _attachMentions(
		text: string,
		origin?: MentionOrigin,
	): Promise<{ prompt: string; attachments: Attachment[] }> {
		const resolved = await this._deps.mentions.resolve(text, origin);
		const failed = resolved.attachments.filter(a => a.error);
		if (failed.length) {
			this._deps.conversation.showNotice({
				level: 'warning',
				code: 'mention',
				text: `Not attached: ${failed.map(a => `@${a.label} (${a.error})`).join('; ')}`,
			});
		}
		return resolved;
	}

	private async _promptFile(name: string): Promise<{ body: string; path: string }> {
		const files = await loadPromptFiles(this._deps.workspace, this._deps.gate);
		const file = files.find(f => f.name === name);
		if (!file) {
			const names = [...BUILT_IN_COMMANDS.map(c => c.name), ...files.map(f => f.name)];
			throw new Error(
				`There is no command /${name}. Commands: ${names.map(n => `/${n}`).join(', ')}. Add your own as .keel/prompts/NAME.md.`,
			);
		}
		if (file.refused !== undefined) {
			throw new Error(`/${name} was not run: ${file.refused}`);
		}
		return file;
	}
}
