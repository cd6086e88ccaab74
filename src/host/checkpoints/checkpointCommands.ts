import type { FeatureCommands } from '../common/commandIds';
import { pickTurn } from '../common/turnPicker';
import { reportOutcome } from '../notifications/commandOutcome';
import type { TurnChanges } from './turnChanges';

/** "Show Changes of a Turn", "Restore Files to Before a Turn", "Undo Restore"; each also takes the turn id. */
export function checkpointCommands(
	changes: TurnChanges,
): FeatureCommands<'keel.showTurnChanges' | 'keel.restoreCheckpoint' | 'keel.undoRestore'> {
	return {
		'keel.showTurnChanges': turnId =>
			reportOutcome(async () => {
				const turn = await pickTurn(await changes.turns(), 'Keel: Show Changes of a Turn', true, turnId);
				if (turn) {
					await changes.diff(turn.turnId);
				}
				return undefined;
			}),
		'keel.restoreCheckpoint': turnId =>
			reportOutcome(async () => {
				const turn = await pickTurn(
					await changes.turns(),
					'Keel: Restore Files to Before a Turn',
					true,
					turnId,
				);
				return turn ? (await changes.restore(turn.turnId)).message : undefined;
			}),
		'keel.undoRestore': () => reportOutcome(async () => (await changes.undoRestore()).message),
	};
}
