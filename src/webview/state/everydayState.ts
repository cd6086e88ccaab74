import type { CompletionView, ModeView, TurnControl } from '../../shared/protocol';

/**
 * What the chat shows beside the conversation: the session's mode, each user turn's controls,
 * the composer's completion list and text put back by a rewind. Kept apart from the item
 * store so a change repaints only the controls that read it, not every memoised row.
 */
class EverydayState {
	mode: ModeView | undefined;
	modes: ModeView[] = [];
	turns = new Map<string, TurnControl>();
	completions: { requestId: number; items: CompletionView[] } = { requestId: -1, items: [] };
	/** Bumped with each fill so the same text twice still refills. */
	fill: { text: string; serial: number; images?: Array<{ name: string; data: string }> } = { text: '', serial: 0 };
	/** Bumped when the host asks for the caret in the composer (Keel: Focus Chat). */
	focus = 0;
	/** Mentions to append to the composer (dropped files), bumped like `fill`. */
	added: { values: string[]; serial: number } = { values: [], serial: 0 };
	/** Each mention's chip: its label and token cost (or why it would not be attached). */
	mentionCosts = new Map<string, { label: string; tokens: number; error?: string }>();
	/** Bumped with every change, so a component can tell it missed one before it subscribed. */
	serial = 0;
	private readonly _listeners = new Set<() => void>();

	setMode(mode: ModeView, modes: ModeView[]): void {
		this.mode = mode;
		this.modes = modes;
		this._notify();
	}

	setTurns(turns: TurnControl[]): void {
		this.turns = new Map(turns.map(turn => [turn.itemId, turn]));
		this._notify();
	}

	setCompletions(requestId: number, items: CompletionView[]): void {
		this.completions = { requestId, items };
		this._notify();
	}

	fillComposer(text: string, images?: Array<{ name: string; data: string }>): void {
		this.fill = { text, serial: this.fill.serial + 1, images };
		this._notify();
	}

	focusComposer(): void {
		this.focus++;
		this._notify();
	}

	addMentions(values: string[]): void {
		this.added = { values, serial: this.added.serial + 1 };
		this._notify();
	}

	setMentionCost(value: string, cost: { label: string; tokens: number; error?: string }): void {
		this.mentionCosts.set(value, cost);
		this._notify();
	}

	subscribe(listener: () => void): () => void {
		this._listeners.add(listener);
		return () => void this._listeners.delete(listener);
	}

	private _notify(): void {
		this.serial++;
		this._listeners.forEach(listener => listener());
	}
}

export const everydayState = new EverydayState();
