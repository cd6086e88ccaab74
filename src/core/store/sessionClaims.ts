import { holderRecord, holderState, parseHolder } from './database/lockHolder';
import { read, transaction, type OpenDatabase } from './database/sqlite';

/**
 * Which window has which conversation open. Every window on a workspace shares one history; a
 * window that opens resumes the most recent conversation that no other live window is writing,
 * so two windows never append two conversations into one. A claim names its holder as a store
 * lock does (lockHolder.ts): a window that closed released it, one that crashed is seen gone.
 */
/** The claim tokens of the stores open in this process (a test may open several). */
const live = new Set<string>();

export class SessionClaims {
	/** One per open store: this window's claims carry it. */
	private readonly _token = `claims-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

	constructor(private readonly _opened: OpenDatabase) {
		live.add(this._token);
	}

	claim(sessionId: string): void {
		transaction(this._opened, () =>
			this._opened.db.run('INSERT OR REPLACE INTO session_claims (session_id, holder) VALUES (?, ?)', [
				sessionId,
				JSON.stringify(holderRecord(this._token)),
			]),
		);
	}

	/** Gives up this window's claim (all of them, when closing); a claim another window has taken since stays theirs. */
	release(sessionId?: string, waitMs?: number): void {
		if (sessionId === undefined) {
			live.delete(this._token);
		}
		transaction(
			this._opened,
			() => {
				const rows = this._opened.db.all(
					sessionId === undefined
						? 'SELECT session_id, holder FROM session_claims'
						: 'SELECT session_id, holder FROM session_claims WHERE session_id = ?',
					sessionId === undefined ? [] : [sessionId],
				) as Array<{ session_id: string; holder: string }>;
				for (const row of rows.filter(row => parseHolder(row.holder)?.token === this._token)) {
					this._opened.db.run('DELETE FROM session_claims WHERE session_id = ?', [row.session_id]);
				}
			},
			waitMs,
		);
	}

	/** Of `sessionIds` (most recent first), the first that no other live window has open. */
	firstUnclaimed(sessionIds: readonly string[]): string | undefined {
		const claims = read(
			this._opened,
			() =>
				this._opened.db.all('SELECT session_id, holder FROM session_claims') as Array<{
					session_id: string;
					holder: string;
				}>,
		);
		const taken = new Set(
			claims
				.filter(row => {
					const holder = parseHolder(row.holder);
					return (
						holder !== undefined &&
						holder.token !== this._token &&
						holderState(holder, token => live.has(token)) !== 'dead'
					);
				})
				.map(row => row.session_id),
		);
		return sessionIds.find(id => !taken.has(id));
	}
}
