/**
 * Credential-shaped strings are cut out of tool output before the model (or the card) sees
 * them: a secret read by a tool must not become a secret in the model's context, in the
 * session store, or in the next fetch URL. The shapes are data (redactRules.ts).
 */
import { REDACT_RULES } from './redactRules';

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
	const counts = new Map<string, number>();
	for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
	let bits = 0;
	for (const n of counts.values()) {
		const p = n / text.length;
		bits -= p * Math.log2(p);
	}
	return bits;
}

// A line ending in a long base64 run (after a grep "file:12:" or read_file line-number prefix).
const KEY_BODY = /(?<=^|[\s:|>])[A-Za-z0-9+/]{40,}={0,2}$/gm;

/** A PEM or OpenSSH key body without its BEGIN line: base64 with the spread of random bytes, not a hex hash or a word. */
function looksLikeKeyBody(run: string): boolean {
	return /[A-Z]/.test(run) && /[a-z]/.test(run) && /\d/.test(run) && entropy(run) >= 4.5;
}

export interface Redaction {
	text: string;
	/** Labels of what was cut, one per hit. */
	hits: string[];
}

export function redactSecrets(text: string): Redaction {
	const hits: string[] = [];
	let out = text;
	for (const { label, re } of REDACT_RULES) {
		out = out.replace(re, () => {
			hits.push(label);
			return `[REDACTED ${label}]`;
		});
	}
	out = out.replace(KEY_BODY, run => {
		if (!looksLikeKeyBody(run)) {
			return run;
		}
		hits.push('key material');
		return '[REDACTED key material]';
	});
	return { text: out, hits };
}

/** The one-line note appended so the model knows the gap is deliberate (and does not retry to "fix" it). */
export function redactionNote(hits: string[]): string {
	const kinds = [...new Set(hits)].join(', ');
	return `[Keel redacted ${hits.length} credential-shaped string${hits.length === 1 ? '' : 's'} (${kinds}) from this output. Do not try to recover them.]`;
}
