/**
 * The secrets Keel itself holds: the provider's API key from SecretStorage, and what it
 * resolved for an MCP server (`${input:…}` answers, `${env:…}` values, `env`/`envFile` values
 * and header values that look like credentials). Each is cut wherever it appears, as its exact
 * text whatever its shape: in a tool's or an MCP server's output, in Check Model's report
 * when a server echoes the key in an error, in logs and exports. Held for the life of the
 * process: a key replaced today can still be echoed by a server tomorrow.
 */
import { hasUpperLowerDigit } from './lineShapes';
import { entropy, type Span } from './ruleEngine';

/** Shorter values would cut ordinary words; a key is never this short. */
const SHORTEST = 8;
/** Keel's cuts ("…") before which half a held secret is still that secret. */
const SHORTEST_PART = 6;

const forms = new Map<string, string>();
let longest = 0;

/**
 * Cut `value` wherever it appears from now on. Its JSON-escaped, URL-encoded and base64
 * spellings are held too (an error body quotes it, a URL carries it); each line of a
 * multi-line value (a key file) is held on its own.
 */
export function holdSecret(value: string | undefined, label: string, shortest = SHORTEST): void {
	if (!value) return;
	const parts = value.includes('\n') ? value.split(/\r?\n/).filter(line => line.trim().length >= 16) : [value];
	for (const part of parts) {
		if (part.length < shortest) continue;
		for (const form of new Set([
			part,
			JSON.stringify(part).slice(1, -1),
			encodeURIComponent(part),
			Buffer.from(part).toString('base64').replace(/=+$/, ''),
		])) {
			if (!forms.has(form)) forms.set(form, label);
			longest = Math.max(longest, form.length);
		}
	}
}

/** For tests: forget every held secret. */
export function releaseHeldSecrets(): void {
	forms.clear();
	longest = 0;
}

export function heldSecretCount(): number {
	return forms.size;
}

/** Where held secrets are in `text`; `rank` for their spans (they win the label). */
export function heldSecretSpans(text: string, rank: number): Span[] {
	const spans: Span[] = [];
	if (!forms.size) return spans;
	for (const [form, label] of forms) {
		for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + form.length)) {
			spans.push({ start: at, end: at + form.length, label, rank });
		}
	}
	// Half a held secret before a cut Keel made ("…"): the part left is still that secret.
	for (let cut = text.indexOf('…'); cut !== -1; cut = text.indexOf('…', cut + 1)) {
		const tail = text.slice(Math.max(0, cut - SHORTEST_PART), cut);
		if (tail.length < SHORTEST_PART) continue;
		for (const [form, label] of forms) {
			for (let j = form.indexOf(tail); j !== -1; j = form.indexOf(tail, j + 1)) {
				const start = cut - SHORTEST_PART - j;
				if (start >= 0 && text.startsWith(form.slice(0, cut - start), start)) {
					spans.push({ start, end: cut, label, rank });
					break;
				}
			}
		}
	}
	return spans;
}

/** The longest held form: how much of a stream's end may still be the start of one. */
export function longestHeldSecret(): number {
	return longest;
}

/** Names under which a configured value is a credential (`GITHUB_TOKEN`, `x-api-key`, `Authorization`, `db-password`). */
const CREDENTIAL_NAME = /key|token|secret|pass|pwd|auth|cred|private|session|cookie|signature|cert|bearer/i;

/**
 * Whether a value Keel resolved for a server (an env entry, a `${env:…}` value, an input's
 * answer, a header) is a credential: its name says so, or it has the spread of a random key
 * (no spaces, not a path or URL, letters of both cases and digits, high entropy).
 */
export function credentialLike(name: string, value: string): boolean {
	if (value.length < SHORTEST) return false;
	if (CREDENTIAL_NAME.test(name)) return true;
	return (
		value.length >= 20 &&
		!/[\s]/.test(value) &&
		!value.startsWith('/') &&
		!value.startsWith('~') &&
		!value.includes('://') &&
		hasUpperLowerDigit(value) &&
		entropy(value) >= 3.5
	);
}

/** Holds a configured value when it is a credential, and the token after an `Authorization` scheme. */
export function holdIfCredential(name: string, value: string | undefined, label: string): void {
	if (!value || !credentialLike(name, value)) return;
	holdSecret(value, label);
	const scheme = /^(?:Bearer|Basic|Token|Digest|Bot)\s+(\S+)$/i.exec(value);
	if (scheme) holdSecret(scheme[1], label);
}
