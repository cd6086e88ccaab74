import { asObject } from '../anthropic/anthropicWire';
import type { CanonicalMessage } from '../../canonical';
import type { ToolSpec } from '../../chatModel';
import { wireId, type IdRule } from '../wireIds';

export type OllamaMessage =
	| { role: 'system' | 'user'; content: string; images?: string[] }
	| {
			role: 'assistant';
			content: string;
			thinking?: string;
			tool_calls?: Array<{ id: string; function: { name: string; arguments: Record<string, unknown> } }>;
	  }
	| { role: 'tool'; content: string; tool_name: string; tool_call_id: string };

/**
 * Canonical → Ollama /api/chat messages. Ollama takes tool-call arguments as an object (a
 * string there is a 400), and answers by tool name; calls of one batch share an assistant message.
 *
 * Each call carries its id and each result the id of the call it answers: a local Ollama reads
 * the name, Ollama Cloud refuses results that do not match a call it made ("Invalid tool usage:
 * mismatch between tool calls and tool results", https://github.com/ollama/ollama/issues/12395;
 * "Unexpected tool call id", https://github.com/kenlasko/monize/pull/408), so a result whose
 * call is not in the request (compacted away) is told as text. Once a server named a history
 * rule (`idRule` 'nine', historyForm.ts) text after a result travels with it, as on the OpenAI wire.
 */
export function toOllamaMessages(
	messages: readonly CanonicalMessage[],
	replayReasoning = false,
	idRule: IdRule = 'openai',
): OllamaMessage[] {
	const out: OllamaMessage[] = [];
	const called = new Set<string>();
	const pushUser = (content: string) => {
		const last = out[out.length - 1];
		if (idRule === 'nine' && last?.role === 'tool') {
			last.content = last.content ? `${last.content}\n\n${content}` : content;
		} else {
			out.push({ role: 'user', content });
		}
	};
	for (const [index, message] of messages.entries()) {
		switch (message.kind) {
			case 'system':
				// A note later in the history is read as the user's side: many templates allow a system message only first.
				if (index === 0) {
					out.push({ role: 'system', content: message.content });
				} else {
					pushUser(message.content);
				}
				break;
			case 'user':
				// Ollama's native chat takes the images as bare base64 beside the text.
				if (message.images?.length) {
					out.push({
						role: 'user',
						content: message.content,
						images: message.images.map(image => image.data),
					});
				} else {
					pushUser(message.content);
				}
				break;
			case 'assistant':
				out.push({ role: 'assistant', content: message.content });
				break;
			case 'tool_call': {
				called.add(message.data.id);
				const call = {
					id: wireId(message.data.id, idRule),
					function: {
						name: message.data.name,
						arguments: asObject(message.data.arguments, message.data.rawArguments),
					},
				};
				const last = out[out.length - 1];
				let holder: Extract<OllamaMessage, { role: 'assistant' }>;
				if (last && last.role === 'assistant') {
					last.tool_calls = [...(last.tool_calls ?? []), call];
					holder = last;
				} else {
					holder = { role: 'assistant', content: '', tool_calls: [call] };
					out.push(holder);
				}
				// Sent in every request or in none (reasoningReplay.ts), so the prompt keeps its prefix.
				if (message.data.reasoning?.field === 'thinking' && replayReasoning) {
					holder.thinking = message.data.reasoning.text;
				}
				break;
			}
			case 'tool_result':
				if (!called.has(message.data.toolCallId)) {
					pushUser(`Result of ${message.data.name}:\n${message.content}`);
					break;
				}
				out.push({
					role: 'tool',
					content: message.content,
					tool_name: message.data.name,
					tool_call_id: wireId(message.data.toolCallId, idRule),
				});
				break;
		}
	}
	return out;
}

export function toOllamaTools(tools: readonly ToolSpec[]) {
	return tools.map(tool => ({
		type: 'function' as const,
		function: { name: tool.name, description: tool.description, parameters: tool.parameters },
	}));
}

/** One NDJSON line of a streamed /api/chat answer. */
export interface OllamaChunk {
	message?: {
		content?: unknown;
		thinking?: string;
		tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: unknown } }>;
	};
	done?: boolean;
	done_reason?: string;
	prompt_eval_count?: number;
	/** Nanoseconds, like every Ollama duration. */
	prompt_eval_duration?: number;
	eval_count?: number;
	eval_duration?: number;
	error?: unknown;
}
