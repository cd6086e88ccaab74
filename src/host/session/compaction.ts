import type { ChatModel } from '../../core/llm/chatModel';
import { summarise } from '../../core/prompts/compact';
import type { Mode } from '../../core/modes/modes';
import { readModelConfig } from '../settings/config';
import { newSessionId } from '../../core/util/ids';
import { approxTokens } from '../../core/util/tokens';
import type { SessionController } from './sessionController';
import type { SessionPersistence } from './sessionPersistence';

/**
 * /compact and "Keel: Compact": the model summarises the conversation; a new session starts
 * from the summary, which stays visible, and keeps the old one's mode. The full conversation
 * stays in the history under its own title.
 */
export class Compaction {
	constructor(
		private readonly _persistence: SessionPersistence,
		private readonly _controller: SessionController,
		/** Each session's mode (projectContext/modesHost.ts): the new session keeps the old one's. */
		private readonly _modes: { get(sessionId: string): Mode; set(sessionId: string, id: string): Mode },
		private readonly _createModel: () => Promise<ChatModel>,
	) {}

	async compact(): Promise<string> {
		const controller = this._controller;
		const store = this._persistence.store;
		if (!store) {
			throw new Error(
				'Compacting needs the session history, which is not available (see the Keel output channel).',
			);
		}
		if (controller.busy) {
			throw new Error('A turn is running. Stop it or wait, then compact.');
		}
		const history = controller.transcript();
		if (history.length === 0) {
			return 'Nothing to compact yet.';
		}
		let summary: string;
		try {
			const model = await this._createModel();
			summary = await summarise(model, history, readModelConfig().contextWindow, new AbortController().signal);
		} catch (error) {
			// Nothing changed: the chat goes on as it was, and says why the summary did not come.
			throw new Error(
				`Could not compact: ${(error as Error).message.replace(/[.\s]*$/, '')}. The conversation was left as it was.`,
				{ cause: error },
			);
		}
		const oldId = controller.sessionId;
		const title = store.get(oldId)?.title ?? 'this conversation';
		const newId = newSessionId();
		const turnId = `${newId}-compact`;
		store.append(
			newId,
			{ kind: 'user', content: `Continue from this summary of the earlier conversation "${title}".` },
			{ turnId },
		);
		store.append(newId, { kind: 'assistant', content: summary }, { turnId });
		store.rename(newId, `${title} (compacted)`);
		const mode = this._modes.get(oldId);
		controller.resume(newId);
		if (mode.id !== 'act') {
			this._modes.set(newId, mode.id);
		}
		return `Compacted ${history.length} messages into a summary (about ${approxTokens(summary)} tokens). The full conversation stays in the history as "${title}".`;
	}
}
