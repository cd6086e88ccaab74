import type { AgentEvent, NoticeLevel } from '../../core/agent/events';
import type { TurnOutcome } from '../../core/agent/loop/runAgent';
import type { NoticeCode } from '../../core/agent/noticeCodes';
import type { ImagePart } from '../../core/llm/imageParts';
import type { Event } from '../../core/util/emitter';
import type { SessionView } from '../../shared/views';

/** A line from outside the loop, drawn in the chat like a guard's notice. */
export interface ChatNotice {
	turnId?: string;
	level: NoticeLevel;
	code: NoticeCode;
	text: string;
}

/**
 * The conversation on screen as the features below the session see it: its id and events, and
 * what they may ask of it. The session controller (session/sessionController.ts) implements it
 * and the composition root hands it over; each feature names the part it uses (`Pick<…>`), so
 * none of them imports the session.
 */
export interface ActiveConversation {
	readonly sessionId: string;
	/** Whether a turn runs. */
	readonly busy: boolean;
	readonly onDidEvent: Event<AgentEvent>;
	readonly onDidChangeBusy: Event<boolean>;
	/** A turn from the user, as if typed in the composer. */
	sendFromUser(text: string, images?: ImagePart[]): void;
	/** A turn whose outcome the caller waits for. */
	send(text: string, images?: ImagePart[]): Promise<TurnOutcome>;
	/** Allow or Deny on a tool call's card; false when it is not waiting. */
	decide(toolCallId: string, approved: boolean, reason?: string, always?: boolean): boolean;
	/** Continue or Stop at the step cap; false when `id` is not waiting. */
	decideContinue(id: string, proceed: boolean): boolean;
	stop(): void;
	newChat(): void;
	showNotice(notice: ChatNotice): void;
	/** The same, only while `sessionId` is the conversation on screen. */
	showNoticeIn(sessionId: string, notice: ChatNotice): void;
	/** The model setting changed: the chat names the new one. */
	setModel(modelLabel: string, endpoint?: string): void;
	/** Workspace Trust changed: the chat says what runs now. */
	setRestricted(restricted: boolean): void;
	/** The whole conversation as the chat draws it. */
	snapshot(): SessionView;
	/** What the chat gets on open: the newest page only (before `started`, from the stored conversation's newest part). */
	page(): SessionView;
	/** Whether the conversation on screen was started (the stored one read whole). */
	readonly started: boolean;
	/** Starts it now, if not yet started. */
	prepare(): void;
	/** The chat scrolled up to `beforeId`: it gets the page before it. */
	loadOlder(beforeId: string): void;
	/** "Show unfiltered": a page of a card's raw output, read through `read` from the session's outputs. */
	sendRawOutput(
		toolCallId: string,
		offset: number,
		read: (sessionId: string, ref: string) => Promise<string | undefined>,
	): Promise<void>;
}
