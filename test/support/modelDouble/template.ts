// Templates let a test in another process script a reply that depends on what the agent
// sent (e.g. "the file says {{lastToolResult}}"), since it cannot pass a function.

type Msg = { role?: string; content?: unknown };

/** Replace {{lastToolResult}} and {{lastUser}} with text taken from the request body. */
export function fillTemplate(template: string, body: unknown): string {
	if (!template.includes('{{')) return template;
	const messages = messagesOf(body);
	return template
		.replace(/\{\{\s*lastToolResult\s*\}\}/g, () => lastToolResult(messages))
		.replace(/\{\{\s*lastUser\s*\}\}/g, () => lastUser(messages));
}

function messagesOf(body: unknown): Msg[] {
	const m = (body as { messages?: unknown } | undefined)?.messages;
	return Array.isArray(m) ? (m as Msg[]) : [];
}

/** OpenAI/Ollama: the last role:"tool" message. Anthropic: the last tool_result block. */
function lastToolResult(messages: Msg[]): string {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i];
		if (m.role === 'tool') return textOf(m.content);
		if (Array.isArray(m.content)) {
			const blocks = m.content.filter(b => b?.type === 'tool_result');
			if (blocks.length) return textOf(blocks[blocks.length - 1].content);
		}
	}
	return '';
}

/** The last user message that has text of its own (an Anthropic user turn may hold only tool results). */
function lastUser(messages: Msg[]): string {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i];
		if (m.role !== 'user') continue;
		const t = textOf(m.content);
		if (t) return t;
	}
	return '';
}

/** A string, or the concatenated text parts of a content array (OpenAI parts, Anthropic blocks). */
function textOf(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return '';
	return content
		.filter(p => p && p.type === 'text' && typeof p.text === 'string')
		.map(p => p.text as string)
		.join('');
}
