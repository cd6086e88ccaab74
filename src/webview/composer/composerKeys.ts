import type { useCompletions } from './completions';
import type { CompletionTrigger } from './composerText';

interface ComposerKeyState {
	text: string;
	trigger: CompletionTrigger | undefined;
	completions: ReturnType<typeof useCompletions>;
	composing: boolean;
	accept(index: number): void;
	send(): void;
	recall(): string | undefined;
	update(value: string): void;
}

/**
 * The composer's keys: Enter sends (Shift+Enter is a new line), ↑ in an empty box recalls the
 * last prompt; while the completion list is open, ↑/↓ move, Enter or Tab pick and Escape closes it.
 */
export function composerKeyDown(state: ComposerKeyState) {
	return (e: KeyboardEvent) => {
		// During an IME composition Enter picks the candidate; it must not send.
		if (e.isComposing || state.composing || e.keyCode === 229) {
			return;
		}
		if (state.completions.open && completionKey(e, state)) {
			return;
		}
		if (e.key === 'Enter' && !e.shiftKey) {
			e.preventDefault();
			state.send();
		} else if (e.key === 'ArrowUp' && state.text === '') {
			const last = state.recall();
			if (last) {
				e.preventDefault();
				state.update(last);
			}
		}
	};
}

/** A key the open completion list takes; false when it is the composer's. */
function completionKey(e: KeyboardEvent, state: ComposerKeyState): boolean {
	const { completions, trigger } = state;
	if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
		e.preventDefault();
		completions.move(e.key === 'ArrowDown' ? 1 : -1);
		return true;
	}
	// Enter on a command typed out in full sends it; otherwise it picks, as Tab does.
	const typedOut = trigger?.kind === 'slash' && completions.items[completions.selected]?.value === trigger.query;
	if ((e.key === 'Enter' && !typedOut) || e.key === 'Tab') {
		e.preventDefault();
		state.accept(completions.selected);
		return true;
	}
	if (e.key === 'Escape') {
		// Closes the list only; the chat-wide Escape (stop the turn) skips a prevented event.
		e.preventDefault();
		completions.close();
		return true;
	}
	return false;
}
