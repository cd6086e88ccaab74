import { asObject } from '../anthropic/anthropicWire';
import type { CanonicalMessage } from '../../canonical';
import type { ToolChoice, ToolSpec } from '../../chatModel';
import { strictSchema } from '../strictSchemas';
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
	| { role: 'tool'; tool_call_id: string; name: string; content: string };

/**
 * Canonical → OpenAI chat messages. Consecutive tool calls belong to one assistant message
 * (the text that preceded them, if any), and each result answers its call by `tool_call_id`,
 * in the form the server takes (wireIds.ts).
 *
 * Written in a form that stays the same from request to request and that the strict servers take:
 * every result carries its tool's `name` (some servers require it). Text that follows a tool
 * result (a correction, a nudge, the user's next words) is a `user` message, which keeps the
 * cached prefix; once a server has named a history rule (the strict form, `idRule` 'nine') it
 * travels at the end of that result instead, since Mistral refuses `user` directly after `tool`
 * (https://github.com/zed-industries/zed/issues/37021).
 */
export function toOpenAIMessages(
	messages: readonly CanonicalMessage[],
	replayReasoning = false,
	idRule: IdRule = 'openai',
): WireMessage[] {
	const out: WireMessage[] = [];
	const called = new Set<string>();
	for (const [index, message] of messages.entries()) {
		switch (message.kind) {
			case 'system':
				// A note later in the history is read as the user's side: many templates allow a system message only first.
				if (index === 0) {
					out.push({ role: 'system', content: message.content });
				} else {
					pushUserText(out, message.content, idRule);
				}
				break;
			case 'user':
				if (message.images?.length) {
					out.push({ role: 'user', content: openaiUserContent(message.content, message.images) });
				} else {
					pushUserText(out, message.content, idRule);
				}
				break;
			case 'assistant':
				out.push({ role: 'assistant', content: message.content });
				break;
			case 'tool_call': {
				called.add(message.data.id);
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
				// In the strict form a result whose call is not in the request (compacted away) is told as text.
				if (idRule === 'nine' && !called.has(message.data.toolCallId)) {
					pushUserText(out, `Result of ${message.data.name}:\n${message.content}`, idRule);
					break;
				}
				out.push({
					role: 'tool',
					tool_call_id: wireId(message.data.toolCallId, idRule),
					name: message.data.name,
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

/**
 * The user's side, as its own message; in the strict form (a server named a history rule) after
 * the tool result it would otherwise follow. Only there: folding text into a result already sent
 * changes a message the server has cached, and every later request re-prefills from it.
 */
function pushUserText(out: WireMessage[], text: string, idRule: IdRule): void {
	const last = out[out.length - 1];
	if (idRule === 'nine' && last?.role === 'tool') {
		last.content = last.content ? `${last.content}\n\n${text}` : text;
	} else {
		out.push({ role: 'user', content: text });
	}
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
