import { linearRegex } from '../patterns/linearRegex';
import { redactSecretsAsync } from '../gate/redact/redact';
import { MAX_PATTERN_LENGTH } from './types';

const MAX_HITS = 1000;

/**
 * Runs on the raw output, before any filter: a credential on a line a filter dropped is
 * still a credential the command printed. The model is told one was there, never its value
 * (redaction of what it does see happens when the output is shaped). The user's own patterns
 * (keel.filters.securityPatterns) run on the linear-time engine like every user pattern.
 */
export async function scanForCredentials(raw: string, extraPatterns: readonly string[] = []): Promise<string[]> {
	// A slice at a time: the raw output can be megabytes (up to the output limit per stream).
	const kinds = (await redactSecretsAsync(raw)).hits;
	for (const source of extraPatterns) {
		if (source.length > MAX_PATTERN_LENGTH) {
			continue;
		}
		try {
			for (const _ of linearRegex(source).matchAll(raw)) {
				// An empty-matching pattern matches everywhere: a warning, not a million of them.
				if (kinds.push('custom pattern') >= MAX_HITS) {
					break;
				}
			}
		} catch {
			// A pattern the engine cannot run is reported where settings are read; here it is skipped.
		}
	}
	return kinds;
}

export function credentialWarning(kinds: readonly string[]): string {
	const unique = [...new Set(kinds)].join(', ');
	return `[Keel security: the command's raw output contains ${kinds.length} credential-shaped string${kinds.length === 1 ? '' : 's'} (${unique}). Values are not shown; do not print, copy or send them anywhere.]`;
}
