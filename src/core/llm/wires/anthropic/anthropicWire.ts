import type { CanonicalMessage } from '../../canonical';
import type { ToolSpec } from '../../chatModel';
import { anthropicImageBlocks } from '../../imageParts';
import { wireId, type IdRule } from '../wireIds';

export type AnthropicBlock =
	| { type: 'text'; text: string }
	| { type: 'tool_use'; id: string; name: string; input: unknown }
	| { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean }
	| ReturnType<typeof anthropicImageBlocks>[number];

export interface AnthropicMessage {
	role: 'user' | 'assistant';
	content: AnthropicBlock[];
}

/**
 * Canonical → Anthropic Messages. The system prompt goes in its own parameter; a call becomes a
 * `tool_use` block of the assistant message it follows; results become `tool_result` blocks of
 * the next user message. Consecutive messages of one role merge, because the API wants every
 * result of a batch in the single user message that follows the calls.
 *
 * Written for the rules the API enforces (each refused with a 400): no text block empty or only
 * whitespace (https://github.com/anthropics/claude-code/issues/23440); every `tool_result`
 * answers a `tool_use` of the message just before it (…/issues/13460), so a result whose call
 * is not there (compacted away) is told as text; every `tool_use` is answered at the start of the
 * next message (…/issues/5060, anthropic-sdk-typescript#653). `idRule`: the ids' form, 'nine'
 * once a server named a rule (historyForm.ts).
 */
export function toAnthropicRequest(
	messages: readonly CanonicalMessage[],
	idRule: IdRule = 'anthropic',
): {
	system: string;
	messages: AnthropicMessage[];
} {
	const system: string[] = [];
	const out: AnthropicMessage[] = [];
	const push = (role: 'user' | 'assistant', block: AnthropicBlock) => {
		const last = out[out.length - 1];
		if (last && last.role === role) {
			last.content.push(block);
		} else {
			out.push({ role, content: [block] });
		}
	};
	const pushText = (role: 'user' | 'assistant', text: string) => {
		if (text.trim()) {
			push(role, { type: 'text', text });
		}
	};
	for (const [index, message] of messages.entries()) {
		switch (message.kind) {
			case 'system':
				// The leading system message is the system prompt; a note later in the history stays where it was sent.
				if (index === system.length) {
					system.push(message.content);
				} else {
					pushText('user', message.content);
				}
				break;
			case 'user':
				anthropicImageBlocks(message.images ?? []).forEach(block => push('user', block));
				push('user', { type: 'text', text: message.content.trim() ? message.content : '(empty message)' });
				break;
			case 'assistant':
				pushText('assistant', message.content);
				break;
			case 'tool_call':
				push('assistant', {
					type: 'tool_use',
					id: wireId(message.data.id, idRule),
					name: message.data.name,
					input: asObject(message.data.arguments, message.data.rawArguments),
				});
				break;
			case 'tool_result': {
				const id = wireId(message.data.toolCallId, idRule);
				const before = out[out.length - 1]?.role === 'user' ? out[out.length - 2] : out[out.length - 1];
				const called =
					before?.role === 'assistant' && before.content.some(b => b.type === 'tool_use' && b.id === id);
				if (!called) {
					pushText(
						'user',
						`Result of ${message.data.name}:\n${message.content.trim() ? message.content : '(no output)'}`,
					);
					break;
				}
				push('user', {
					type: 'tool_result',
					tool_use_id: id,
					content: message.content.trim() ? message.content : '(no output)',
					is_error: message.data.ok ? undefined : true,
				});
				break;
			}
		}
	}
	answerEveryCall(out);
	return { system: system.join('\n\n'), messages: out };
}

/**
 * Every `tool_use` answered first thing in the next message: results moved ahead of any text
 * beside them, and a call that has none (a turn stopped before it ran) answered as not run.
 */
function answerEveryCall(out: AnthropicMessage[]): void {
	for (let i = 0; i < out.length; i++) {
		const uses = out[i].role === 'assistant' ? out[i].content.filter(b => b.type === 'tool_use') : [];
		if (uses.length === 0) {
			continue;
		}
		if (out[i + 1]?.role !== 'user') {
			out.splice(i + 1, 0, { role: 'user', content: [] });
		}
		const next = out[i + 1];
		const results = next.content.filter(b => b.type === 'tool_result');
		const missing = uses
			.filter(use => !results.some(r => r.tool_use_id === use.id))
			.map(use => ({
				type: 'tool_result' as const,
				tool_use_id: use.id,
				content: 'The call did not run.',
				is_error: true,
			}));
		next.content = [...results, ...missing, ...next.content.filter(b => b.type !== 'tool_result')];
	}
}

export function toAnthropicTools(tools: readonly ToolSpec[]) {
	return tools.map(tool => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Prompt caching on the stable prefix: breakpoints after the tools, the system prompt and the
 * newest message, so each request reads what the one before wrote (`cache_read_input_tokens`).
 * The markers are not part of the prompt: they do not change what the model reads.
 */
export function withCacheBreakpoints(
	system: string,
	tools: ReturnType<typeof toAnthropicTools>,
	messages: AnthropicMessage[],
): {
	system?: Array<{ type: 'text'; text: string; cache_control: typeof EPHEMERAL }>;
	tools: object[];
	messages: object[];
} {
	const lastTool = tools.length - 1;
	const lastMessage = messages.length - 1;
	return {
		system: system ? [{ type: 'text', text: system, cache_control: EPHEMERAL }] : undefined,
		tools: tools.map((tool, i) => (i === lastTool ? { ...tool, cache_control: EPHEMERAL } : tool)),
		messages: messages.map((message, i) =>
			i === lastMessage && message.content.length
				? {
						...message,
						content: message.content.map((block, b) =>
							b === message.content.length - 1 ? { ...block, cache_control: EPHEMERAL } : block,
						),
					}
				: message,
		),
	};
}

/**
 * Anthropic and Ollama take a call's input as an object. A call whose arguments never parsed
 * is replayed as its raw text under one key, so the model still sees what it sent.
 */
export function asObject(parsed: unknown, raw: string): Record<string, unknown> {
	if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
		return parsed as Record<string, unknown>;
	}
	try {
		const value = JSON.parse(raw);
		if (value && typeof value === 'object' && !Array.isArray(value)) {
			return value;
		}
	} catch {
		// fall through
	}
	return raw.trim() ? { _unparsedArguments: raw } : {};
}
