import type { Database } from 'node-sqlite3-wasm';
import { redactSecrets } from '../gate/redact/redact';

export interface SearchHit {
	sessionId: string;
	/** The best matching passage, the matched words in [brackets]. */
	snippet: string;
	/** Matching messages in that session. */
	hits: number;
}

/**
 * Turns what a user typed into an FTS5 query: every word must appear (prefix match on each,
 * so "pars" finds "parser"), and nothing they type is FTS syntax, so a stray quote or
 * "NEAR(" cannot make the search fail.
 */
export function toFtsQuery(input: string): string | undefined {
	const words = input.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
	if (words.length === 0) {
		return undefined;
	}
	return words
		.slice(0, 12)
		.map(word => `"${word}"*`)
		.join(' ');
}

/**
 * Sessions whose prompts or answers (or title) match, the session with the newest match first:
 * what a user looks for in a history is mostly recent. SQLite groups the matches (rowid follows
 * insertion); the passage is cut here from each session's newest matching message. Neither
 * bm25 ranking nor FTS5's snippet() per session: on a common word over a year of history they
 * cost seconds (bench/historySearch.bench.ts).
 */
export function searchSessions(db: Database, input: string, limit = 50): SearchHit[] {
	const query = toFtsQuery(input);
	if (!query) {
		return [];
	}
	const words = input.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
	const rows = db.all(
		'SELECT session_id, MAX(rowid) AS newest, COUNT(*) AS hits FROM events_fts WHERE events_fts MATCH ? GROUP BY session_id ORDER BY newest DESC LIMIT ?',
		[query, limit],
	) as Array<Record<string, string | number>>;
	const hits: SearchHit[] = rows.map(row => {
		const sessionId = String(row.session_id);
		const content = String(
			db.get(
				'SELECT e.content FROM events_fts f JOIN events e ON e.session_id = f.session_id AND e.seq = f.seq WHERE f.rowid = ?',
				[row.newest],
			)?.content ?? '',
		);
		// Redacted whole before the passage is cut: a cut can leave out the words that mark a secret.
		return { sessionId, snippet: passage(redactSecrets(content).text, words), hits: Number(row.hits) };
	});
	// A title the user gave (Rename) is searched too, though it is not a message.
	const titled = db.all(`SELECT id, title FROM sessions ORDER BY updated_at DESC LIMIT 500`) as Array<
		Record<string, string>
	>;
	for (const row of titled) {
		const title = String(row.title).toLowerCase();
		if (words.every(word => title.includes(word)) && !hits.some(hit => hit.sessionId === row.id)) {
			hits.push({ sessionId: String(row.id), snippet: String(row.title), hits: 0 });
		}
	}
	return hits.slice(0, limit);
}

/** About a dozen words around the first match, the words that match (by prefix) in [brackets]. */
export function passage(content: string, words: readonly string[]): string {
	const tokens = content.replace(/\s+/g, ' ').trim().split(' ');
	const matches = (token: string) => {
		const bare = token.toLowerCase().replace(/^[^\p{L}\p{N}_]+/u, '');
		return words.some(word => bare.startsWith(word));
	};
	const first = Math.max(0, tokens.findIndex(matches));
	const from = Math.max(0, first - 4);
	const to = Math.min(tokens.length, from + 12);
	const shown = tokens
		.slice(from, to)
		.map(token => (matches(token) ? token.replace(/^([^\p{L}\p{N}_]*)([\p{L}\p{N}_]+)/u, '$1[$2]') : token));
	return `${from > 0 ? '… ' : ''}${shown.join(' ')}${to < tokens.length ? ' …' : ''}`;
}
