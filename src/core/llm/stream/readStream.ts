import { AgentError } from '../../errors';
import type { ModelEvent } from '../chatModel';
import { bodyText, sseFrames, type Completion, type WireFrame } from './responseBody';

/** One protocol's reading of a stream: events in, model events out, and what is left at the end. */
export interface StreamReader extends Completion {
	frame(frame: WireFrame): Iterable<ModelEvent>;
	finish(): Iterable<ModelEvent>;
}

/**
 * Reads an SSE response with one protocol's reader until the response is complete. A comment
 * line (a server's ping) becomes a `waiting` event: proof of life while the server reads the prompt. Whatever
 * is not SSE (a whole JSON body, an error line) reaches the reader as raw lines, so a server
 * that ignored `stream: true` or answered an error with status 200 is read all the same.
 */
export async function* readStream(
	response: Response,
	reader: StreamReader,
	mapError: (error: unknown) => AgentError,
): AsyncGenerator<ModelEvent> {
	if (response.body) {
		try {
			for await (const frame of sseFrames(bodyText(response.body, reader), true)) {
				if (frame.kind === 'comment') {
					// A ping: the server is alive and still working (on the prompt, before the first token).
					yield { type: 'waiting' };
					continue;
				}
				yield* reader.frame(frame);
				if (reader.ended()) {
					break;
				}
			}
		} catch (error) {
			throw error instanceof AgentError ? error : mapError(error);
		}
	}
	yield* reader.finish();
}
