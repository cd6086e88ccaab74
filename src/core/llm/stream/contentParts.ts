/**
 * Message content as servers send it: a string, or a list of typed parts (`text`,
 * `output_text`, Mistral's `thinking` with its own nested parts, `reasoning`). Parts whose
 * type speaks of thinking or reasoning are reasoning; anything else with text is the answer.
 */
export interface ContentPieces {
	text: string;
	reasoning: string;
}

export function contentPieces(content: unknown): ContentPieces {
	const out: ContentPieces = { text: '', reasoning: '' };
	collect(content, false, out, 0);
	return out;
}

function collect(content: unknown, reasoning: boolean, out: ContentPieces, depth: number): void {
	if (typeof content === 'string') {
		out[reasoning ? 'reasoning' : 'text'] += content;
		return;
	}
	if (depth > 4 || !content || typeof content !== 'object') {
		return;
	}
	if (Array.isArray(content)) {
		content.forEach(part => collect(part, reasoning, out, depth + 1));
		return;
	}
	const part = content as Record<string, unknown>;
	const thinking = reasoning || /think|reason/i.test(String(part.type ?? ''));
	// The text of a part: `text`, or the field named after its type (`thinking`, `reasoning`), maybe nested parts.
	const body = part.text ?? part[String(part.type)] ?? part.thinking ?? part.reasoning ?? part.content;
	collect(body, thinking, out, depth + 1);
}
