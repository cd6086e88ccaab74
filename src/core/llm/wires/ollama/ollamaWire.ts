import { asObject } from '../anthropic/anthropicWire';
import type { CanonicalMessage } from '../../canonical';
import type { ToolSpec } from '../../chatModel';

export type OllamaMessage =
	| { role: 'system' | 'user'; content: string; images?: string[] }
	| {
			role: 'assistant';
			content: string;
			thinking?: string;
			tool_calls?: Array<{ function: { name: string; arguments: Record<string, unknown> } }>;
	  }
	| { role: 'tool'; content: string; tool_name: string };

/**
 * Canonical → Ollama /api/chat messages. Ollama takes tool-call arguments as an object (a
 * string there is a 400), and answers by tool name; calls of one batch share an assistant message.
 */
export function toOllamaMessages(messages: readonly CanonicalMessage[], replayReasoning = false): OllamaMessage[] {
	const out: OllamaMessage[] = [];
	for (const [index, message] of messages.entries()) {
		switch (message.kind) {
			case 'system':
				// A note later in the history is read as the user's side: many templates allow a system message only first.
				out.push({ role: index === 0 ? 'system' : 'user', content: message.content });
				break;
			case 'user':
				// Ollama's native chat takes the images as bare base64 beside the text.
				out.push(
					message.images?.length
						? { role: 'user', content: message.content, images: message.images.map(image => image.data) }
						: { role: 'user', content: message.content },
				);
				break;
			case 'assistant':
				out.push({ role: 'assistant', content: message.content });
				break;
			case 'tool_call': {
				const call = {
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
				out.push({ role: 'tool', content: message.content, tool_name: message.data.name });
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
