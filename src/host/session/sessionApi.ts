import { sessionExportText, searchPassage } from '../../core/session/sessionExport';
import type { KeelApi } from '../common/keelApi';
import type { Compaction } from './compaction';
import type { ConversationRewind } from './conversationRewind';
import type { SessionController } from './sessionController';
import type { SessionPersistence } from './sessionPersistence';
import { exportSource } from './sessionHistory';
import type { ExportGate } from '../../core/session/exportGate';

type SessionApi = Pick<
	KeelApi,
	| 'runTurn'
	| 'decideToolCall'
	| 'pendingApprovals'
	| 'transcript'
	| 'view'
	| 'newChat'
	| 'sessionId'
	| 'resumeSession'
	| 'onDidEvent'
	| 'searchHistory'
	| 'renameSession'
	| 'deleteSession'
	| 'exportSession'
	| 'compact'
	| 'rewindTo'
	| 'undoRewind'
>;

/** The conversation and its history, as the extension's API offers them. */
export function sessionApi(
	controller: SessionController,
	persistence: SessionPersistence,
	rewind: ConversationRewind,
	compaction: Compaction,
	exports?: ExportGate<unknown>,
): SessionApi {
	return {
		runTurn: prompt => controller.send(prompt),
		decideToolCall: (id, approved, reason, always) => controller.decide(id, approved, reason, always),
		pendingApprovals: () => controller.session.pendingApprovals(),
		transcript: () => controller.transcript(),
		view: () => controller.snapshot(),
		newChat: () => controller.newChat(),
		sessionId: () => controller.sessionId,
		resumeSession: id => controller.resume(id),
		onDidEvent: listener => controller.onDidEvent(listener),
		searchHistory: query =>
			(persistence.store?.search(query) ?? []).map(hit => ({
				sessionId: hit.sessionId,
				title: hit.meta.title,
				snippet: searchPassage(hit.snippet),
				updatedAt: hit.meta.updatedAt,
			})),
		renameSession: (id, title) => persistence.store?.rename(id, title),
		deleteSession: id => {
			persistence.store?.delete(id);
			if (id === controller.sessionId) {
				controller.newChat();
			}
		},
		exportSession: (id, format) => {
			const store = persistence.store;
			const meta = store?.get(id);
			if (!store || !meta) {
				throw new Error(`There is no stored session ${id}.`);
			}
			// What an export copies is decided again with the deny list as it is now (the gate).
			return sessionExportText(format === 'json' ? 'json' : 'markdown', meta, exportSource(store, id, exports));
		},
		compact: () => compaction.compact(),
		rewindTo: (turnId, options) => rewind.rewindTo(turnId, options),
		undoRewind: () => rewind.undo(),
	};
}
