import { restoreMemory, snapshotMemory } from '../agent/memory/storedMemory';
import type { SessionMemory } from '../agent/memory/sessionMemory';
import type { CanonicalMessage } from '../llm/canonical';
import type { Logger } from '../ports';
import type { ChatSession } from '../session/chatSession';
import { toDisposable, type IDisposable } from '../util/lifecycle';
import { interruptedResults } from './interrupted';
import { SessionRecorder, type RecorderOptions } from './sessionRecorder';
import type { SessionStore } from './sessionStore';

/** A stored conversation as a session resumes it: its messages and what its requests had decided. */
export interface ReopenedSession {
	sessionId: string;
	history: CanonicalMessage[];
	memory: SessionMemory;
}

/**
 * Reads a stored conversation back: every call left without a result gets an "interrupted"
 * one (written first, so the model sees a result for every call it made), and the memory the
 * session kept comes back with it, so the next request extends the last one sent.
 */
export function reopenSession(store: SessionStore, sessionId: string, logger: Logger): ReopenedSession | undefined {
	if (!store.get(sessionId)) {
		return undefined;
	}
	const history = store.load(sessionId);
	for (const result of interruptedResults(history)) {
		try {
			store.append(sessionId, result);
		} catch (error) {
			logger.error('could not record an interrupted call', error);
		}
		history.push(result);
	}
	return { sessionId, history, memory: restoreMemory(store.getMemory(sessionId)) };
}

/**
 * Records a running session: every message as it is appended (SessionRecorder), and its memory
 * after each turn and when it goes. Disposing writes a half-streamed answer, then the memory.
 */
export function keepSession(
	session: ChatSession,
	options: Omit<RecorderOptions, 'store' | 'sessionId'> & { store: SessionStore; sessionId: string },
): IDisposable {
	const { store, sessionId, logger } = options;
	const recorder = new SessionRecorder(options);
	const keepMemory = () => {
		try {
			store.putMemory(sessionId, snapshotMemory(session.memory));
		} catch (error) {
			// Only the next request's cache reuse depends on it: that request reads the conversation again.
			logger.warn(`could not keep what session ${sessionId} decided: ${(error as Error).message}`);
		}
	};
	const subscription = session.onDidEvent(event => {
		recorder.handle(event);
		if (event.type === 'turnFinished') {
			keepMemory();
		}
	});
	// Subscription first, then the recorder: its dispose writes a half-streamed answer.
	return toDisposable(() => {
		subscription.dispose();
		recorder.dispose();
		keepMemory();
	});
}
