import { asObject } from '../anthropic/anthropicWire';
import type { CanonicalMessage } from '../../canonical';
import type { ToolChoice, ToolSpec } from '../../chatModel';
import { strictSchema } from '../../../tools/strictSchemas';
import { openaiUserContent } from '../../imageParts';
import { wireId, type IdRule } from '../wireIds';

export interface WireToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

export type WireMessage =
	| { role: 'system' | 'user'; content: string }
	| { role: 'user'; content: ReturnType<typeof openaiUserContent> }
	| {
			role: 'assistant';
			content: string | null;
			tool_calls?: WireToolCall[];
			reasoning_content?: string;
			reasoning?: string;
	  }
	| { role: 'tool'; tool_call_id: string; content: string };

/**
 * Canonical → OpenAI chat messages. Consecutive tool calls belong to one assistant message
 * (the text that preceded them, if any), and each result answers its call by `tool_call_id`,
 * in the form the server takes (wireIds.ts).
 */
export function toOpenAIMessages(
	messages: readonly CanonicalMessage[],
	replayReasoning = false,
	idRule: IdRule = 'openai',
): WireMessage[] {
	const out: WireMessage[] = [];
	for (const [index, message] of messages.entries()) {
		switch (message.kind) {
			case 'system':
				// A note later in the history is read as the user's side: many templates allow a system message only first.
				out.push({ role: index === 0 ? 'system' : 'user', content: message.content });
				break;
			case 'user':
				out.push(
					message.images?.length
						? { role: 'user', content: openaiUserContent(message.content, message.images) }
						: { role: 'user', content: message.content },
				);
				break;
			case 'assistant':
				out.push({ role: 'assistant', content: message.content });
				break;
			case 'tool_call': {
				const call: WireToolCall = {
					id: wireId(message.data.id, idRule),
					type: 'function',
					// Broken JSON replayed makes vLLM and others reject the whole conversation (400): send valid JSON always.
					function: {
						name: message.data.name,
						arguments: validJson(message.data.arguments, message.data.rawArguments),
					},
				};
				const last = out[out.length - 1];
				let holder: Extract<WireMessage, { role: 'assistant' }>;
				if (last && last.role === 'assistant') {
					last.tool_calls = [...(last.tool_calls ?? []), call];
					holder = last;
				} else {
					holder = { role: 'assistant', content: null, tool_calls: [call] };
					out.push(holder);
				}
				// Reasoning goes back in every request or in none (reasoningReplay.ts), in the field it came in.
				const reasoning = message.data.reasoning;
				if (
					reasoning &&
					replayReasoning &&
					(reasoning.field === 'reasoning_content' || reasoning.field === 'reasoning')
				) {
					holder[reasoning.field] = reasoning.text;
				}
				break;
			}
			case 'tool_result':
				out.push({
					role: 'tool',
					tool_call_id: wireId(message.data.toolCallId, idRule),
					content: message.content,
				});
				break;
		}
	}
	return out;
}

/** `strict`: each schema in its strict form where it has one (strictSchemas.ts), marked so. */
export function toOpenAITools(tools: readonly ToolSpec[], strict = false) {
	return tools.map(tool => {
		const strictForm = strict ? strictSchema(tool.parameters) : undefined;
		return {
			type: 'function' as const,
			function: {
				name: tool.name,
				description: tool.description,
				parameters: strictForm ?? tool.parameters,
				...(strictForm ? { strict: true } : {}),
			},
		};
	});
}

export function toOpenAIToolChoice(choice: ToolChoice | undefined) {
	if (!choice) return undefined;
	return choice.kind === 'required'
		? ('required' as const)
		: { type: 'function' as const, function: { name: choice.name } };
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
