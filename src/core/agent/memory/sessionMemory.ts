import type { CanonicalMessage } from '../../llm/canonical';
import type { ToolSelection } from '../toolPolicy/toolSelection';
import type { Cut } from '../guards/resultCuts';

/**
 * What a session remembers between its requests so each one extends the one before: a local
 * server (llama.cpp, Ollama, vLLM, LM Studio) re-reads everything after the first token that
 * changed, so anything decided once (the system prompt, the offered tools and their order,
 * which tool outputs were compacted, whether reasoning is sent back) is decided once per
 * session, not per turn or per step. `ChatSession` keeps one; a bare `runTurn` gets a fresh one.
 */
export class SessionMemory {
	/** The system prompt as the session first sent it; later changes travel as notes in the history. */
	systemPrompt: string | undefined;
	/** The instructions the last turn had (the system prompt plus the notes of changes since). */
	instructions: string | undefined;
	/** The tools offered in this session, in the order first offered (request_tools appends). */
	selection: ToolSelection | undefined;
	/** Tool calls whose outputs were replaced by a stub: they stay stubbed for the rest of the session. */
	readonly stubbed = new Set<string>();
	/** Tool results sent in part (start and end) after the server found them too large: the characters kept and where the whole is, by call id. */
	readonly cut = new Map<string, Cut>();
	/** A size the server refused (its context overflowed): requests stay under it for the session. */
	budgetCap: number | undefined;
	/** On once the server could not compile the tool schemas: fewer tools, simplest schemas, for the session. */
	simplerTools = false;
	/** Off once the server refused the model's reasoning sent back: it stays off for the session. */
	sendReasoning = true;
	/** The last request, to tell a prompt the server read from its cache from one it cut short. */
	lastRequest: { messages: readonly CanonicalMessage[]; estimate: number } | undefined;
	/** The window the last turn planned for (Ollama was asked for it as num_ctx). */
	askedWindow: number | undefined;
	/**
	 * The server's template renders reasoning in every earlier message (llama.cpp's
	 * `supports_preserve_reasoning`): reasoning goes back in every request. Decided the first
	 * time the server says, then kept, so the requests of the session keep extending each other.
	 */
	keepReasoning: boolean | undefined;
	/** Warnings already given in this chat (a server's smaller window), when the caller keeps none across chats. */
	readonly shown = new Set<string>();
}

/**
 * Keel's estimate of what a server with the previous request cached has to read now: all of
 * it unless the previous request's messages are this one's first messages, else the growth.
 */
export function expectedPrefill(
	previous: SessionMemory['lastRequest'],
	messages: readonly CanonicalMessage[],
	estimate: number,
): number {
	if (!previous || previous.messages.length > messages.length) {
		return estimate;
	}
	const extends_ = previous.messages.every((m, i) => m === messages[i] || sameMessage(m, messages[i]));
	return extends_ ? Math.max(0, estimate - previous.estimate) : estimate;
}

function sameMessage(a: CanonicalMessage, b: CanonicalMessage): boolean {
	return a.kind === b.kind && a.content === b.content;
}
