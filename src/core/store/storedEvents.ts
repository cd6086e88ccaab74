import type { CanonicalMessage } from '../llm/canonical';

/** One stored message of a session, in its place. */
export interface StoredEvent {
	seq: number;
	turnId?: string;
	createdAt: number;
	message: CanonicalMessage;
}

export const PRUNED_OUTPUT = '(output no longer stored: removed by keel.history.toolOutputRetentionDays)';

/** A row of `EVENT_ROWS`, as SQLite gives it. */
export type EventRow = Record<string, string | number | null>;

/** An event with its tool output (kept in its own table so retention can drop it). */
export const EVENT_ROWS = `SELECT e.seq, e.kind, e.turn_id, e.created_at, e.content, e.data, o.output
	FROM events e LEFT JOIN tool_outputs o ON o.session_id = e.session_id AND o.call_id = e.call_id AND e.kind = 'tool_result'`;

export function toEvent(row: EventRow): StoredEvent {
	return {
		seq: Number(row.seq),
		turnId: (row.turn_id as string | null) ?? undefined,
		createdAt: Number(row.created_at),
		message: toMessage(row),
	};
}

function toMessage(row: EventRow): CanonicalMessage {
	const kind = row.kind as CanonicalMessage['kind'];
	const content = String(row.content ?? '');
	if (kind === 'tool_call') {
		const data = JSON.parse(String(row.data));
		return { kind, content: `${data.name}(${data.rawArguments})`, data };
	}
	if (kind === 'tool_result') {
		const output = row.output === null || row.output === undefined ? PRUNED_OUTPUT : String(row.output);
		return { kind, content: output, data: { ...JSON.parse(String(row.data)), output } };
	}
	if (kind === 'user' && row.data) {
		return { kind, content, images: JSON.parse(String(row.data)).images };
	}
	return { kind, content } as CanonicalMessage;
}
