import type { NoticeCode } from '../../core/agent/noticeCodes';
import type { AgentEvent, NoticeLevel } from '../../core/agent/events';
import type { ImagePart } from '../../core/llm/imageParts';
import type { TurnOutcome } from '../../core/agent/loop/runAgent';
import type { CanonicalMessage } from '../../core/llm/canonical';
import type { SessionMemory } from '../../core/agent/memory/sessionMemory';
import { ChatSession, type ChatSessionDeps } from '../../core/session/chatSession';
import { Emitter } from '../../core/util/emitter';
import { newSessionId } from '../../core/util/ids';
import { Disposable, DisposableStore, type IDisposable } from '../../core/util/lifecycle';
import type { SessionView } from '../../shared/views';
import type { Logger } from '../../core/ports';
import type { ActiveConversation } from '../common/conversation';
import { type ChatView } from '../view/chatView';
import {
	chatViewFromHistory,
	FIRST_TAIL_MESSAGES,
	firstPageOfTail,
	type HistoryTail,
	type HistoryViewOptions,
} from '../view/fromHistory';
import { rawOutputPage } from '../view/rawOutput';
import type { WebviewChannel } from '../view/webviewChannel';

export type SessionFactory = (sessionId: string) => Omit<ChatSessionDeps, 'sessionId'> & {
	/** Where requests go, named in the chat's empty state. */
	endpoint?(): string;
	/** Restricted Mode (an untrusted workspace): the empty chat says only read tools run. */
	restricted?(): boolean;
};

/** A conversation read from the store: its messages and what its requests had decided. */
export interface StoredSession {
	sessionId: string;
	history: CanonicalMessage[];
	memory?: SessionMemory;
}

/** Where sessions are kept (sessionPersistence.ts); optional so the controller runs without a store. */
export interface SessionPersistencePort {
	lastSession(): StoredSession | undefined;
	/** The newest `limit` messages (at least) of the conversation `lastSession` would return, without reading the rest. */
	lastSessionTail?(limit: number): HistoryTail | undefined;
	load(sessionId: string): StoredSession | undefined;
	attach(session: ChatSession, sessionId: string): IDisposable;
}

/** The conversation on screen: its engine session, its view, and what is disposed with it. */
interface Current {
	readonly sessionId: string;
	readonly session: ChatSession;
	readonly view: ChatView;
	readonly disposables: DisposableStore;
}

/**
 * Owns the current conversation and connects it to the webview channel. Replaces the
 * session on "New Chat"; the old one is cancelled and disposed, never left running. The first
 * conversation (the last one stored) is started when something first needs it (the chat's
 * snapshot, a prompt, the API), so building the host opens no session store.
 */
export class SessionController extends Disposable implements ActiveConversation {
	private _current: Current | undefined;
	/** The first page sent from the stored conversation's newest part (as JSON), until it starts. */
	private _pageShownFromTail: string | undefined;
	private readonly _onDidEvent = this._register(new Emitter<AgentEvent>());
	readonly onDidEvent = this._onDidEvent.event;
	/** Whether a turn runs: the title-bar Stop shows only then. */
	private readonly _onDidChangeBusy = this._register(new Emitter<boolean>());
	readonly onDidChangeBusy = this._onDidChangeBusy.event;

	constructor(
		private readonly _factory: SessionFactory,
		private readonly _channel: WebviewChannel,
		private readonly _logger: Logger,
		private readonly _persistence?: SessionPersistencePort,
	) {
		super();
		this._register({ dispose: () => this._current?.disposables.dispose() });
	}

	/**
	 * Starts the conversation the chat shows (reads the stored one whole), if nothing has yet:
	 * once the chat has drawn the first page it was sent from the newest part.
	 */
	prepare(): void {
		void this._active;
	}

	/** The conversation on screen; the last session comes back exactly as it was (reload, restart, crash). */
	private get _active(): Current {
		if (!this._current) {
			const shown = this._pageShownFromTail;
			this._current = this._start(this._persistence?.lastSession());
			this._onDidChangeBusy.fire(false);
			const page = shown === undefined ? undefined : this._current.view.page();
			if (page && JSON.stringify(page) !== shown) {
				// Written to (another window, a new model setting) since its newest part was read:
				// the chat shows the conversation as it started.
				this._channel.reset({ type: 'didSnapshot', state: page });
			}
		}
		return this._current;
	}

	/** Whether the conversation on screen was started (its whole history read). */
	get started(): boolean {
		return this._current !== undefined;
	}

	get sessionId(): string {
		return this._active.sessionId;
	}

	get session(): ChatSession {
		return this._active.session;
	}

	/** Whether a turn of the current conversation runs; false before any conversation was started. */
	get busy(): boolean {
		return this._current?.session.busy ?? false;
	}

	/** Switches to a stored session; the current one is stopped and its partial answer kept. */
	resume(sessionId: string): boolean {
		const stored = this._persistence?.load(sessionId);
		if (!stored) {
			return false;
		}
		this._replace(stored);
		return true;
	}

	/** The whole conversation, for the extension's API. */
	snapshot(): SessionView {
		return structuredClone(this._active.view.view);
	}

	/**
	 * What the webview gets on open: the newest page only. Before the conversation has started,
	 * it comes from the newest part of the stored one, so a long conversation is on screen
	 * before it is read whole; starting it (`prepare`) sends it again if it differs.
	 */
	page(): SessionView {
		return (this._current ? undefined : this._pageFromTail()) ?? this._active.view.page();
	}

	private _pageFromTail(): SessionView | undefined {
		const persistence = this._persistence;
		// Four tails at most, each four times longer; then the conversation is read whole.
		for (
			let limit = FIRST_TAIL_MESSAGES, reads = 0;
			persistence?.lastSessionTail && reads < 4;
			limit *= 4, reads++
		) {
			const tail = persistence.lastSessionTail(limit);
			if (!tail) {
				return undefined;
			}
			const page = firstPageOfTail(tail, viewOptions(this._factory(tail.sessionId)));
			if (page) {
				this._pageShownFromTail = JSON.stringify(page);
				return page;
			}
		}
		return undefined;
	}

	/** The webview scrolled up to `beforeId`: send the page before it. */
	loadOlder(beforeId: string): void {
		const { items, olderCount } = this._active.view.older(beforeId);
		this._channel.push({ type: 'didPrependItems', items, olderCount });
		this._channel.flush();
	}

	/** "Show unfiltered": sends a page of a card's raw output, read from this session's output store. */
	async sendRawOutput(
		toolCallId: string,
		offset: number,
		read: (sessionId: string, ref: string) => Promise<string | undefined>,
	): Promise<void> {
		const { sessionId, view } = this._active;
		this._channel.push(
			await rawOutputPage(view.toolCall(toolCallId), toolCallId, offset, ref => read(sessionId, ref)),
		);
		this._channel.flush();
	}

	transcript(): CanonicalMessage[] {
		return structuredClone(this._active.session.history);
	}

	/** From the webview: errors are already in the view as a failed turn, so only log here. */
	sendFromUser(text: string, images?: ImagePart[]): void {
		this.send(text, images).catch(error => this._logger.warn(`prompt refused: ${(error as Error).message}`));
	}

	send(text: string, images?: ImagePart[]): Promise<TurnOutcome> {
		return this._active.session.send(text, images);
	}

	decide(toolCallId: string, approved: boolean, reason?: string, always?: boolean): boolean {
		const accepted = this._current?.session.decide(toolCallId, approved, reason, always) ?? false;
		if (!accepted) {
			this._logger.warn(`ignored a decision for ${toolCallId}: it is not awaiting approval`);
		}
		return accepted;
	}

	decideContinue(id: string, proceed: boolean): boolean {
		const accepted = this._current?.session.decideContinue(id, proceed) ?? false;
		if (!accepted) {
			this._logger.warn(`ignored a continue decision for ${id}: nothing is waiting for it`);
		}
		return accepted;
	}

	stop(): void {
		this._current?.session.cancel();
	}

	/** A notice from outside the loop, drawn like a guard's notice; view-only, never part of the transcript. */
	showNotice(notice: { turnId?: string; level: NoticeLevel; code: NoticeCode; text: string }): void {
		for (const update of this._active.view.apply({
			type: 'notice',
			turnId: notice.turnId ?? '',
			level: notice.level,
			code: notice.code,
			text: notice.text,
		})) {
			this._channel.push(update);
		}
	}

	/** The same, only while `sessionId` is the conversation on screen (a late notice of another chat is dropped). */
	showNoticeIn(
		sessionId: string,
		notice: { turnId?: string; level: NoticeLevel; code: NoticeCode; text: string },
	): void {
		if (this._current?.sessionId === sessionId) {
			this.showNotice(notice);
		}
	}

	/** The model setting changed: the header and empty state name the new one (a conversation not yet shown reads it when it starts). */
	setModel(modelLabel: string, endpoint?: string): void {
		if (this._current) {
			this._current.view.setModel(modelLabel, endpoint).forEach(update => this._channel.push(update));
		}
	}

	/** Workspace Trust was granted (or revoked): the chat on screen says what runs now. */
	setRestricted(restricted: boolean): void {
		if (this._current) {
			this._channel.push(this._current.view.setRestricted(restricted));
		}
	}

	newChat(): void {
		this._replace(undefined);
	}

	private _replace(stored: StoredSession | undefined): void {
		this._current?.session.cancel();
		this._current = this._start(stored);
		this._onDidChangeBusy.fire(false);
		this._channel.reset({ type: 'didSnapshot', state: this.page() });
	}

	private _start(stored?: StoredSession): Current {
		this._pageShownFromTail = undefined;
		this._current?.disposables.dispose();
		const disposables = new DisposableStore();
		const sessionId = stored?.sessionId ?? newSessionId();
		const deps = this._factory(sessionId);
		const session = disposables.add(
			new ChatSession({ sessionId, ...deps, history: stored?.history, memory: stored?.memory }),
		);
		const view = chatViewFromHistory(sessionId, session.history, viewOptions(deps));
		disposables.add(
			session.onDidEvent(event => {
				for (const update of view.apply(event)) {
					this._channel.push(update);
					if (update.type === 'didSetStatus') {
						this._onDidChangeBusy.fire(update.busy);
					}
				}
				this._onDidEvent.fire(event);
			}),
		);
		if (this._persistence) {
			// Added last, disposed first: a half-streamed answer is written before the session goes.
			disposables.add(this._persistence.attach(session, sessionId));
		}
		return { sessionId, session, view, disposables };
	}
}

/** What a view of a stored conversation shows beside it, as the session's settings say now. */
function viewOptions(deps: ReturnType<SessionFactory>): HistoryViewOptions {
	return {
		modelLabel: deps.modelLabel?.() ?? '',
		titleFor: (name, raw) => deps.registry.titleFor(name, raw),
		endpoint: deps.endpoint?.(),
		restricted: deps.restricted?.(),
	};
}
