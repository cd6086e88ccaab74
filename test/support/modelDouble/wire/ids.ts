// Servers check the ids of the calls and results a client sends back, each by its own rule,
// and answer HTTP 400 in their own words when one breaks it. The double does the same.

import type { Wire } from '../types';

/** The first id in the request that breaks the server's rule, with the server's message; undefined when all pass. */
export function idViolation(wire: Wire, body: unknown, rule?: 'mistral'): string | undefined {
	if (wire === 'ollama') return undefined; // Ollama answers tools by name, not id
	for (const { id, where } of idsIn(wire, body)) {
		if (rule === 'mistral' && !/^[a-zA-Z0-9]{9}$/.test(id)) {
			return `Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`;
		}
		if (wire === 'openai' && id.length > 40) {
			return `Invalid '${where}': string too long. Expected a string with maximum length 40, but got a string with length ${id.length} instead.`;
		}
		if (wire === 'anthropic' && !/^[a-zA-Z0-9_-]+$/.test(id)) {
			return `${where}: String should match pattern '^[a-zA-Z0-9_-]+$'`;
		}
	}
	return undefined;
}

function idsIn(wire: Wire, body: unknown): Array<{ id: string; where: string }> {
	const messages = (body as { messages?: unknown })?.messages;
	if (!Array.isArray(messages)) return [];
	const out: Array<{ id: string; where: string }> = [];
	messages.forEach((m: any, i: number) => {
		if (wire === 'openai') {
			(Array.isArray(m?.tool_calls) ? m.tool_calls : []).forEach((c: any, j: number) =>
				out.push({ id: String(c?.id ?? ''), where: `messages[${i}].tool_calls[${j}].id` }),
			);
			if (m?.role === 'tool')
				out.push({ id: String(m.tool_call_id ?? ''), where: `messages[${i}].tool_call_id` });
			return;
		}
		(Array.isArray(m?.content) ? m.content : []).forEach((b: any, j: number) => {
			if (b?.type === 'tool_use')
				out.push({ id: String(b.id ?? ''), where: `messages.${i}.content.${j}.tool_use.id` });
			if (b?.type === 'tool_result')
				out.push({
					id: String(b.tool_use_id ?? ''),
					where: `messages.${i}.content.${j}.tool_result.tool_use_id`,
				});
		});
	});
	return out;
}
