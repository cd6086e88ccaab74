import * as vscode from 'vscode';
import type { FeatureCommands } from '../common/commandIds';
import type { KeelApi } from '../common/keelApi';
import { setModelFromChat } from '../models/modelCommands';
import type { ActiveConversation } from '../common/conversation';
import type { TurnOutcome } from '../../core/agent/loop/agentOptions';
import type { Gate } from '../../core/gate/gate';
import type { Workspace } from '../../core/ports';
import { Composer, type MentionSource } from './composer';
import { checkImagesForModel } from './images';
import { selectionPrompt } from './selectionPrompt';

/** The composer of the conversation on screen, its built-in commands acting on the features they name. */
export function createComposer(parts: {
	workspace: Workspace;
	gate: Gate;
	mentions: MentionSource;
	controller: Pick<ActiveConversation, 'sessionId' | 'send' | 'showNotice' | 'newChat'>;
	/** The session's compaction (session/compaction.ts). */
	compaction: { compact(): Promise<string> };
	/** The project's modes and AGENTS.md (projectContext/projectContext.ts). */
	project: {
		switchMode(sessionId: string, name?: string): Promise<string>;
		draftAgentsMd(conversation: Pick<ActiveConversation, 'send'>): Promise<TurnOutcome>;
	};
}): Composer {
	const { controller, compaction, project } = parts;
	return new Composer({
		workspace: parts.workspace,
		gate: parts.gate,
		mentions: parts.mentions,
		checkImages: checkImagesForModel,
		conversation: controller,
		commands: {
			newChat: () => controller.newChat(),
			compact: () => compaction.compact(),
			setMode: name => project.switchMode(controller.sessionId, name),
			setModel: setModelFromChat,
			draftAgentsMd: () => project.draftAgentsMd(controller),
		},
	});
}

type ComposerApi = Pick<
	KeelApi,
	'submit' | 'slashCompletions' | 'mentionCandidates' | 'resolveMentions' | 'mentionsForUris'
>;

/** The composer as the extension's API offers it: the same send and lists the chat uses. */
export function composerApi(composer: Composer, mentions: MentionSource): ComposerApi {
	return {
		submit: (text, options) => composer.submit(text, options?.images),
		slashCompletions: prefix => composer.completions(prefix),
		mentionCandidates: query => mentions.candidates(query),
		resolveMentions: text => mentions.resolve(text),
		mentionsForUris: uris => mentions.mentionsForUris(uris),
	};
}

/** "Ask About Selection": the selected code and a question become a prompt; `question` lets keybindings and tests skip the input box. */
export function composerCommands(
	controller: Pick<ActiveConversation, 'sendFromUser'>,
): FeatureCommands<'keel.askAboutSelection' | 'keel.askKeelAboutSelection'> {
	const ask = async (question?: unknown) => {
		const editor = vscode.window.activeTextEditor;
		if (!editor || editor.selection.isEmpty) {
			void vscode.window.showInformationMessage(
				'Keel: select some code first, then run "Keel: Ask About Selection".',
			);
			return;
		}
		const asked =
			typeof question === 'string'
				? question
				: await vscode.window.showInputBox({
						title: 'Keel: Ask About Selection',
						prompt: 'What do you want to know about the selected code?',
						value: 'Explain this code.',
					});
		if (!asked) {
			return;
		}
		await vscode.commands.executeCommand('keel.chat.focus');
		const relative = vscode.workspace.asRelativePath(editor.document.uri, false);
		controller.sendFromUser(
			selectionPrompt(
				asked,
				relative,
				editor.selection.start.line + 1,
				editor.document.getText(editor.selection),
				editor.document.languageId,
			),
		);
	};
	// The editor's context menu shows a title without its category: the menu's own entry names Keel.
	return { 'keel.askAboutSelection': ask, 'keel.askKeelAboutSelection': ask };
}
