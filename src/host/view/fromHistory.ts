import type { CanonicalMessage } from '../../core/llm/canonical';
import { toolErrorMessage } from '../../core/agent/recovery/toolErrors';
import type { SessionView, ToolCallStatus } from '../../shared/views';
import { ChatView, userItem } from './chatView';

type ToolResult = Extract<CanonicalMessage, { kind: 'tool_result' }>;

/** What a rebuilt view shows beside the conversation, and where its messages start. */
export interface HistoryViewOptions {
	modelLabel: string;
	/** Gives restored cards the title they had live ("Read src/app.ts"), not the bare tool name. */
	titleFor?: (name: string, rawArguments: string) => string | undefined;
	endpoint?: string;
	restricted?: boolean;
	/** The index of the first message in the whole conversation (a tail starts after the others). */
	firstIndex?: number;
}

/** The kinds of stored message the chat draws one item for, each; the others draw none. */
const ITEM_KINDS: ReadonlyArray<CanonicalMessage['kind']> = ['user', 'assistant', 'tool_call'];

/**
 * Rebuilds the view of a stored conversation (a resumed session), with no live turn. An item's
 * id comes from its message's place in the whole conversation, so a view of its newest part
 * names each item as the view of the whole does.
 */
export function chatViewFromHistory(
	sessionId: string,
	history: readonly CanonicalMessage[],
	options: HistoryViewOptions,
): ChatView {
	const { titleFor, firstIndex = 0 } = options;
	const view = new ChatView(sessionId, options.modelLabel, options.endpoint, options.restricted);
	const results = new Map(history.flatMap(m => (m.kind === 'tool_result' ? [[m.data.toolCallId, m] as const] : [])));
	history.forEach((message, index) => {
		const id = `h${firstIndex + index}`;
		if (message.kind === 'user') {
			view.push(userItem(id, message.content, message.images));
		} else if (message.kind === 'assistant') {
			view.push({ kind: 'assistant', id, text: message.content, streaming: false });
		} else if (message.kind === 'tool_call') {
			const result = results.get(message.data.id);
			const title = titleFor?.(message.data.name, message.data.rawArguments) ?? message.data.name;
			view.push({
				kind: 'tool',
				id: message.data.id,
				call: {
					id: message.data.id,
					name: message.data.name,
					title,
					argumentsText: message.data.rawArguments,
					status: restoredStatus(result),
					output: result ? toolErrorMessage(result.content) : undefined,
				},
			});
		}
	});
	return view;
}

/** Stored messages read for the chat's first page: enough in most conversations (a longer tail is read when not). */
export const FIRST_TAIL_MESSAGES = 128;

/** The newest part of a stored conversation: its last messages, and how many of each kind come before them. */
export interface HistoryTail {
	sessionId: string;
	messages: CanonicalMessage[];
	before: Partial<Record<CanonicalMessage['kind'], number>>;
}

/**
 * The chat's first page of a stored conversation, from its newest part alone: the page the view
 * of the whole conversation gives, or undefined when the tail is too short to be sure of it
 * (the page reached the tail's first message with more before it: read a longer tail). A
 * tool call's result follows its call, so every card in the tail has its outcome.
 */
export function firstPageOfTail(
	tail: HistoryTail,
	options: Omit<HistoryViewOptions, 'firstIndex'>,
): SessionView | undefined {
	const count = (kinds: ReadonlyArray<CanonicalMessage['kind']>) =>
		kinds.reduce((sum, kind) => sum + (tail.before[kind] ?? 0), 0);
	const firstIndex = count(Object.keys(tail.before) as Array<CanonicalMessage['kind']>);
	const page = chatViewFromHistory(tail.sessionId, tail.messages, { ...options, firstIndex }).page();
	if (page.olderCount === 0 && firstIndex > 0) {
		return undefined;
	}
	return { ...page, olderCount: page.olderCount + count(ITEM_KINDS) };
}

function restoredStatus(result: ToolResult | undefined): ToolCallStatus {
	if (!result || result.data.errorKind === 'interrupted') {
		return 'interrupted';
	}
	if (result.data.ok) {
		return 'succeeded';
	}
	return result.data.errorKind === 'denied'
		? 'denied'
		: result.data.errorKind === 'cancelled'
			? 'cancelled'
			: 'failed';
}
