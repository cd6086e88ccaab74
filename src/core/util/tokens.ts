/**
 * About four characters a token: the usual ratio for English and code under the BPE
 * tokenizers of today's models. Good enough to budget a context window, never to bill.
 */
export function approxTokens(text: string): number {
	return tokensForChars(text.length);
}

/** The same ratio for a count of characters already summed. */
export function tokensForChars(chars: number): number {
	return Math.ceil(chars / 4);
}
