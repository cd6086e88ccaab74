import type { Gate } from '../gate/gate';
import type { CanonicalMessage } from '../llm/canonical';
import type { StoredEvent } from '../store/sessionStore';

/** An export's part of the gate: where it may be saved (throws with the reason), and what it may copy. */
export interface ExportGate<Target> {
	check(target: Target): Promise<void>;
	filter(messages: readonly CanonicalMessage[]): CanonicalMessage[];
}

/** The argument names that carry a workspace path in Keel's tools. */
const PATH_ARGUMENTS = ['path', 'from', 'to'];
const ATTACHMENT = /Attached (file|selection) (\S+?)(?::\d+-\d+)? \([^)\n]*\):\n(`{3,})\n[\s\S]*?\n\3/g;

/**
 * A session as an export copies it, with today's deny list applied again: a tool result of a call
 * on a path that `keptOut` refuses now, and an attached file or selection from one, are replaced by
 * a line saying so. The store keeps what the gate allowed when it was read; an export leaving
 * Keel is decided with the rules as they are.
 */
export function withoutKeptOut(
	messages: readonly CanonicalMessage[],
	keptOut: (path: string) => string | undefined,
): CanonicalMessage[] {
	const refusedCalls = new Map<string, string>();
	for (const message of messages) {
		if (message.kind === 'tool_call') {
			const args = (message.data.arguments ?? {}) as Record<string, unknown>;
			const hit = PATH_ARGUMENTS.map(name => args[name]).find(
				(value): value is string =>
					typeof value === 'string' && keptOut(value.replace(/^\.\//, '')) !== undefined,
			);
			if (hit !== undefined) {
				refusedCalls.set(message.data.id, hit);
			}
		}
	}
	return messages.map(message => {
		if (message.kind === 'tool_result' && refusedCalls.has(message.data.toolCallId)) {
			const line = `[left out of the export: ${refusedCalls.get(message.data.toolCallId)} is on the deny list now]`;
			return { ...message, content: line, data: { ...message.data, output: line } };
		}
		if (message.kind === 'user' && message.content.includes('Attached ')) {
			const content = message.content.replace(ATTACHMENT, (block, kind: string, path: string) =>
				keptOut(path) === undefined
					? block
					: `[attached ${kind} ${path} left out of the export: it is on the deny list now]`,
			);
			return content === message.content ? message : { ...message, content };
		}
		return message;
	});
}

/** A session's messages as an export may copy them: what the gate keeps out of stores today is left out. */
export function exportable(
	gate: Pick<Gate, 'keptOutOfStores'>,
	messages: readonly CanonicalMessage[],
): CanonicalMessage[] {
	return withoutKeptOut(messages, path => gate.keptOutOfStores(path));
}

/** Stored events with their messages as an export may copy them. */
export function filteredEvents(
	events: readonly StoredEvent[],
	filter: (messages: readonly CanonicalMessage[]) => CanonicalMessage[],
): StoredEvent[] {
	const messages = filter(events.map(e => e.message));
	return events.map((event, i) => ({ ...event, message: messages[i] }));
}
