import * as vscode from 'vscode';
import { NothingToDo } from '../../core/errors';
import type { TurnInfo } from './keelApi';

/**
 * The turn a palette command acts on: the one given as argument (keybindings, tests), or the
 * user's pick among this chat's turns, newest first.
 */
export async function pickTurn(
	turns: TurnInfo[],
	title: string,
	onlyWithChanges: boolean,
	turnId?: unknown,
): Promise<TurnInfo | undefined> {
	if (typeof turnId === 'string') {
		const given = turns.find(turn => turn.turnId === turnId);
		if (!given) {
			throw new Error('That turn is not in this conversation.');
		}
		return given;
	}
	const candidates = turns.filter(turn => !onlyWithChanges || turn.changes).reverse();
	if (candidates.length === 0) {
		throw new NothingToDo(
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
