// What a simulated model reads from a request, whichever wire it arrived on: the tool
// results so far, the last user message (where Keel's corrections land), whether tools were
// offered natively, and whether the client asked for anti-repetition sampling.

import type { RecordedRequest } from '../modelDouble';

export interface Conversation {
	results: string[];
	lastUser: string;
	textMode: boolean;
	avoidRepetition: boolean;
	size: number;
}

type Block = { type?: string; text?: string; content?: unknown };

export function readConversation(req: RecordedRequest): Conversation {
	const body = (req.body ?? {}) as Record<string, any>;
	const messages = (body.messages ?? []) as Array<{ role: string; content: unknown }>;
	const results: string[] = [];
	let lastUser = '';
	for (const message of messages) {
		if (message.role === 'tool') {
			results.push(String(message.content ?? ''));
			continue;
		}
		const blocks: Block[] = Array.isArray(message.content)
			? (message.content as Block[])
			: [{ type: 'text', text: String(message.content ?? '') }];
		for (const block of blocks) {
			if (block.type === 'tool_result') {
				results.push(typeof block.content === 'string' ? block.content : JSON.stringify(block.content));
			} else if (
				message.role === 'user' &&
				block.type === 'text' &&
				String(block.text).startsWith('<tool_result')
			) {
				results.push(String(block.text));
			}
		}
		if (message.role === 'user') {
			lastUser = blocks
				.filter(b => b.type === 'text')
				.map(b => String(b.text))
				.join('\n');
		}
	}
	const last = messages[messages.length - 1];
	if (last?.role !== 'user') {
		lastUser = '';
	}
	return {
		results,
		lastUser,
		textMode: !(body.tools?.length > 0),
		avoidRepetition: body.frequency_penalty !== undefined || body.options?.repeat_penalty !== undefined,
		size: JSON.stringify(messages).length,
	};
}

/** Keel's corrections: a parse reflection, a re-ask nudge, a loop warning. */
export function isCorrection(text: string): boolean {
	return /could not be parsed|nothing ran|did not run|Your last reply|kept repeating|only reasoning|inside your reasoning|not one of the offered tools/.test(
		text,
	);
}

/** Tools the request offers with a `thinking` property (TAFC): a model that follows the schema fills it. */
export function thinkingTools(req: RecordedRequest): Set<string> {
	const tools = (((req.body ?? {}) as Record<string, any>).tools ?? []) as Array<Record<string, any>>;
	const names = new Set<string>();
	for (const tool of tools) {
		const name = tool.function?.name ?? tool.name;
		const schema = tool.function?.parameters ?? tool.input_schema ?? tool.parameters;
		if (typeof name === 'string' && schema?.properties?.thinking) {
			names.add(name);
		}
	}
	return names;
}

/**
 * A model continuing its own open message (a server's assistant prefill): where that message is
 * the call it means to make, cut short, it writes the rest of the arguments and closes the call.
 * Undefined where the open message is not that call: the model does not recognise it as its own.
 */
export function continuedCall(open: string, name: string, args: Record<string, unknown>): string | undefined {
	const at = open.lastIndexOf('"arguments":');
	const json = JSON.stringify(args);
	const begun = open.slice(at + '"arguments":'.length).trim();
	return at >= 0 && open.includes(`"${name}"`) && begun && json.startsWith(begun)
		? `${json.slice(begun.length)}}</tool_call>`
		: undefined;
}
