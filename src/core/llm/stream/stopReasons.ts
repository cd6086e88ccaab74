import { AgentError } from '../../errors';

/**
 * Why a response ended, by meaning, on every wire. Each wire has its own words for the same
 * few things (OpenAI's `finish_reason`, Anthropic's `stop_reason`, Ollama's `done_reason`);
 * the loop acts on the meaning, and a reason nobody listed is kept as sent and shown, never
 * guessed to be a normal stop.
 * https://platform.openai.com/docs/api-reference/chat/object (finish_reason)
 * https://docs.anthropic.com/en/api/handling-stop-reasons (stop_reason)
 */
export type StopMeaning =
	'stop' | 'tool_calls' | 'length' | 'context_window' | 'refusal' | 'content_filter' | 'pause' | 'unknown';

/** The reason a wire sent → its meaning. Words, not a list: "context_length_exceeded" reads as the window. */
export function stopMeaning(raw: string | null | undefined): StopMeaning {
	const reason = (raw ?? '').trim().toLowerCase();
	if (!reason || /^(?:stop|end_turn|stop_sequence|eos|eos_token|end|complete|completed|finished|done)$/.test(reason))
		return 'stop';
	if (/tool|function/.test(reason)) return 'tool_calls';
	if (/context|window|prompt_too_long|input_too_long/.test(reason)) return 'context_window';
	if (/length|max_tokens|max_output|token_limit|truncat/.test(reason)) return 'length';
	if (/refus/.test(reason)) return 'refusal';
	if (/filter|safety|recitation|blocked|prohibited|moderation/.test(reason)) return 'content_filter';
	if (/pause/.test(reason)) return 'pause';
	return 'unknown';
}

/**
 * The finish reason the loop keys on: the known meanings by their canonical names, an unknown
 * reason as the server sent it. A full context window is not an answer: it is the overflow
 * error, so recovery compacts and sends the request again once.
 */
export function finishReason(raw: string | null | undefined): string {
	const meaning = stopMeaning(raw);
	if (meaning === 'context_window') {
		throw new AgentError(
			'contextOverflow',
			`The model stopped because its context window is full (stop reason "${raw}").`,
			{ body: String(raw) },
		);
	}
	return meaning === 'unknown' ? String(raw) : meaning;
}

/** What the chat says about a response that ended for a reason other than an answer or a call; undefined for those. */
export function stopReasonNotice(reason: string): string | undefined {
	switch (stopMeaning(reason)) {
		case 'stop':
		case 'tool_calls':
		case 'length':
		case 'context_window':
			return undefined;
		case 'refusal':
			return 'The model refused to answer this request (stop reason "refusal"); rephrase it or choose another model.';
		case 'content_filter':
			return `The server's content filter stopped the answer (stop reason "${reason}"); what was written before it is shown.`;
		case 'pause':
			return `The server paused the turn (stop reason "${reason}"); what was written was sent back so the model continues.`;
		case 'unknown':
			return `The model stopped for a reason Keel does not know ("${reason}"); what it wrote is shown as is.`;
	}
}
