import type { ToolSpec } from '../../../llm/chatModel';
import { isJsonObject } from '../../../llm/textCalls/jsonScan';
import type { ToolRegistry } from '../../../tools/registry';
import type { StepOutput } from '../../loop/modelStep';
import { findTextCalls } from './textCalls';

/**
 * A call the output limit cut off is continued, not asked for again: the next request ends with
 * the cut call as the model's own open message, written as text, and a server that continues a
 * trailing assistant message (llama.cpp unless started with --no-prefill-assistant, Ollama's
 * /api/chat, Anthropic's Messages API) generates only the rest, which fits where the whole did
 * not. Asking again would write the same long call into the same limit; the rest needs no
 * obedience from the model. A server that starts a fresh reply instead is read as any reply.
 */

/** The cut call as the text the model goes on from; undefined when the response was not cut mid-call. */
export function continuationPrefix(response: StepOutput, offered: readonly ToolSpec[]): string | undefined {
	if (response.finishReason !== 'length' && response.finishReason !== 'max_tokens') {
		return undefined;
	}
	const cut = response.calls.find(
		call => !isJsonObject(call.rawArguments) && offered.some(spec => spec.name === call.name),
	);
	if (cut && cut.rawArguments.trim()) {
		// Anthropic refuses a final assistant message that ends in whitespace; the model writes it again.
		return `<tool_call>\n{"name": ${JSON.stringify(cut.name)}, "arguments": ${cut.rawArguments.trim()}`;
	}
	// Written as text: the reply from its last opened call on.
	const open = response.text.lastIndexOf('<tool_call>');
	return response.calls.length === 0 && open >= 0 && !response.text.includes('</tool_call>', open)
		? response.text.slice(open).trimEnd()
		: undefined;
}

/**
 * The continued reply: the prefix and the rest joined where together they make a complete call
 * of an offered tool; otherwise the server started afresh, and the reply is read as it came.
 */
export function joinContinuation(
	prefix: string,
	output: StepOutput,
	registry: ToolRegistry,
	offered: readonly ToolSpec[],
): { output: StepOutput; continued: boolean } {
	const joined = prefix + output.text;
	if (output.calls.length > 0 || findTextCalls(joined, { registry, offered }).calls.length === 0) {
		return { output, continued: false };
	}
	return { output: { ...output, text: joined }, continued: true };
}
