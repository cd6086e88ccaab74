import * as vscode from 'vscode';
import type { FeatureCommands } from '../common/commandIds';
import type { TurnInfo } from '../common/keelApi';
import { pickTurn } from '../common/turnPicker';
import { reportOutcome } from '../notifications/commandOutcome';
import type { Compaction } from './compaction';
import type { ConversationRewind } from './conversationRewind';
import type { SessionController } from './sessionController';
import { showHistory } from './sessionHistory';
import type { SessionPersistence } from './sessionPersistence';
import type { ExportGate } from '../../core/session/exportGate';

/** New Chat, Stop, the history, Compact, and rewinding the conversation; each also takes its argument directly. */
export function sessionCommands(
	controller: SessionController,
	persistence: SessionPersistence,
	rewind: ConversationRewind,
	compaction: Compaction,
	/** This chat's turns with their changed files (checkpoints/turnChanges.ts). */
	changes: { turns(): Promise<TurnInfo[]> },
	exports?: ExportGate<vscode.Uri>,
): FeatureCommands<
	'keel.newChat' | 'keel.stop' | 'keel.showHistory' | 'keel.compact' | 'keel.rewindConversation' | 'keel.undoRewind'
> {
	return {
		'keel.newChat': () => controller.newChat(),
		'keel.stop': () => controller.stop(),
		// `query` starts the list searched (keybindings, tests).
		'keel.showHistory': query =>
			showHistory(persistence, {
				query: typeof query === 'string' ? query : undefined,
				currentSessionId: () => controller.sessionId,
				resume: id => void controller.resume(id),
				newChat: () => controller.newChat(),
				exports,
			}),
		'keel.compact': () => reportOutcome(() => compaction.compact()),
		'keel.rewindConversation': turnId =>
			reportOutcome(async () => {
				const turns = await changes.turns();
				const turn = await pickTurn(turns, 'Keel: Rewind Conversation to Before a Turn', false, turnId);
				if (!turn) {
					return undefined;
				}
				const answer = turn.changes
					? await vscode.window.showQuickPick(
							['Rewind the conversation only', 'Rewind and restore its files'],
							{ title: 'This turn changed files' },
						)
					: 'Rewind the conversation only';
				if (!answer) {
					return undefined;
				}
				const result = await rewind.rewindTo(turn.turnId, { restoreFiles: answer.includes('restore') });
				return result.restored?.cancelled
					? result.restored.message
					: `Rewound to before "${result.prompt.slice(0, 60)}".${result.restored ? ` ${result.restored.message}` : ''} Undo with "Keel: Undo Rewind".`;
			}),
		'keel.undoRewind': () =>
			reportOutcome(async () =>
				rewind.undo()
					? 'The rewound turns are back.'
					: 'Nothing to undo: no rewind, or the chat went on since.',
			),
	};
}
