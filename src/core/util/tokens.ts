/**
 * About four characters a token: the usual ratio for English and code under the BPE
 * tokenizers of today's models. Good enough to budget a context window, never to bill.
 */
export function approxTokens(text: string): number {
	return Math.ceil(text.length / 4);
}
