// Prompts of a chosen size in the server's own tokens (its /tokenize counts them), and the
// small request bodies the captures send.

const WORDS =
	'const value return function import export async await string number index result error path file module class'.split(
		' ',
	);

/** Source-like text; deterministic for a seed. */
function words(count: number, seed = 1): string {
	let x = seed * 7919 + 17;
	const out: string[] = [];
	for (let i = 0; i < count; i++) {
		x = (x * 1103515245 + 12345) % 2147483648;
		out.push(WORDS[x % WORDS.length]);
		if (i % 12 === 11) out.push(';\n');
	}
	return out.join(' ');
}

export async function countTokens(baseUrl: string, content: string): Promise<number> {
	const response = await fetch(`${baseUrl}/tokenize`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ content }),
	});
	const body = (await response.json()) as { tokens: number[] };
	return body.tokens.length;
}

/** Text of about `tokens` tokens as this server counts them (within 1%). */
export async function textOfTokens(baseUrl: string, tokens: number, seed = 1): Promise<string> {
	let count = tokens;
	let text = words(count, seed);
	for (let round = 0; round < 4; round++) {
		const measured = await countTokens(baseUrl, text);
		if (Math.abs(measured - tokens) <= Math.max(2, tokens / 100)) break;
		count = Math.max(1, Math.round((count * tokens) / measured));
		text = words(count, seed);
	}
	return text;
}

export const SYSTEM = 'You are Keel, a coding agent. Use the tools to look at files.';

export function chatBody(user: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		model: 'keel-noise-qwen3',
		messages: [
			{ role: 'system', content: SYSTEM },
			{ role: 'user', content: user },
		],
		max_tokens: 8,
		seed: 42,
		...extra,
	};
}

export const READ_TOOLS = [
	{
		type: 'function',
		function: {
			name: 'read_file',
			description: 'Read a file of the workspace.',
			parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
		},
	},
	{
		type: 'function',
		function: {
			name: 'list_directory',
			description: 'List a folder of the workspace.',
			parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
		},
	},
];
