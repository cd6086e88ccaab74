/**
 * Ids Keel makes, from the system's cryptographic random source (never the clock or
 * Math.random, which two windows starting together can share).
 */
import { randomBytes, randomUUID } from 'crypto';

/** A conversation's id in the store and in checkpoint refs. */
export function newSessionId(): string {
	return randomUUID();
}

/**
 * `prefix` and 12 URL-safe characters (72 random bits). Short because a turn's id is part of
 * the ids of the tool calls Keel recovers from text, and OpenAI refuses a tool call id over
 * 40 characters.
 */
export function shortId(prefix: string): string {
	return prefix + randomBytes(9).toString('base64url');
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The id of a tool call a server sent without one: nine letters or digits (about 53 random
 * bits), the strictest form a known server checks (Mistral's), so every server takes it back.
 */
export function newCallId(): string {
	return Array.from(randomBytes(9), byte => ALNUM[byte % ALNUM.length]).join('');
}
