/**
 * Errors that reach the user carry a stable code and a sentence the user can act on.
 * The code lets the UI and the recovery layer decide without parsing prose.
 */
export type ErrorCode =
	| 'modelUnreachable'
	| 'modelAuth'
	| 'modelNotFound'
	| 'modelHttp'
	| 'modelStream'
	/** The server kept answering but sent no first token within keel.model.requestTimeoutSeconds. */
	| 'modelTimeout'
	| 'modelFormat'
	| 'contextOverflow'
	| 'cancelled'
	| 'stepLimit'
	| 'loopDetected'
	| 'toolFailed'
	| 'protocol'
	| 'internal';

/**
 * Not a failure: what was asked found nothing to act on (no turn changed files, no restore to
 * undo). Shown as information, never as an error the user must fix.
 */
export class NothingToDo extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'NothingToDo';
	}
}

export class AgentError extends Error {
	constructor(
		readonly code: ErrorCode,
		message: string,
		readonly details: {
			status?: number;
			body?: string;
			headers?: Record<string, string>;
			cause?: unknown;
			/** The server reported it inside a response that had started as HTTP 200. */
			inStream?: boolean;
			/** The rule of the history the server named and still refused after the history was re-formed for it. */
			historyRule?: string;
		} = {},
	) {
		super(message);
		this.name = 'AgentError';
	}
}

export function isAbortError(error: unknown): boolean {
	if (error instanceof AgentError) {
		return error.code === 'cancelled';
	}
	const name = (error as { name?: string } | undefined)?.name;
	return name === 'AbortError' || name === 'APIUserAbortError';
}

/** Turns anything thrown into an AgentError without losing the original. */
export function toAgentError(error: unknown): AgentError {
	if (error instanceof AgentError) {
		return error;
	}
	if (isAbortError(error)) {
		return new AgentError('cancelled', 'Stopped.', { cause: error });
	}
	const message = error instanceof Error ? error.message : String(error);
	return new AgentError('internal', message, { cause: error });
}
