import type { CanonicalMessage } from '../llm/canonical';
import type { ChatModel } from '../llm/chatModel';

const INSTRUCTION = [
	'Summarise the conversation below so the work can continue from the summary alone.',
	'Keep: the goal, decisions made, files read or changed (with paths), commands run and their outcome, open problems and next steps.',
	'Leave out pleasantries and anything already superseded. Answer with the summary only, in Markdown.',
].join('\n');

/** The conversation as plain text, newest kept when it must be cut to `maxChars`. */
export function transcriptText(history: readonly CanonicalMessage[], maxChars: number): string {
	const lines = history
		.map(message => {
			switch (message.kind) {
				case 'user':
					return `User: ${message.content}`;
				case 'assistant':
					return `Assistant: ${message.content}`;
				case 'tool_call':
					return `Tool call: ${message.data.name}(${message.data.rawArguments.slice(0, 500)})`;
				case 'tool_result':
					return `Tool result (${message.data.ok ? 'ok' : 'failed'}): ${message.content.slice(0, 1500)}`;
				case 'system':
					// The system prompt is sent again with the summary; it is not part of the conversation.
					return '';
			}
		})
		.filter(Boolean);
	const text = lines.join('\n\n');
	return text.length <= maxChars ? text : `[… earlier part left out …]\n${text.slice(-maxChars)}`;
}

/**
 * Asks the model for a summary of the conversation, without tools. The transcript goes in one
 * user message so any provider accepts it, whatever tool calls the history holds.
 */
export async function summarise(
	model: ChatModel,
	history: readonly CanonicalMessage[],
	contextWindow: number,
	signal: AbortSignal,
): Promise<string> {
	// Leave room for the instruction and the answer: about half the window for the transcript.
	const transcript = transcriptText(history, Math.max(2000, Math.floor(contextWindow * 4 * 0.5)));
	let text = '';
	for await (const event of model.stream({
		messages: [
			{ kind: 'system', content: INSTRUCTION },
			{ kind: 'user', content: transcript },
		],
		tools: [],
		signal,
	})) {
		if (event.type === 'text') {
			text += event.text;
		}
	}
	text = text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
	if (!text) {
		throw new Error('The model returned an empty summary; the conversation was left as it was.');
	}
	return text;
}
