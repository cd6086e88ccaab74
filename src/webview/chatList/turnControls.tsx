import { useEverydayState } from '../state/useEverydayState';
import { post } from '../state/vscodeApi';

/**
 * Under a user's message: "N files changed" (opens the turn's diff), "Restore files to here"
 * when the turn changed files, and "Rewind the conversation to here", which puts the prompt
 * back in the composer to edit and resend.
 */
export function TurnControls({ itemId }: { itemId: string }) {
	const turn = useEverydayState().turns.get(itemId);
	if (!turn) {
		return null;
	}
	const files = turn.filesChanged;
	return (
		<div class="turn-controls" data-testid="turn-controls" data-turn={turn.turnId}>
			{files ? (
				<>
					<button
						class="link"
						data-testid="turn-changes"
						title="Show what this turn changed"
						onClick={() => post({ type: 'openTurnChanges', turnId: turn.turnId })}
					>
						{files} file{files === 1 ? '' : 's'} changed
					</button>
					<button
						class="link"
						data-testid="checkpoint-restore"
						title="Put the files back as they were before this turn (undoable with Keel: Undo Restore)"
						onClick={() => post({ type: 'restoreCheckpoint', turnId: turn.turnId })}
					>
						Restore files to here
					</button>
				</>
			) : null}
			{turn.undoRestore ? (
				<button
					class="link"
					data-testid="checkpoint-undo-restore"
					title="Put the files back as they were before this restore"
					onClick={() => post({ type: 'undoRestore' })}
				>
					Undo restore
				</button>
			) : null}
			<button
				class="link"
				data-testid="rewind-here"
				title="Remove this message and everything after it; the prompt goes back into the box to edit and resend"
				onClick={() => post({ type: 'rewindTo', turnId: turn.turnId })}
			>
				Rewind the conversation to here
			</button>
		</div>
	);
}
