import type { NoticeCode } from '../../core/agent/noticeCodes';
import type { AgentEvent, NoticeLevel } from '../../core/agent/events';
import type { ImagePart } from '../../core/llm/imageParts';
import type { TurnOutcome } from '../../core/agent/loop/runAgent';
import type { CanonicalMessage } from '../../core/llm/canonical';
import { ChatSession, type ChatSessionDeps } from '../../core/session/chatSession';
import { Emitter } from '../../core/util/emitter';
import { Disposable, DisposableStore, type IDisposable } from '../../core/util/lifecycle';
import type { SessionView } from '../../shared/views';
import type { Logger } from '../../core/ports';
import { type ChatView } from '../chat/chatView';
import { chatViewFromHistory } from '../chat/fromHistory';
import { rawOutputPage } from '../chat/rawOutput';
import type { WebviewChannel } from '../chat/webviewChannel';

export type SessionFactory = (sessionId: string) => Omit<ChatSessionDeps, 'sessionId'> & {
	/** Where requests go, named in the chat's empty state. */
	endpoint?(): string;
};

/** Where sessions are kept (sessionPersistence.ts); optional so the controller runs without a store. */
export interface SessionPersistencePort {
	lastSession(): { sessionId: string; history: CanonicalMessage[] } | undefined;
	load(sessionId: string): { sessionId: string; history: CanonicalMessage[] } | undefined;
	attach(session: ChatSession, sessionId: string): IDisposable;
}

/**
 * Owns the current conversation and connects it to the webview channel. Replaces the
 * session on "New Chat"; the old one is cancelled and disposed, never left running.
 */
export class SessionController extends Disposable {
	private _session!: ChatSession;
	private _view!: ChatView;
	private _sessionId = '';
	private _sessionStore = new DisposableStore();
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
		this._register({ dispose: () => this._sessionStore.dispose() });
		// The last session comes back exactly as it was (reload, restart, crash).
		this._start(this._persistence?.lastSession());
	}

	get sessionId(): string {
		return this._sessionId;
	}

	/** Switches to a stored session; the current one is stopped and its partial answer kept. */
	resume(sessionId: string): boolean {
		const stored = this._persistence?.load(sessionId);
		if (!stored) {
			return false;
		}
		this._session.cancel();
		this._start(stored);
		this._channel.reset({ type: 'didSnapshot', state: this.page() });
		return true;
	}

	get session(): ChatSession {
		return this._session;
	}

	/** The whole conversation, for the extension's API. */
	snapshot(): SessionView {
		return structuredClone(this._view.view);
	}

	/** What the webview gets on open: the newest page only. */
	page(): SessionView {
		return this._view.page();
	}

	/** The webview scrolled up to `beforeId`: send the page before it. */
	loadOlder(beforeId: string): void {
		const { items, olderCount } = this._view.older(beforeId);
		this._channel.push({ type: 'didPrependItems', items, olderCount });
		this._channel.flush();
	}

	/** "Show unfiltered": sends a page of a card's raw output, read from this session's output store. */
	async sendRawOutput(
		toolCallId: string,
		offset: number,
		read: (sessionId: string, ref: string) => Promise<string | undefined>,
	): Promise<void> {
		const sessionId = this._sessionId;
		this._channel.push(
			await rawOutputPage(this._view.toolCall(toolCallId), toolCallId, offset, ref => read(sessionId, ref)),
		);
		this._channel.flush();
	}

	transcript(): CanonicalMessage[] {
		return structuredClone(this._session.history);
	}

	/** From the webview: errors are already in the view as a failed turn, so only log here. */
	sendFromUser(text: string): void {
		this.send(text).catch(error => this._logger.warn(`prompt refused: ${(error as Error).message}`));
	}

	send(text: string, images?: ImagePart[]): Promise<TurnOutcome> {
		return this._session.send(text, images);
	}

	decide(toolCallId: string, approved: boolean, reason?: string, always?: boolean): boolean {
		const accepted = this._session.decide(toolCallId, approved, reason, always);
		if (!accepted) {
			this._logger.warn(`ignored a decision for ${toolCallId}: it is not awaiting approval`);
		}
		return accepted;
	}

	decideContinue(id: string, proceed: boolean): boolean {
		const accepted = this._session.decideContinue(id, proceed);
		if (!accepted) {
			this._logger.warn(`ignored a continue decision for ${id}: nothing is waiting for it`);
		}
		return accepted;
	}

	stop(): void {
		this._session.cancel();
	}

	/** A notice from outside the loop, drawn like a guard's notice; view-only, never part of the transcript. */
	showNotice(notice: { turnId?: string; level: NoticeLevel; code: NoticeCode; text: string }): void {
		for (const update of this._view.apply({
			type: 'notice',
			turnId: notice.turnId ?? '',
			level: notice.level,
			code: notice.code,
			text: notice.text,
		})) {
			this._channel.push(update);
		}
	}

	/** The model setting changed: the header and empty state name the new one. */
	setModel(modelLabel: string, endpoint?: string): void {
		this._channel.push(this._view.setModel(modelLabel, endpoint));
	}

	newChat(): void {
		this._session.cancel();
		this._start();
		this._channel.reset({ type: 'didSnapshot', state: this.page() });
	}

	private _start(stored?: { sessionId: string; history: CanonicalMessage[] }): void {
		this._sessionStore.dispose();
		this._sessionStore = new DisposableStore();
		const sessionId = stored?.sessionId ?? `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
		this._sessionId = sessionId;
		const deps = this._factory(sessionId);
		this._session = this._sessionStore.add(new ChatSession({ sessionId, ...deps, history: stored?.history }));
		const view = (this._view = chatViewFromHistory(
			sessionId,
			deps.modelLabel?.() ?? '',
			this._session.history,
			(name, raw) => deps.registry.titleFor(name, raw),
			deps.endpoint?.(),
		));
		this._sessionStore.add(
			this._session.onDidEvent(event => {
				for (const update of view.apply(event)) {
					this._channel.push(update);
					if (update.type === 'didSetStatus') {
						this._onDidChangeBusy.fire(update.busy);
					}
				}
				this._onDidEvent.fire(event);
			}),
		);
		this._onDidChangeBusy.fire(false);
		if (this._persistence) {
			// Added last, disposed first: a half-streamed answer is written before the session goes.
			this._sessionStore.add(this._persistence.attach(this._session, sessionId));
		}
	}
}
