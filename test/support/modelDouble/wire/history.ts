// Rules real servers enforce on the history a client sends back, each refused with HTTP 400 in
// that server's words. A test switches on any subset per reply step (`historyRules`); the
// double checks the request before the model sees it, as the servers do.

import type { Wire } from '../types';

export type HistoryRuleName = 'roleAfterTool' | 'toolName' | 'idMatch' | 'nineCharIds' | 'jsonArguments';

interface Rule {
	/** The public report of a real server enforcing it. */
	reference: string;
	/** The server's words when `messages[i]` breaks it; undefined when the message passes. */
	check(m: any, i: number, messages: any[], variant: number): string | undefined;
}

/** The server's own wording first, then rewordings: a client must read them by meaning, not match one. */
const pick = (variant: number, words: string[]) => words[variant % words.length];

export const HISTORY_RULES: Record<HistoryRuleName, Rule> = {
	// Mistral (API and vLLM's mistral tokenizer): no user message directly after tool results.
	roleAfterTool: {
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
};

/** The first rule the request breaks, in the server's words; undefined when the history passes. */
export function historyViolation(
	wire: Wire,
	body: unknown,
	rules: readonly HistoryRuleName[] | undefined,
	variant = 0,
): string | undefined {
	// The rules are stated on the OpenAI-compatible wire, where the servers that enforce them speak.
	if (wire !== 'openai' || !rules?.length) return undefined;
	const messages = (body as { messages?: unknown })?.messages;
	if (!Array.isArray(messages)) return undefined;
	for (const [i, m] of messages.entries()) {
		for (const name of rules) {
			const words = HISTORY_RULES[name].check(m, i, messages, variant);
			if (words) return words;
		}
	}
	return undefined;
}
