import * as vscode from 'vscode';
import type { Everyday } from './everyday';
import type { TurnInfo } from './everydayApi';

/** Runs a command's action and says the outcome (or the error) the way VS Code users expect. */
async function report(action: () => Promise<string | undefined>): Promise<void> {
	try {
		const message = await action();
		if (message) {
			void vscode.window.showInformationMessage(`Keel: ${message}`);
		}
	} catch (error) {
		void vscode.window.showErrorMessage(`Keel: ${(error as Error).message}`);
	}
}

async function pickTurn(
	everyday: Everyday,
	title: string,
	onlyWithChanges: boolean,
	turnId?: unknown,
): Promise<TurnInfo | undefined> {
	const turns = await everyday.turns();
	if (typeof turnId === 'string') {
		return (
			turns.find(turn => turn.turnId === turnId) ??
			Promise.reject(new Error('That turn is not in this conversation.'))
		);
	}
	const candidates = turns.filter(turn => !onlyWithChanges || turn.changes).reverse();
	if (candidates.length === 0) {
		throw new Error(
			onlyWithChanges
				? 'No turn of this chat changed files, so there is nothing to restore.'
				: 'This chat has no turns yet.',
		);
	}
	const chosen = await vscode.window.showQuickPick(
		candidates.map(turn => ({
			label: turn.prompt.split('\n')[0].slice(0, 80) || '(empty prompt)',
			description: turn.changes
				? `${turn.changes.length} file${turn.changes.length === 1 ? '' : 's'} changed`
				: 'no file changes',
			detail: turn.changes
				?.map(c => c.path)
				.slice(0, 6)
				.join(', '),
			turn,
		})),
		{ title, placeHolder: 'Pick the turn' },
	);
	return chosen?.turn;
}

/** The palette commands of the everyday features; each also takes its argument directly (keybindings, tests). */
export function everydayCommands(getEveryday: () => Everyday): Record<string, (...args: unknown[]) => Promise<void>> {
	return {
		'keel.draftAgentsMd': () =>
			report(async () => {
				await vscode.commands.executeCommand('keel.chat.focus');
				const outcome = await getEveryday().draftAgentsMd();
				return outcome.error ? outcome.error.message : undefined;
			}),
		'keel.showTurnChanges': turnId =>
			report(async () => {
				const everyday = getEveryday();
				const turn = await pickTurn(everyday, 'Keel: Show Changes of a Turn', true, turnId);
				if (turn) {
					await everyday.api.turnDiff(turn.turnId);
				}
				return undefined;
			}),
		'keel.restoreCheckpoint': turnId =>
			report(async () => {
				const everyday = getEveryday();
				const turn = await pickTurn(everyday, 'Keel: Restore Files to Before a Turn', true, turnId);
				return turn ? (await everyday.api.restoreCheckpoint(turn.turnId)).message : undefined;
			}),
		'keel.undoRestore': () => report(async () => (await getEveryday().api.undoRestore()).message),
		'keel.rewindConversation': turnId =>
			report(async () => {
				const everyday = getEveryday();
				const turn = await pickTurn(everyday, 'Keel: Rewind Conversation to Before a Turn', false, turnId);
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
				const result = await everyday.api.rewindTo(turn.turnId, { restoreFiles: answer.includes('restore') });
				return result.restored?.cancelled
					? result.restored.message
					: `Rewound to before "${result.prompt.slice(0, 60)}".${result.restored ? ` ${result.restored.message}` : ''} Undo with "Keel: Undo Rewind".`;
			}),
		'keel.undoRewind': () =>
			report(async () =>
				getEveryday().api.undoRewind()
					? 'The rewound turns are back.'
					: 'Nothing to undo: no rewind, or the chat went on since.',
			),
		'keel.switchMode': name =>
			report(async () => {
				const everyday = getEveryday();
				await everyday.modes.pick(everyday.currentSessionId, typeof name === 'string' ? name : undefined);
				return undefined;
			}),
		'keel.planMode': () => report(async () => void getEveryday().api.setMode('plan')),
		'keel.actMode': () => report(async () => void getEveryday().api.setMode('act')),
		'keel.compact': () => report(() => getEveryday().compact()),
	};
}
