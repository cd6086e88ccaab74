import type { Database } from 'node-sqlite3-wasm';

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
	return words.slice(0, 12).map(word => `"${word}"*`).join(' ');
}

/** Sessions whose prompts or answers (or title) match, best match first. */
export function searchSessions(db: Database, input: string, limit = 50): SearchHit[] {
	const query = toFtsQuery(input);
	if (!query) {
		return [];
	}
	const rows = db.all(
		`SELECT session_id, COUNT(*) AS hits, MIN(rank) AS best,
			(SELECT snippet(events_fts, 0, '[', ']', '…', 10) FROM events_fts f2 WHERE f2.session_id = f.session_id AND events_fts MATCH ? ORDER BY rank LIMIT 1) AS snippet
		 FROM events_fts f WHERE events_fts MATCH ? GROUP BY session_id ORDER BY best LIMIT ?`,
		[query, query, limit],
	) as Array<Record<string, string | number>>;
	const hits: SearchHit[] = rows.map(row => ({ sessionId: String(row.session_id), snippet: String(row.snippet ?? ''), hits: Number(row.hits) }));
	// A title the user gave (Rename) is searched too, though it is not a message.
	const words = input.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
	const titled = db.all(`SELECT id, title FROM sessions ORDER BY updated_at DESC LIMIT 500`) as Array<Record<string, string>>;
	for (const row of titled) {
		const title = String(row.title).toLowerCase();
		if (words.every(word => title.includes(word)) && !hits.some(hit => hit.sessionId === row.id)) {
			hits.push({ sessionId: String(row.id), snippet: String(row.title), hits: 0 });
		}
	}
	return hits.slice(0, limit);
}
