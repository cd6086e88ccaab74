/**
 * Canonical messages: the provider-agnostic history. Adapters translate these to and from
 * each wire format, the store persists them, so a session can switch provider mid-way.
 */
export interface ToolCallData {
	id: string;
	name: string;
	/** Parsed arguments when they parsed; the raw text is kept beside them for repair and replay. */
	arguments: unknown;
	rawArguments: string;
	/**
	 * The provider's reasoning before this batch of calls (on its first call). DeepSeek, Kimi
	 * and Ollama thinking models want it back within the turn that made the calls; it is
	 * never shown as an answer and never sent to a server that did not send it.
	 */
	reasoning?: { text: string; field: import('./chatModel').ReasoningField };
}

export interface ToolResultData {
	toolCallId: string;
	name: string;
	output: string;
	ok: boolean;
	/** Why the call did not run or failed: 'denied', 'invalidArguments', 'unknownTool', 'error', 'cancelled', 'interrupted'. */
	errorKind?: string;
	/** The error taxonomy's class of a failure (toolErrors.ts) and whether the system retries it. */
	errorCategory?: string;
	retryable?: boolean;
}

export type CanonicalMessage =
	| { kind: 'system'; content: string }
	/** `images`: pasted or dropped into the composer (imageParts.ts); only on the prompt that carried them. */
	| { kind: 'user'; content: string; images?: import('./imageParts').ImagePart[] }
	| { kind: 'assistant'; content: string }
	| { kind: 'tool_call'; content: string; data: ToolCallData }
	| { kind: 'tool_result'; content: string; data: ToolResultData };

export function toolCallMessage(data: ToolCallData): CanonicalMessage {
	return { kind: 'tool_call', content: `${data.name}(${data.rawArguments})`, data };
}

export function toolResultMessage(data: ToolResultData): CanonicalMessage {
	return { kind: 'tool_result', content: data.output, data };
}
