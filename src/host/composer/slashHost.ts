import * as vscode from 'vscode';
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

/** What the composer's text turned into. */
export type SubmitResult =
	| { kind: 'prompt'; outcome: TurnOutcome; attachments: Attachment[]; command?: string }
	| { kind: 'command'; command: string; message: string };

/** What the slash commands act on; the host (everyday.ts) provides it. */
export interface SlashTargets {
	send(prompt: string, images?: ImagePart[]): Promise<TurnOutcome>;
	newChat(): void;
	compact(): Promise<string>;
	setMode(name?: string): Promise<string>;
	draftAgentsMd(): Promise<TurnOutcome>;
	/** `origin`: the text came partly from a workspace file; only `origin.typed` was typed by the user. */
	resolveMentions(text: string, origin?: MentionOrigin): Promise<{ prompt: string; attachments: Attachment[] }>;
}

/**
 * The composer's text → a built-in command, a prompt file (`.keel/prompts/NAME.md` with its
 * arguments), or a prompt with its @-mentions attached. The webview calls `submit`; so do the
 * API and tests.
 */
export class SlashHost {
	constructor(
		private readonly _workspace: Workspace,
		private readonly _gate: Gate,
		private readonly _targets: SlashTargets,
	) {}

	async completions(prefix: string): Promise<CommandInfo[]> {
		return completions(prefix, await loadPromptFiles(this._workspace, this._gate));
	}

	async submit(text: string, images?: ImagePart[]): Promise<SubmitResult> {
		const command = parseSlash(text);
		if (!command) {
			return this._prompt(text, images);
		}
		if (images?.length && BUILT_IN_COMMANDS.some(c => c.name === command.name)) {
			throw new ImagesRefused(`/${command.name} does not take images. Send the image with a question instead.`);
		}
		const t = this._targets;
		switch (command.name) {
			case 'new':
				t.newChat();
				return { kind: 'command', command: 'new', message: 'Started a new chat.' };
			case 'compact':
				return { kind: 'command', command: 'compact', message: await t.compact() };
			case 'model':
				if (command.args) {
					await vscode.workspace
						.getConfiguration('keel')
						.update('model.name', command.args, vscode.ConfigurationTarget.Global);
					return { kind: 'command', command: 'model', message: `Model: ${command.args} (keel.model.name).` };
				}
				await vscode.commands.executeCommand('keel.selectModel');
				return { kind: 'command', command: 'model', message: 'Model picker opened.' };
			case 'mode':
				return { kind: 'command', command: 'mode', message: await t.setMode(command.args || undefined) };
			case 'plan':
			case 'act':
				return { kind: 'command', command: command.name, message: await t.setMode(command.name) };
			case 'init': {
				const outcome = await t.draftAgentsMd();
				return { kind: 'prompt', outcome, attachments: [], command: 'init' };
			}
		}
		const files = await loadPromptFiles(this._workspace, this._gate);
		const file = files.find(f => f.name === command.name);
		if (!file) {
			const names = [...BUILT_IN_COMMANDS.map(c => c.name), ...files.map(f => f.name)];
			throw new Error(
				`There is no command /${command.name}. Commands: ${names.map(n => `/${n}`).join(', ')}. Add your own as .keel/prompts/NAME.md.`,
			);
		}
		if (file.refused !== undefined) {
			throw new Error(`/${command.name} was not run: ${file.refused}`);
		}
		// Only the arguments are the user's: an address the prompt file itself wrote is not contacted.
		const result = await this._prompt(expandPrompt(file.body, command.args), images, {
			typed: command.args,
			from: file.path,
		});
		return { ...result, command: command.name };
	}

	private async _prompt(
		text: string,
		images?: ImagePart[],
		origin?: MentionOrigin,
	): Promise<SubmitResult & { kind: 'prompt' }> {
		const { prompt, attachments } = await this._targets.resolveMentions(text, origin);
		return { kind: 'prompt', outcome: await this._targets.send(prompt, images), attachments };
	}
}
