/**
 * What leaves Keel from the session history, through the one redactor: an export (Markdown
 * or JSON) is a file the user shares, and a search passage is shown in a list; neither may
 * carry a credential the chat itself would have cut (a key pasted into a prompt, a token the
 * model wrote into a command). Values are redacted before they are serialized, so an escaped
 * key body in JSON is still seen as one; the Markdown is checked once more as a whole.
 */
import type { CanonicalMessage } from '../llm/canonical';
import { sessionToJson, sessionToMarkdown } from '../store/exportSession';
import type { SessionMeta, StoredEvent } from '../store/sessionStore';
import { redactDeep, redactSecrets } from '../gate/redact/redact';

export function sessionExportText(
	format: 'markdown' | 'json',
	meta: SessionMeta,
	source: { events(): readonly StoredEvent[]; history(): readonly CanonicalMessage[] },
): string {
	const safeMeta = redactDeep(meta).value;
	if (format === 'json') {
		return sessionToJson(safeMeta, redactDeep(source.events()).value);
	}
	return redactSecrets(sessionToMarkdown(safeMeta, redactDeep(source.history()).value)).text;
}

/** A history search passage as the list shows it. */
export function searchPassage(snippet: string): string {
	return redactSecrets(snippet).text;
}
