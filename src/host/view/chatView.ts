import type { AgentEvent } from '../../core/agent/events';
import { splitAttachments } from '../../core/mentions/attachmentBlocks';
import type { HostUpdate } from '../../shared/protocol';
import type { ChatItem, ErrorView, SessionView, ToolCallView, UsageView, WaitingView } from '../../shared/views';
import { errorActions, isModelError, noticeActions } from './chatActions';
import { toToolCallView, toolCallChange } from './toolCallView';

/** Items in a page of older ones, sent when the user scrolls up to the first loaded item. */
export const PAGE_SIZE = 100;
/**
 * At most this much of the conversation (as posted, JSON characters) in one page: a page of
 * cards that each restored a long output would otherwise cost the open its time in posting and
 * parsing. A single item larger than this still goes, alone.
 */
export const PAGE_CHARS = 256 * 1024;
/**
 * The page the chat opens with: more than the tallest sidebar shows, and no more, since every
 * item in it is posted, parsed and drawn before the newest answer appears. Scrolling up pages
 * the rest in at PAGE_SIZE.
 */
export const FIRST_PAGE_SIZE = 30;
export const FIRST_PAGE_CHARS = 64 * 1024;

type TextItem = Extract<ChatItem, { kind: 'assistant' | 'thinking' }>;

/** Events that end a request's wait for its first token. */
const FIRST_TOKEN: ReadonlySet<AgentEvent['type']> = new Set([
	'textDelta',
	'reasoningDelta',
	'toolCallUpdated',
	'continueRequested',
	'turnFinished',
]);

/**
 * The host's view of one conversation: projects the agent's events into the items the chat
 * draws and says what changed, sized to the change (a status, an appended chunk). Items are
 * only ever appended, so an id keeps its index and every lookup is O(1).
 */
export class ChatView {
	private readonly _items: ChatItem[] = [];
	private readonly _index = new Map<string, number>();
	/** The streaming answer and thinking block of each running turn. */
	private readonly _openText = new Map<string, { assistant?: string; thinking?: string }>();
	/** Each running turn's latest answer, marked when the user stops the turn. */
	private readonly _lastAnswer = new Map<string, string>();
	private _counter = 0;
	private _busy = false;
	private _error: ErrorView | undefined;
	private _usage: UsageView | undefined;
	private _waiting: WaitingView | undefined;

	constructor(
		readonly sessionId: string,
		private _modelLabel: string,
		private _endpoint?: string,
		private _restricted = false,
	) {}

	setRestricted(restricted: boolean): HostUpdate {
		this._restricted = restricted;
		return { type: 'didSetRestricted', restricted };
	}

	get items(): readonly ChatItem[] {
		return this._items;
	}

	/** The whole conversation (the extension's API and tests); the webview gets `page()`. */
	get view(): SessionView {
		return { ...this._header(), items: this._items, olderCount: 0 };
	}

	/** What `ready` is answered with: the newest page, copied so later changes cannot leak in. */
	page(size = FIRST_PAGE_SIZE, chars = FIRST_PAGE_CHARS): SessionView {
		const { items, olderCount } = this._pageBefore(this._items.length, size, chars);
		return { ...this._header(), items, olderCount };
	}

	/** The page before `beforeId`; empty when the id is unknown or nothing is older. */
	older(beforeId: string, size = PAGE_SIZE, chars = PAGE_CHARS): { items: ChatItem[]; olderCount: number } {
		return this._pageBefore(this._index.get(beforeId) ?? 0, size, chars);
	}

	/** The newest items before `end`, at most `size` of them and `chars` of JSON (one item at least). */
	private _pageBefore(end: number, size: number, chars: number): { items: ChatItem[]; olderCount: number } {
		const items: ChatItem[] = [];
		let used = 0;
		let start = end;
		while (start > 0 && items.length < size) {
			const json = JSON.stringify(this._items[start - 1]);
			if (items.length > 0 && used + json.length > chars) {
				break;
			}
			// A copy through the JSON it is posted as: later changes to the item cannot leak in.
			items.push(JSON.parse(json) as ChatItem);
			used += json.length;
			start--;
		}
		return { items: items.reverse(), olderCount: start };
	}

	/** The card of a tool call, as last projected; undefined for an unknown id. */
	toolCall(id: string): ToolCallView | undefined {
		const item = this._find(id);
		return item?.kind === 'tool' ? item.call : undefined;
	}

	/** A new model or endpoint: an error about the old one (nothing answered, no such model) no longer holds. */
	setModel(modelLabel: string, endpoint?: string): HostUpdate[] {
		this._modelLabel = modelLabel;
		this._endpoint = endpoint;
		const updates: HostUpdate[] = [{ type: 'didSetModel', modelLabel, endpoint }];
		if (this._error && isModelError(this._error.code)) {
			this._error = undefined;
			updates.push({ type: 'didSetStatus', busy: this._busy });
		}
		return updates;
	}

	/** Restoring stored history: items in order, no updates. */
	push(item: ChatItem): void {
		this._index.set(item.id, this._items.length);
		this._items.push(item);
	}

	/** Applies one event; returns the updates to send (possibly none). */
	apply(event: AgentEvent): HostUpdate[] {
		// The first token, a question to the user or the end: the request no longer waits.
		const waited = FIRST_TOKEN.has(event.type) ? this._stopWaiting() : [];
		const updates = this._apply(event);
		return waited.length ? [...waited, ...updates] : updates;
	}

	private _apply(event: AgentEvent): HostUpdate[] {
		switch (event.type) {
			case 'prefill':
				this._waiting = {
					elapsedMs: event.elapsedMs,
					...(event.progress
						? {
								total: event.progress.total,
								cached: event.progress.cached,
								processed: event.progress.processed,
							}
						: {}),
				};
				return [{ type: 'didSetWaiting', waiting: { ...this._waiting } }];
			case 'turnStarted':
				return this._turnStarted(event);
			case 'textDelta':
				return [
					...this._close(event.turnId, 'thinking'),
					...this._appendText(event.turnId, 'assistant', event.text),
				];
			case 'reasoningDelta':
				return this._appendText(event.turnId, 'thinking', event.text);
			case 'toolCallUpdated':
				return this._toolCallUpdated(event);
			case 'notice': {
				const actions = noticeActions(event.code);
				return [
					this._add({
						kind: 'notice',
						id: `notice-${++this._counter}`,
						level: event.level,
						code: event.code,
						text: event.text,
						...(actions ? { actions } : {}),
					}),
				];
			}
			case 'textRetracted':
				return this._textRetracted(event);
			case 'continueRequested':
				return [
					...this._close(event.turnId),
					this._add({ kind: 'continue', id: event.id, text: event.text, state: 'pending' }),
				];
			case 'continueDecided':
				return this._continueDecided(event);
			case 'usage':
				this._usage = {
					contextTokens: event.promptTokens + event.completionTokens,
					contextWindow: event.contextWindow,
					estimated: event.estimated,
					turnRequests: event.turnRequests,
					turnTokens: event.turnTokens,
					...(event.cachedTokens !== undefined ? { cachedTokens: event.cachedTokens } : {}),
					...(event.prefilledTokens !== undefined ? { prefilledTokens: event.prefilledTokens } : {}),
					...(event.ttftMs !== undefined ? { ttftMs: event.ttftMs } : {}),
					...(event.windowNote ? { windowNote: event.windowNote } : {}),
				};
				return [{ type: 'didSetUsage', usage: { ...this._usage } }];
			case 'turnFinished':
				return this._turnFinished(event);
			case 'messageAppended':
				return [];
		}
	}

	private _stopWaiting(): HostUpdate[] {
		if (!this._waiting) {
			return [];
		}
		this._waiting = undefined;
		return [{ type: 'didSetWaiting' }];
	}

	private _turnStarted(event: Extract<AgentEvent, { type: 'turnStarted' }>): HostUpdate[] {
		this._error = undefined;
		this._busy = true;
		return [
			{ type: 'didSetStatus', busy: true },
			this._add(userItem(`${event.turnId}-user`, event.prompt, event.images)),
		];
	}

	private _toolCallUpdated(event: Extract<AgentEvent, { type: 'toolCallUpdated' }>): HostUpdate[] {
		// Text after a tool call starts a new bubble, so the order on screen follows the turn.
		const closed = this._close(event.turnId);
		const call = toToolCallView(event.call);
		const existing = this._find(call.id);
		if (existing?.kind !== 'tool') {
			return [...closed, this._add({ kind: 'tool', id: call.id, call })];
		}
		const change = toolCallChange(existing.call, call);
		existing.call = call;
		if (!change) {
			return closed;
		}
		const updates: HostUpdate[] = [...closed];
		if (Object.keys(change.patch).length > 0) {
			updates.push({ type: 'didPatchTool', itemId: call.id, patch: change.patch });
		}
		if (change.appendedProgress) {
			updates.push({ type: 'didAppendOutput', itemId: call.id, text: change.appendedProgress });
		}
		return updates;
	}

	private _textRetracted(event: Extract<AgentEvent, { type: 'textRetracted' }>): HostUpdate[] {
		const id = this._openText.get(event.turnId)?.assistant;
		this._forget(event.turnId, 'assistant');
		const item = id ? this._find(id) : undefined;
		if (item?.kind !== 'assistant') {
			return [];
		}
		item.streaming = false;
		item.retracted = event.reason;
		return [{ type: 'didUpsertItem', item: { ...item } }];
	}

	private _continueDecided(event: Extract<AgentEvent, { type: 'continueDecided' }>): HostUpdate[] {
		const item = this._find(event.id);
		if (item?.kind !== 'continue') {
			return [];
		}
		item.state = event.proceed ? 'continued' : 'stopped';
		return [{ type: 'didUpsertItem', item: { ...item } }];
	}

	private _turnFinished(event: Extract<AgentEvent, { type: 'turnFinished' }>): HostUpdate[] {
		const updates = this._close(event.turnId);
		this._openText.delete(event.turnId);
		this._busy = false;
		this._error =
			event.error && event.reason === 'failed'
				? { ...event.error, actions: errorActions(event.error.code) }
				: undefined;
		const answer = this._lastAnswer.get(event.turnId);
		this._lastAnswer.delete(event.turnId);
		const item = answer ? this._find(answer) : undefined;
		// A stopped turn's last words may be cut short: they say so.
		if (event.reason === 'cancelled' && item?.kind === 'assistant' && !item.retracted) {
			item.stopped = true;
			updates.push({ type: 'didUpsertItem', item: { ...item } });
		}
		updates.push({ type: 'didSetStatus', busy: false, error: this._error });
		return updates;
	}

	private _header(): Omit<SessionView, 'items' | 'olderCount'> {
		return {
			sessionId: this.sessionId,
			busy: this._busy,
			error: this._error,
			modelLabel: this._modelLabel,
			endpoint: this._endpoint,
			...(this._restricted ? { restricted: true } : {}),
			usage: this._usage,
			...(this._waiting ? { waiting: { ...this._waiting } } : {}),
		};
	}

	private _appendText(turnId: string, kind: TextItem['kind'], text: string): HostUpdate[] {
		const open = this._openText.get(turnId) ?? {};
		this._openText.set(turnId, open);
		const openId = open[kind];
		const item = openId ? this._find(openId) : undefined;
		if (item && (item.kind === 'assistant' || item.kind === 'thinking')) {
			item.text += text;
			return [{ type: 'didAppendText', itemId: item.id, text }];
		}
		const id = `${turnId}-${kind === 'assistant' ? 'a' : 'r'}${++this._counter}`;
		open[kind] = id;
		if (kind === 'assistant') {
			this._lastAnswer.set(turnId, id);
		}
		return [this._add({ kind, id, text, streaming: true })];
	}

	/** Ends the turn's streaming answer and/or thinking block. */
	private _close(turnId: string, only?: TextItem['kind']): HostUpdate[] {
		const open = this._openText.get(turnId);
		if (!open) {
			return [];
		}
		const updates: HostUpdate[] = [];
		for (const kind of only ? [only] : (['thinking', 'assistant'] as const)) {
			const openId = open[kind];
			const item = openId ? this._find(openId) : undefined;
			delete open[kind];
			if (item && (item.kind === 'assistant' || item.kind === 'thinking') && item.streaming) {
				item.streaming = false;
				updates.push({ type: 'didFinishText', itemId: item.id });
			}
		}
		return updates;
	}

	private _forget(turnId: string, kind: TextItem['kind']): void {
		const open = this._openText.get(turnId);
		if (open) {
			delete open[kind];
		}
	}

	private _add(item: ChatItem): HostUpdate {
		this.push(item);
		// A copy: the item keeps changing while the update waits in the channel's queue.
		return { type: 'didUpsertItem', item: structuredClone(item) };
	}

	private _find(id: string): ChatItem | undefined {
		const index = this._index.get(id);
		return index === undefined ? undefined : this._items[index];
	}
}

/** A user's message as the chat shows it: their words, with a chip for each file or selection Keel attached. */
export function userItem(
	id: string,
	prompt: string,
	images?: ReadonlyArray<{ name: string; bytes: number }>,
): Extract<ChatItem, { kind: 'user' }> {
	const { text, attachments } = splitAttachments(prompt);
	return {
		kind: 'user',
		id,
		text,
		...(images?.length ? { images: images.map(({ name, bytes }) => ({ name, bytes })) } : {}),
		...(attachments.length ? { attachments } : {}),
	};
}
