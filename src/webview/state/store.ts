import type { HostToWebview } from '../../shared/protocol';
import type { ChatItem, SessionView } from '../../shared/views';
import { applyRawOutput } from './rawOutput';
import { everydayState } from './everydayState';
import { mcpConsentState } from './mcpConsentState';

export type Header = Omit<SessionView, 'items' | 'olderCount'>;
export type ApplyResult = 'applied' | 'gap' | 'stale';

/**
 * The webview's copy of the host's view, changed in place by each notification. Items are
 * replaced (never mutated) when they change, so a memoised row re-renders only for its own
 * item; `structure` counts changes to which items exist, so grouping reruns only then.
 */
export class ChatStore {
	items: ChatItem[] = [];
	olderCount = 0;
	header: Header | undefined;
	version = -1;
	/** Bumped when items are added, prepended or a card's status changes (grouping depends on it). */
	structure = 0;
	/** When (this page's clock) the request that waits for its first token was sent: `header.waiting` plus the time since. */
	waitingSince: number | undefined;
	private readonly _index = new Map<string, number>();
	private readonly _listeners = new Set<() => void>();

	subscribe(listener: () => void): () => void {
		this._listeners.add(listener);
		return () => this._listeners.delete(listener);
	}

	get loaded(): boolean {
		return this.header !== undefined;
	}

	/** Paints what the last session looked like until the host's snapshot arrives. */
	restore(view: SessionView): void {
		this._reset(view);
		this._notify();
	}

	/** Applies one host notification. Versions must follow each other; a gap asks for a snapshot. */
	apply(message: HostToWebview): ApplyResult {
		if (message.type === 'didSnapshot') {
			this._reset(message.state);
			this.version = message.version;
			this._notify();
			return 'applied';
		}
		if (message.version <= this.version) {
			return 'stale';
		}
		if (!this.header || message.version !== this.version + 1) {
			return 'gap';
		}
		this.version = message.version;
		this._applyDelta(message, this.header);
		this._notify();
		return 'applied';
	}

	get(id: string): ChatItem | undefined {
		const index = this._index.get(id);
		return index === undefined ? undefined : this.items[index];
	}

	private _applyDelta(message: Exclude<HostToWebview, { type: 'didSnapshot' }>, header: Header): void {
		switch (message.type) {
			case 'didUpsertItem': {
				const index = this._index.get(message.item.id);
				if (index === undefined) {
					this._index.set(message.item.id, this.items.length);
					this.items.push(message.item);
				} else {
					this.items[index] = message.item;
				}
				this.structure++;
				return;
			}
			case 'didAppendText':
				return this._update(message.itemId, item =>
					item.kind === 'assistant' || item.kind === 'thinking'
						? { ...item, text: item.text + message.text }
						: item,
				);
			case 'didFinishText':
				return this._update(message.itemId, item =>
					item.kind === 'assistant' || item.kind === 'thinking' ? { ...item, streaming: false } : item,
				);
			case 'didPatchTool':
				if (message.patch.status) {
					this.structure++;
				}
				return this._update(message.itemId, item =>
					item.kind === 'tool' ? { ...item, call: { ...item.call, ...message.patch } } : item,
				);
			case 'didAppendOutput':
				return this._update(message.itemId, item =>
					item.kind === 'tool'
						? { ...item, call: { ...item.call, progress: (item.call.progress ?? '') + message.text } }
						: item,
				);
			case 'didPrependItems': {
				const known = message.items.filter(item => !this._index.has(item.id));
				this.items = [...known, ...this.items];
				this.olderCount = message.olderCount;
				this._reindex();
				this.structure++;
				return;
			}
			case 'didSetStatus':
			case 'didSetUsage':
			case 'didSetWaiting':
			case 'didSetModel':
			case 'didSetRestricted':
				return this._applyHeader(message, header);
			case 'didFocusComposer':
				return everydayState.focusComposer();
			case 'didRawOutput':
				return applyRawOutput(message);
			case 'didSetMode':
				return everydayState.setMode(message.mode, message.modes);
			case 'didSetTurns':
				return everydayState.setTurns(message.turns);
			case 'didComplete':
				return everydayState.setCompletions(message.requestId, message.items);
			case 'didFillComposer':
				return everydayState.fillComposer(message.text, message.images);
			case 'didAddMentions':
				return everydayState.addMentions(message.values);
			case 'didMeasureMention':
				return everydayState.setMentionCost(message.value, {
					label: message.label,
					tokens: message.tokens,
					error: message.error,
				});
			case 'didSetMcpConsents':
				return mcpConsentState.set(message.consents);
		}
	}

	/** The header's fields: status, usage, the wait for a first token, the model, Restricted Mode. */
	private _applyHeader(
		message: Extract<
			HostToWebview,
			{ type: 'didSetStatus' | 'didSetUsage' | 'didSetWaiting' | 'didSetModel' | 'didSetRestricted' }
		>,
		header: Header,
	): void {
		switch (message.type) {
			case 'didSetStatus':
				this.header = { ...header, busy: message.busy, error: message.error };
				return;
			case 'didSetUsage':
				this.header = { ...header, usage: message.usage };
				return;
			case 'didSetWaiting':
				this.header = { ...header, waiting: message.waiting };
				this._noteWaiting();
				return;
			case 'didSetModel':
				this.header = { ...header, modelLabel: message.modelLabel, endpoint: message.endpoint };
				return;
			case 'didSetRestricted':
				this.header = { ...header, restricted: message.restricted };
				return;
		}
	}

	private _update(id: string, change: (item: ChatItem) => ChatItem): void {
		const index = this._index.get(id);
		if (index !== undefined) {
			this.items[index] = change(this.items[index]);
		}
	}

	private _reset(view: SessionView): void {
		const { items, olderCount, ...header } = view;
		// The controls of the old items go; the host sends the new ones after each snapshot.
		everydayState.setTurns([]);
		this.items = [...items];
		this.olderCount = olderCount;
		this.header = header;
		this._noteWaiting();
		this._reindex();
		this.structure++;
	}

	private _noteWaiting(): void {
		const waiting = this.header?.waiting;
		// The host's elapsed time was true when it was sent; from here on this page's clock counts.
		this.waitingSince = waiting ? Date.now() - waiting.elapsedMs : undefined;
	}

	private _reindex(): void {
		this._index.clear();
		this.items.forEach((item, index) => this._index.set(item.id, index));
	}

	private _notify(): void {
		this._listeners.forEach(listener => listener());
	}
}
