import type { ChatModel } from '../core/llm/chatModel';
import type { Logger, Workspace } from '../core/ports';
import type { Gate } from '../core/gate/gate';
import type { Event } from '../core/util/emitter';
import type { IDisposable } from '../core/util/lifecycle';
import type { OutputStore } from '../core/tools/outputStore';
import { ChatViewProvider } from './chat/chatViewProvider';
import { DiffEditor } from './chat/diffEditor';
import type { WebviewChannel } from './view/webviewChannel';
import type { CheckpointsHost } from './checkpoints/checkpointsHost';
import { TurnChanges } from './checkpoints/turnChanges';
import { createComposer } from './composer/composerApi';
import type { Composer } from './composer/composer';
import { ComposerChat } from './composer/composerChat';
import type { MentionsHost } from './composer/mentionsHost';
import type { McpConsentPrompts } from './mcp/mcpConsentPrompts';
import { ModeControl } from './projectContext/modeControl';
import type { ProjectContext } from './projectContext/projectContext';
import { Compaction } from './session/compaction';
import { ConversationRewind } from './session/conversationRewind';
import { SessionController, type SessionFactory } from './session/sessionController';
import type { SessionPersistence } from './session/sessionPersistence';
import { TurnRetry } from './session/turnRetry';

/** The conversation on screen and what acts on it. */
export interface ConversationFeatures {
	controller: SessionController;
	changes: TurnChanges;
	rewind: ConversationRewind;
	compaction: Compaction;
	retry: TurnRetry;
	composer: Composer;
}

/**
 * Builds the conversation in dependency order: the controller, then the turn's file changes,
 * rewind, compaction, retry, and the composer that makes text a turn. `register` hands each
 * disposable to its owner, so it closes before the store it writes to.
 */
export function buildConversation(
	parts: {
		sessions: SessionFactory;
		channel: WebviewChannel;
		logger: Logger;
		persistence: SessionPersistence;
		checkpoints: CheckpointsHost;
		project: ProjectContext;
		workspace: Workspace;
		gate: Gate;
		mentions: MentionsHost;
		createModel: () => Promise<ChatModel>;
	},
	register: <T extends IDisposable>(item: T) => T,
): ConversationFeatures {
	const { persistence, project } = parts;
	const controller = register(new SessionController(parts.sessions, parts.channel, parts.logger, persistence));
	const changes = register(new TurnChanges(parts.checkpoints, controller, () => persistence.store));
	const rewind = new ConversationRewind(persistence, controller, (id, choice) => changes.restore(id, choice));
	const compaction = new Compaction(persistence, controller, project.modes, parts.createModel);
	const retry = register(new TurnRetry(controller, rewind));
	const composer = createComposer({ ...parts, controller, compaction });
	return { controller, changes, rewind, compaction, retry, composer };
}

/**
 * The chat view over the conversation: each of its messages goes to the feature it belongs to
 * (the composer, the mode picker, the turn's files, the MCP servers' consent cards), handed to it
 * here as the part it uses.
 */
export function buildChat(
	conversation: ConversationFeatures,
	parts: {
		channel: WebviewChannel;
		logger: Logger;
		mentions: MentionsHost;
		project: ProjectContext;
		checkpointsChanged: Event<void>;
		outputs: OutputStore;
		mcpConsents(): McpConsentPrompts;
	},
	register: <T extends IDisposable>(item: T) => T,
): ChatViewProvider {
	const { controller } = conversation;
	const { channel, logger } = parts;
	return register(
		new ChatViewProvider({
			...conversation,
			...parts,
			composer: new ComposerChat(conversation.composer, parts.mentions, controller, channel, logger),
			modes: register(new ModeControl(parts.project.modes, controller, channel, logger)),
			diffs: register(new DiffEditor(controller.onDidEvent)),
		}),
	);
}
