import type { ChatModel } from '../core/llm/chatModel';
import type { Logger, Workspace } from '../core/ports';
import type { Gate } from '../core/gate/gate';
import type { IDisposable } from '../core/util/lifecycle';
import type { WebviewChannel } from './view/webviewChannel';
import type { CheckpointsHost } from './checkpoints/checkpointsHost';
import { TurnChanges } from './checkpoints/turnChanges';
import { createComposer } from './composer/composerApi';
import type { Composer } from './composer/composer';
import type { MentionsHost } from './composer/mentionsHost';
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
