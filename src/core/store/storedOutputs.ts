import { newOutputRef, type OutputStore } from '../tools/outputStore';
import type { SessionStore } from './sessionStore';

/**
 * read_output's store kept with the session in SQLite: a cut output can still be paged after
 * a reload, is scoped to its session, and goes when the session is deleted or retention runs.
 */
export class StoredOutputs implements OutputStore {
	constructor(private readonly _store: SessionStore) {}

	async put(sessionId: string, text: string, ref = newOutputRef()): Promise<string> {
		this._store.putFullOutput(sessionId, ref, text);
		return ref;
	}

	async get(sessionId: string, ref: string): Promise<string | undefined> {
		return this._store.getFullOutput(sessionId, ref);
	}
}
