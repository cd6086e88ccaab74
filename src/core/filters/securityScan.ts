import { redactSecrets } from '../tools/redact';
import { MAX_PATTERN_LENGTH } from './types';

/**
 * Runs on the raw output, before any filter: a credential on a line a filter dropped is
 * still a credential the command printed. The model is told one was there, never its value
 * (redaction of what it does see happens when the output is shaped).
 */
export function scanForCredentials(raw: string, extraPatterns: readonly string[] = []): string[] {
	const kinds = redactSecrets(raw).hits;
	for (const source of extraPatterns) {
		if (source.length > MAX_PATTERN_LENGTH) {
			continue;
		}
		try {
			const pattern = new RegExp(source, 'g');
			for (const _ of raw.matchAll(pattern)) {
				kinds.push('custom pattern');
			}
		} catch {
			// An invalid user pattern is reported where settings are read; here it is skipped.
		}
	}
	return kinds;
}

export function credentialWarning(kinds: readonly string[]): string {
	const unique = [...new Set(kinds)].join(', ');
	return `[Keel security: the command's raw output contains ${kinds.length} credential-shaped string${kinds.length === 1 ? '' : 's'} (${unique}). Values are not shown; do not print, copy or send them anywhere.]`;
}
