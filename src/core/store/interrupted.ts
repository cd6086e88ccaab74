import { toolResultMessage, type CanonicalMessage } from '../llm/canonical';

export const INTERRUPTED_OUTPUT =
	'This call was interrupted (VS Code was closed, reloaded or crashed) before its result was recorded. ' +
	'It will not be run again. It may or may not have taken effect: check the current state before calling it again.';

/**
 * Tool calls of a stored history that never got a result. Each gets a matching "interrupted"
 * result, appended on resume before the next request: every provider rejects a history with an
 * unanswered call, and the call itself is never re-run (an approved command runs at most once).
 */
export function interruptedResults(history: readonly CanonicalMessage[]): CanonicalMessage[] {
	const answered = new Set(history.flatMap(m => (m.kind === 'tool_result' ? [m.data.toolCallId] : [])));
	return history.flatMap(m =>
		m.kind === 'tool_call' && !answered.has(m.data.id)
			? [
					toolResultMessage({
						toolCallId: m.data.id,
						name: m.data.name,
						output: INTERRUPTED_OUTPUT,
						ok: false,
						errorKind: 'interrupted',
					}),
				]
			: [],
	);
}
