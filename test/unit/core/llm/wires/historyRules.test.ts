import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { historyRuleIn, type HistoryRule } from '../../../../../src/core/llm/wires/historyRules';
import { toOpenAIMessages } from '../../../../../src/core/llm/wires/openai/openaiWire';
import type { CanonicalMessage } from '../../../../../src/core/llm/canonical';

/** Servers' own wordings, and parts a rewording is made of: the rule must read the same from any. */
const WORDINGS: Record<HistoryRule, string[]> = {
	roleOrder: [
		"Unexpected role 'user' after role 'tool'",
		'Conversation roles must alternate: a user message cannot follow a tool message',
		'messages[4]: role user is not allowed after role tool',
	],
	toolName: [
		'messages[3].name is required for tool messages',
		"Invalid request: tool message at index 3 is missing field 'name'",
		'the function name of a tool response must not be empty',
	],
	idMatch: [
		"Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
		'tool_call_id abc does not match any tool call in the conversation',
		"unknown tool call id 'x1' in message 5",
		// Anthropic, both directions of the pairing.
		'messages.12.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01JLpBvrkaJHBDU3z3cWqtyv. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
		'messages.6: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01AbmHJypDhKqBF7NKdRPJ6d. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
		// Ollama Cloud.
		'Invalid tool usage: mismatch between tool calls and tool results',
		'Unexpected tool call id call_8k2m',
	],
	idForm: [
		'Tool call id was call_0fypS1hVX but must be a-z, A-Z, 0-9, with a length of 9.',
		"Invalid 'messages[2].tool_calls[0].id': string too long. Expected a string with maximum length 40",
		"messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
	],
	emptyText: [
		'messages: text content blocks must be non-empty',
		'messages: text content blocks must contain non-whitespace text',
	],
	jsonArguments: [
		"Expecting ',' delimiter: line 1 column 54 (char 53)",
		'messages[2]: function arguments are not valid JSON',
	],
};

describe('history rules read by meaning', () => {
	it('reads each rule from every wording, inside any envelope, in any case', () => {
		const cases = Object.entries(WORDINGS).flatMap(([rule, words]) => words.map(w => [rule, w] as const));
		fc.assert(
			fc.property(
				fc.constantFrom(...cases),
				fc.constantFrom('', 'HTTP 400: ', '{"error":{"message":"', 'Bad Request - '),
				fc.constantFrom('', '"}}', ' (request id: req_1)'),
				fc.boolean(),
				([rule, words], before, after, upper) => {
					const text = `${before}${upper ? words.toUpperCase() : words}${after}`;
					assert.equal(historyRuleIn(text), rule, text);
				},
			),
		);
	});

	it('reads no rule in errors that are not about the history', () => {
		for (const words of [
			'model not found',
			'Rate limit reached, try again in 20s',
			'the server is overloaded',
			'context length exceeded: 9000 > 8192',
		]) {
			assert.equal(historyRuleIn(words), undefined, words);
		}
	});

	it('names the tool on every result, and writes no user message directly after one once a server named a rule', () => {
		const messages: CanonicalMessage[] = [
			{ kind: 'system', content: 'sys' },
			{ kind: 'user', content: 'go' },
			{ kind: 'tool_call', content: '', data: { id: 'a', name: 'read_file', arguments: {}, rawArguments: '{}' } },
			{ kind: 'tool_result', content: 'X', data: { toolCallId: 'a', name: 'read_file', output: 'X', ok: true } },
			{ kind: 'system', content: 'Try again.' },
			{ kind: 'user', content: 'and?' },
		];
		// By default the user's side stays a message of its own, so the request extends the last one.
		const usual = toOpenAIMessages(messages);
		assert.deepEqual(usual.slice(-3), [
			{ role: 'tool', tool_call_id: 'a', name: 'read_file', content: 'X' },
			{ role: 'user', content: 'Try again.' },
			{ role: 'user', content: 'and?' },
		]);
		// In the strict form, after a server named a rule, nothing follows the result as a user message.
		const strict = toOpenAIMessages(messages, undefined, 'nine');
		assert.equal(strict.at(-1)?.role, 'tool');
		assert.equal(strict.at(-1)?.content, 'X\n\nTry again.\n\nand?');
		assert.equal((strict.at(-1) as { name?: string }).name, 'read_file');
	});
});
