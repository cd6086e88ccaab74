import { createHash } from 'crypto';

/**
 * Servers check the ids of the calls and results sent back to them: OpenAI at most 40
 * characters, Anthropic `^[a-zA-Z0-9_-]+$`, Mistral (and vLLM with its tokenizer) exactly nine
 * letters or digits. History keeps the ids as they came (from another server, or made up by
 * Keel); on the way out each is kept when it passes the rule and otherwise replaced by nine
 * characters derived from it — the same every time, so a call and its result still match and
 * a request stays the previous one plus new messages.
 */
export type IdRule = 'openai' | 'anthropic' | 'nine';

const RULES: Record<IdRule, RegExp> = {
	openai: /^[A-Za-z0-9_.:-]{1,40}$/,
	anthropic: /^[A-Za-z0-9_-]{1,64}$/,
	nine: /^[A-Za-z0-9]{9}$/,
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function wireId(id: string, rule: IdRule): string {
	return RULES[rule].test(id) ? id : nineCharId(id);
}

/** Nine letters or digits derived from `seed`: passes every id rule a known server checks. */
export function nineCharId(seed: string): string {
	if (RULES.nine.test(seed)) {
		return seed;
	}
	const id = seed;
	const digest = createHash('sha256').update(id).digest();
	let out = '';
	for (let i = 0; i < 9; i++) {
		out += ALPHABET[digest[i] % ALPHABET.length];
	}
	return out;
}

/** A server's 400 about the form of an id it was sent (Mistral's nine characters, a pattern, a length). */
export function isIdRuleError(message: string): boolean {
	return /tool[_ ]?call[_ ]?id|tool_use_id|tool_use\.id|\.id\b.*(?:pattern|too long|length)|\bid\b.*(?:a-z, A-Z, 0-9|length of 9|should match pattern)/i.test(
		message,
	);
}
