import type { AgentEvent } from '../agent/events';
import type { CanonicalMessage } from '../llm/canonical';
import type { Logger } from '../ports';
import type { IDisposable } from '../util/lifecycle';
import type { SessionStore } from './sessionStore';

export interface RecorderOptions {
	store: SessionStore;
	sessionId: string;
	/** Which provider and model the session is on now; recorded with each message. */
	provider(): { provider: string; model: string };
	logger: Logger;
	/** Called once after each durable commit: the message is on disk. */
	onDidCommit?(seq: number, message: CanonicalMessage): void;
	/** Called once, the first time the store refuses a write (disk full, EACCES). */
	onDidFail?(error: Error): void;
}

/**
 * Reads a session's event stream and persists it: every `messageAppended` becomes one committed
 * row. Streamed text is kept only in memory until its message boundary; if the session is
 * torn down mid-stream (window reload), `dispose` writes that partial answer so it is not lost.
 */
export class SessionRecorder implements IDisposable {
	private readonly _drafts = new Map<string, string>();
	private _failed = false;
	private _disposed = false;

	constructor(private readonly _options: RecorderOptions) {}

	handle(event: AgentEvent): void {
		if (this._disposed) {
			return;
		}
		switch (event.type) {
			case 'textDelta':
				this._drafts.set(event.turnId, (this._drafts.get(event.turnId) ?? '') + event.text);
				break;
			case 'messageAppended':
				if (event.message.kind === 'assistant' || event.message.kind === 'tool_call') {
					// The streamed text reached its boundary (or the model moved on to calls).
					this._drafts.delete(event.turnId);
				}
				this._write(event.message, event.turnId);
				break;
			case 'textRetracted':
			case 'turnFinished':
				// A retried attempt's text is not the answer; a finished turn already appended its own.
				this._drafts.delete(event.turnId);
				break;
			// Shown live while the turn runs; the store keeps messages, and these are not messages.
			case 'reasoningDelta':
			case 'toolCallUpdated':
			case 'turnStarted':
			case 'usage':
			case 'notice':
			case 'continueRequested':
			case 'continueDecided':
			case 'prefill':
				break;
		}
	}

	/** Appends a message that did not come from the loop (e.g. an "interrupted" result on resume). */
	record(message: CanonicalMessage, turnId?: string): void {
		this._write(message, turnId);
	}

	dispose(): void {
		if (this._disposed) {
			return;
		}
		for (const [turnId, text] of this._drafts) {
			if (text.trim()) {
				this._write({ kind: 'assistant', content: text }, turnId);
			}
		}
		this._drafts.clear();
		this._disposed = true;
	}

	private _write(message: CanonicalMessage, turnId: string | undefined): void {
		try {
			const seq = this._options.store.append(this._options.sessionId, message, {
				turnId,
				...this._options.provider(),
			});
			this._options.onDidCommit?.(seq, message);
		} catch (error) {
			// The conversation goes on in memory; the user is told once, not at every message.
			this._options.logger.error(`could not save session ${this._options.sessionId}`, error);
			if (!this._failed) {
				this._failed = true;
				this._options.onDidFail?.(error as Error);
			}
		}
	}
}
