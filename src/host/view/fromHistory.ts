import type { CanonicalMessage } from '../../core/llm/canonical';
import { toolErrorMessage } from '../../core/agent/recovery/toolErrors';
import type { ToolCallStatus } from '../../shared/views';
import { ChatView, userItem } from './chatView';

type ToolResult = Extract<CanonicalMessage, { kind: 'tool_result' }>;

/**
 * Rebuilds the view of a stored conversation (a resumed session), with no live turn.
 * `titleFor` gives restored cards the title they had live ("Read src/app.ts"), not the bare tool name.
 */
export function chatViewFromHistory(
	sessionId: string,
	modelLabel: string,
	history: readonly CanonicalMessage[],
	titleFor?: (name: string, rawArguments: string) => string | undefined,
	endpoint?: string,
	restricted?: boolean,
): ChatView {
	const view = new ChatView(sessionId, modelLabel, endpoint, restricted);
	const results = new Map(history.flatMap(m => (m.kind === 'tool_result' ? [[m.data.toolCallId, m] as const] : [])));
	history.forEach((message, index) => {
		const id = `h${index}`;
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
