import { AgentError } from '../../errors';

/**
 * Errors arrive in many envelopes: `{"error": "…"}`, `{"error": {"message": …}}`, vLLM's
 * `{"object": "error", "message": …}`, Anthropic's `{"type": "error", "error": {…}}`,
 * FastAPI's `{"detail": …}`, a chunk whose `finish_reason` is `"error"`, Gemini's
 * `[{"error": …}]`. One reading for all of them, on every wire and whatever the HTTP status.
 */

/** The error a decoded payload carries, or undefined when the payload is not an error. */
export function payloadError(value: unknown): { message: string; body: string } | undefined {
	const item = Array.isArray(value) && value.length === 1 ? value[0] : value;
	if (!item || typeof item !== 'object' || Array.isArray(item)) {
		return undefined;
	}
	const record = item as Record<string, unknown>;
	const finish = (record.choices as Array<{ finish_reason?: unknown }> | undefined)?.[0]?.finish_reason;
	const isError =
		(record.error !== undefined && record.error !== null && record.error !== false) ||
		record.object === 'error' ||
		record.type === 'error' ||
		finish === 'error' ||
		(typeof record.detail === 'string' && !('choices' in record) && !('message' in record));
	if (!isError) {
		return undefined;
	}
	return { message: messageOf(record) ?? 'the server reported an error', body: JSON.stringify(value) };
}

/** The human sentence inside an error payload, however deep its envelope put it. */
export function messageOf(value: unknown, depth = 0): string | undefined {
	if (typeof value === 'string') {
		return value.trim() || undefined;
	}
	if (!value || typeof value !== 'object' || depth > 3) {
		return undefined;
	}
	if (Array.isArray(value)) {
		return value.length > 0 ? messageOf(value[0], depth + 1) : undefined;
	}
	const record = value as Record<string, unknown>;
	for (const key of ['error', 'message', 'detail', 'msg', 'error_message', 'description']) {
		const found = messageOf(record[key], depth + 1);
		if (found) {
			return found;
		}
	}
	return undefined;
}

/** Every string inside a payload: where a server puts the model's failed output, we look. */
export function stringLeaves(value: unknown, depth = 0): string[] {
	if (typeof value === 'string') {
		return [value];
	}
	if (!value || typeof value !== 'object' || depth > 5) {
		return [];
	}
	return Object.values(value as Record<string, unknown>).flatMap(v => stringLeaves(v, depth + 1));
}

/** An error the server reported inside a response that had started as HTTP 200, in its words. */
export function inStreamError(message: string, body: string): never {
	throw new AgentError('modelStream', `The model server reported an error mid-answer: ${message}`, {
		body,
		inStream: true,
	});
}
