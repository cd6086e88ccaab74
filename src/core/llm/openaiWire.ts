import { asObject } from './anthropicWire';
import type { CanonicalMessage } from './canonical';
import type { ToolSpec } from './chatModel';

export interface WireToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

export type WireMessage =
	| { role: 'system' | 'user'; content: string }
	| { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[] }
	| { role: 'tool'; tool_call_id: string; content: string };

/**
 * Canonical → OpenAI chat messages. Consecutive tool calls belong to one assistant message
 * (the text that preceded them, if any), and each result answers its call by `tool_call_id`.
 */
export function toOpenAIMessages(messages: readonly CanonicalMessage[]): WireMessage[] {
	const out: WireMessage[] = [];
	for (const message of messages) {
		switch (message.kind) {
			case 'system':
			case 'user':
				out.push({ role: message.kind, content: message.content });
				break;
			case 'assistant':
				out.push({ role: 'assistant', content: message.content });
				break;
			case 'tool_call': {
				const call: WireToolCall = {
					id: message.data.id,
					type: 'function',
					// Broken JSON replayed makes vLLM and others reject the whole conversation (400): send valid JSON always.
					function: { name: message.data.name, arguments: validJson(message.data.arguments, message.data.rawArguments) },
				};
				const last = out[out.length - 1];
				if (last && last.role === 'assistant') {
					last.tool_calls = [...(last.tool_calls ?? []), call];
				} else {
					out.push({ role: 'assistant', content: null, tool_calls: [call] });
				}
				break;
			}
			case 'tool_result':
				out.push({ role: 'tool', tool_call_id: message.data.toolCallId, content: message.content });
				break;
		}
	}
	return out;
}

export function toOpenAITools(tools: readonly ToolSpec[]) {
	return tools.map(tool => ({
		type: 'function' as const,
		function: { name: tool.name, description: tool.description, parameters: tool.parameters },
	}));
}

function validJson(parsed: unknown, raw: string): string {
	try {
		const value = JSON.parse(raw);
		if (value && typeof value === 'object' && !Array.isArray(value)) {
			return raw;
		}
	} catch {
		// fall through
	}
	return JSON.stringify(asObject(parsed, raw));
}
