// Rules real servers enforce on the history a client sends back, each refused with HTTP 400 in
// that server's words. A test switches on any subset per reply step (`historyRules`); the
// double checks the request before the model sees it, as the servers do. Each rule is stated on
// the wires whose servers enforce it (`wires`), and read in that wire's shape of messages.

import type { Wire } from '../types';

export type HistoryRuleName =
	| 'roleAfterTool'
	| 'toolName'
	| 'idMatch'
	| 'nineCharIds'
	| 'jsonArguments'
	| 'emptyText'
	| 'resultAfterUse'
	| 'useAnswered'
	| 'ollamaIdMatch';

interface Rule {
	/** The public report of a real server enforcing it. */
	reference: string;
	/** The wires whose servers enforce it (the message shapes `check` reads). */
	wires: Wire[];
	/** The server's words when `messages[i]` breaks it; undefined when the message passes. */
	check(m: any, i: number, messages: any[], variant: number): string | undefined;
}

/** The server's own wording first, then rewordings: a client must read them by meaning, not match one. */
const pick = (variant: number, words: string[]) => words[variant % words.length];

export const HISTORY_RULES: Record<HistoryRuleName, Rule> = {
	// Mistral (API and vLLM's mistral tokenizer): no user message directly after tool results.
	roleAfterTool: {
		wires: ['openai'],
		reference:
			'https://github.com/zed-industries/zed/issues/37021 ; https://github.com/mistralai/mistral-vibe/issues/578',
		check: (m, i, messages, v) =>
			m?.role === 'user' && messages[i - 1]?.role === 'tool'
				? pick(v, [
						"Unexpected role 'user' after role 'tool'",
						'Conversation roles must alternate: a user message cannot follow a tool message',
						`messages[${i}]: role user is not allowed after role tool`,
					])
				: undefined,
	},
	// Kimi K3 (Moonshot) and strict OpenAI-compatible gateways: every tool message names its tool.
	toolName: {
		wires: ['openai'],
		reference: 'https://github.com/diegosouzapw/OmniRoute/pull/9005',
		check: (m, i, _messages, v) =>
			m?.role === 'tool' && !(typeof m.name === 'string' && m.name)
				? pick(v, [
						`messages[${i}].name is required for tool messages`,
						`Invalid request: tool message at index ${i} is missing field 'name'`,
						'the function name of a tool response must not be empty',
					])
				: undefined,
	},
	// OpenAI, DeepSeek and others: each tool result answers a call earlier in the request.
	idMatch: {
		wires: ['openai'],
		reference:
			'https://github.com/FoundationAgents/OpenManus/issues/744 ; https://github.com/miurla/morphic/issues/136',
		check: (m, i, messages, v) => {
			if (m?.role !== 'tool') return undefined;
			const called = messages
				.slice(0, i)
				.flatMap((p: any) => (Array.isArray(p?.tool_calls) ? p.tool_calls : []))
				.map((c: any) => c?.id);
			return called.includes(m.tool_call_id)
				? undefined
				: pick(v, [
						`tool_call_id ${m.tool_call_id} does not match any tool call in the conversation`,
						`Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`,
						`unknown tool call id '${m.tool_call_id}' in message ${i}`,
					]);
		},
	},
	// Mistral: ids are exactly nine letters or digits.
	nineCharIds: {
		wires: ['openai'],
		reference: 'https://github.com/anomalyco/opencode/issues/1680',
		check: (m, i, _messages, v) => {
			const ids = [
				...(Array.isArray(m?.tool_calls) ? m.tool_calls.map((c: any) => c?.id) : []),
				...(m?.role === 'tool' ? [m.tool_call_id] : []),
			].map(id => String(id ?? ''));
			const bad = ids.find(id => !/^[a-zA-Z0-9]{9}$/.test(id));
			return bad === undefined
				? undefined
				: pick(v, [
						`Tool call id was ${bad} but must be a-z, A-Z, 0-9, with a length of 9.`,
						`messages.${i}: invalid id '${bad}': expected 9 alphanumeric characters`,
					]);
		},
	},
	// vLLM and others parse replayed arguments: broken JSON refuses the conversation.
	jsonArguments: {
		wires: ['openai'],
		reference: 'https://github.com/vllm-project/vllm/issues/43995',
		check: (m, i, _messages, v) => {
			for (const c of Array.isArray(m?.tool_calls) ? m.tool_calls : []) {
				try {
					const value = JSON.parse(c?.function?.arguments);
					if (value && typeof value === 'object' && !Array.isArray(value)) continue;
				} catch {
					// refused below
				}
				return pick(v, [
					"Expecting ',' delimiter: line 1 column 54 (char 53)",
					`messages[${i}]: function arguments are not valid JSON`,
				]);
			}
			return undefined;
		},
	},
	// Anthropic: no text block empty or only whitespace.
	emptyText: {
		wires: ['anthropic'],
		reference:
			'https://github.com/anthropics/claude-code/issues/23440 ; https://github.com/home-assistant/core/issues/175637',
		check: (m, _i, _messages, v) => {
			const blocks = typeof m?.content === 'string' ? [{ type: 'text', text: m.content }] : m?.content;
			const empty = (Array.isArray(blocks) ? blocks : []).some(
				(b: any) => b?.type === 'text' && !String(b.text ?? '').trim(),
			);
			return empty
				? pick(v, [
						'messages: text content blocks must contain non-whitespace text',
						'messages: text content blocks must be non-empty',
					])
				: undefined;
		},
	},
	// Anthropic: each tool_result answers a tool_use of the message just before it.
	resultAfterUse: {
		wires: ['anthropic'],
		reference: 'https://github.com/anthropics/claude-code/issues/13460',
		check: (m, i, messages, v) => {
			const uses = blocksOf(messages[i - 1], 'tool_use').map((b: any) => b.id);
			const [j, stray] =
				[...(Array.isArray(m?.content) ? m.content : []).entries()].find(
					([, b]: [number, any]) => b?.type === 'tool_result' && !uses.includes(b.tool_use_id),
				) ?? [];
			return stray
				? pick(v, [
						`messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
						`messages.${i}: tool_result ${stray.tool_use_id} has no matching tool_use in the previous message`,
					])
				: undefined;
		},
	},
	// Anthropic: every tool_use answered by a tool_result at the start of the next message.
	useAnswered: {
		wires: ['anthropic'],
		reference:
			'https://github.com/anthropics/claude-code/issues/5060 ; https://github.com/anthropics/anthropic-sdk-typescript/issues/653',
		check: (m, i, messages, v) => {
			const uses = blocksOf(m, 'tool_use').map((b: any) => b.id);
			if (uses.length === 0) return undefined;
			const next: any[] = Array.isArray(messages[i + 1]?.content) ? messages[i + 1].content : [];
			const leading = next
				.slice(0, uses.length)
				.filter(b => b?.type === 'tool_result')
				.map(b => b.tool_use_id);
			const missing = uses.filter((id: string) => !leading.includes(id));
			return missing.length
				? pick(v, [
						`messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
						`messages.${i + 1}: Did not find ${missing.length} tool_result block(s) at the beginning of this message. Messages following tool_use blocks must begin with a matching number of tool_result blocks.`,
					])
				: undefined;
		},
	},
	// Ollama Cloud: each tool result names the id of a call made earlier in the request.
	ollamaIdMatch: {
		wires: ['ollama'],
		reference: 'https://github.com/ollama/ollama/issues/12395 ; https://github.com/kenlasko/monize/pull/408',
		check: (m, i, messages, v) => {
			if (m?.role !== 'tool') return undefined;
			const called = messages
				.slice(0, i)
				.flatMap((p: any) => (Array.isArray(p?.tool_calls) ? p.tool_calls : []))
				.map((c: any) => c?.id)
				.filter(Boolean);
			return called.includes(m.tool_call_id)
				? undefined
				: pick(v, [
						'Invalid tool usage: mismatch between tool calls and tool results',
						`Unexpected tool call id ${m.tool_call_id ?? '(none)'}`,
					]);
		},
	},
};

function blocksOf(message: any, type: string): any[] {
	return (Array.isArray(message?.content) ? message.content : []).filter((b: any) => b?.type === type);
}

/** The first rule the request breaks, in the server's words; undefined when the history passes. */
export function historyViolation(
	wire: Wire,
	body: unknown,
	rules: readonly HistoryRuleName[] | undefined,
	variant = 0,
): string | undefined {
	const enforced = (rules ?? []).filter(name => HISTORY_RULES[name].wires.includes(wire));
	if (!enforced.length) return undefined;
	const messages = (body as { messages?: unknown })?.messages;
	if (!Array.isArray(messages)) return undefined;
	for (const [i, m] of messages.entries()) {
		for (const name of enforced) {
			const words = HISTORY_RULES[name].check(m, i, messages, variant);
			if (words) return words;
		}
	}
	return undefined;
}
