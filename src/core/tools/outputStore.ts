/**
 * Full tool outputs that were too long for the model, kept per session behind opaque
 * references so read_output can page through them. The SQLite store (storedOutputs.ts) implements
 * this port; the in-memory one is the default and what tests use.
 */
import { shortId } from '../util/ids';

export interface OutputStore {
	/**
	 * Stores text for a session and returns an opaque, unguessable reference: `ref` when given
	 * (one made by newOutputRef, named to the model before the write settles), else a new one.
	 */
	put(sessionId: string, text: string, ref?: string): Promise<string>;
	/** The stored text, or undefined when the reference does not exist in THIS session. */
	get(sessionId: string, ref: string): Promise<string | undefined>;
}

/** Opaque and unguessable, so a model cannot page through outputs it was never given. */
export function newOutputRef(): string {
	return shortId('out_');
}

export class InMemoryOutputStore implements OutputStore {
	private readonly _bySession = new Map<string, Map<string, string>>();

	constructor(private readonly _maxPerSession = 200) {}

	async put(sessionId: string, text: string, ref = newOutputRef()): Promise<string> {
		let session = this._bySession.get(sessionId);
		if (!session) {
			session = new Map();
			this._bySession.set(sessionId, session);
		}
		session.set(ref, text);
		// Oldest first out: a long session must not grow without bound.
		while (session.size > this._maxPerSession) {
			session.delete(session.keys().next().value as string);
		}
		return ref;
	}

	async get(sessionId: string, ref: string): Promise<string | undefined> {
		return this._bySession.get(sessionId)?.get(ref);
	}
}
