/**
 * Why a command could not run at all (as opposed to running and failing). Each code comes
 * with a sentence the user can act on; the tool turns it into a tool error for the model.
 */
export type ExecErrorCode =
	| 'engineUnavailable'
	| 'imageBuildFailed'
	| 'imageMissing'
	| 'containerFailed'
	| 'workspaceNotShared'
	| 'shellIntegrationUnavailable'
	| 'cancelled';

export class ExecError extends Error {
	constructor(
		readonly code: ExecErrorCode,
		message: string,
		readonly details: { log?: string; cause?: unknown } = {},
	) {
		super(message);
		this.name = 'ExecError';
	}
}

export const ENGINE_UNAVAILABLE = 'Docker is not running — start it, or set keel.shell.backend to terminal';

export function engineUnavailable(cause: unknown): ExecError {
	const detail = (cause as Error)?.message ? ` (${(cause as Error).message})` : '';
	return new ExecError('engineUnavailable', `${ENGINE_UNAVAILABLE}.${detail}`, { cause });
}

/** A socket that is missing, refused or not ours is an engine that is not running; anything else as it came. */
export function engineError(error: unknown): Error {
	const code = (error as NodeJS.ErrnoException).code;
	return code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'EACCES'
		? engineUnavailable(error)
		: (error as Error);
}

/** A container that did not start, with the engine's words; an ExecError already says what it is. */
export function containerFailed(error: unknown): ExecError {
	return error instanceof ExecError
		? error
		: new ExecError('containerFailed', `The sandbox container could not start: ${(error as Error).message}`, {
				cause: error,
			});
}

/** The last lines of a log, for messages: the error is almost always at the end. */
export function tail(text: string, maxLines = 20, maxChars = 4000): string {
	const lines = text.trimEnd().split('\n');
	const kept = lines.slice(-maxLines).join('\n');
	return kept.length > maxChars ? `…${kept.slice(-maxChars)}` : kept;
}
