import { createParser } from 'eventsource-parser';
import { tryParseJson } from '../../util/json';
import { payloadError } from './payloadError';

/** One unit of a streamed response: an SSE event, or a line that was not SSE at all (a raw JSON error, a proxy's text). */
export type WireFrame = { kind: 'event'; event?: string; data: string } | { kind: 'raw'; line: string };

/** An SSE comment line (`:` …): servers send them as pings while they work (llama.cpp every `--sse-ping-interval` s). */
export interface CommentFrame {
	kind: 'comment';
}

/** Tells the reader when the response is complete in substance, so a socket left open after it does not hold the turn. */
export interface Completion {
	/** The protocol's own end was seen (`[DONE]`, `message_stop`, `done: true`): stop reading now. */
	ended(): boolean;
	/** The last content arrived (a finish reason): a short silence after it ends the response. */
	settled(): boolean;
}

/** How long a response that has settled may stay silent before it counts as complete. */
export const SETTLE_QUIET_MS = 1500;

/**
 * The body's text as it arrives. It ends when the server closes the stream, when the protocol
 * says it ended, or when a settled response stays quiet for `quietMs`: some servers keep the
 * connection open after their final chunk, and the turn ends when the response is complete,
 * not when the server hangs up. Leaving early cancels the body, which closes the connection.
 */
export async function* bodyText(
	body: ReadableStream<Uint8Array>,
	completion: Completion,
	quietMs = SETTLE_QUIET_MS,
): AsyncGenerator<string> {
	const reader = body.getReader();
	const decoder = new TextDecoder();
	let finished = false;
	try {
		while (!completion.ended()) {
			const next = completion.settled() ? await readOrQuiet(reader, quietMs) : await reader.read();
			if (next === 'quiet' || next.done) {
				finished = next !== 'quiet';
				break;
			}
			yield decoder.decode(next.value, { stream: true });
		}
		const tail = decoder.decode();
		if (tail) {
			yield tail;
		}
	} finally {
		if (!finished) {
			await reader.cancel().catch(() => undefined);
		}
		reader.releaseLock();
	}
}

async function readOrQuiet(
	reader: ReadableStreamDefaultReader<Uint8Array>,
	quietMs: number,
): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>> | 'quiet'> {
	let timer: NodeJS.Timeout | undefined;
	const quiet = new Promise<'quiet'>(resolve => (timer = setTimeout(() => resolve('quiet'), quietMs)));
	try {
		return await Promise.race([reader.read(), quiet]);
	} finally {
		clearTimeout(timer);
	}
}

/**
 * Server-sent events as the spec reads them (eventsource-parser): comments, `data:` with or
 * without a space, CRLF or LF, data over several lines, a last event without its blank line.
 * Lines that are not SSE (a JSON error body sent as is) come out as raw frames.
 */
export function sseFrames(text: AsyncIterable<string>): AsyncGenerator<WireFrame>;
export function sseFrames(text: AsyncIterable<string>, comments: true): AsyncGenerator<WireFrame | CommentFrame>;
export async function* sseFrames(
	text: AsyncIterable<string>,
	comments = false,
): AsyncGenerator<WireFrame | CommentFrame> {
	const pending: Array<WireFrame | CommentFrame> = [];
	const parser = createParser({
		onEvent: event => pending.push({ kind: 'event', event: event.event, data: event.data }),
		onComment: comments ? () => pending.push({ kind: 'comment' }) : undefined,
		onError: error => {
			if (error.type === 'unknown-field' && error.line !== undefined) {
				pending.push(fieldFrame(error.line));
			}
		},
	});
	for await (const piece of text) {
		parser.feed(piece);
		yield* pending.splice(0);
	}
	parser.reset({ consume: true });
	yield* pending.splice(0);
}

/**
 * A line in a field SSE does not define. When its value is an error object (llama-server sends
 * its context error on an `error:` line in a 200 stream), it is an error event whatever the
 * field is called; any other line reaches the reader raw.
 */
function fieldFrame(line: string): WireFrame {
	const field = /^\s*([A-Za-z_][\w-]*)\s*:\s?([\s\S]*)$/.exec(line);
	if (field) {
		const value = tryParseJson(field[2].trim());
		if (payloadError(value) || (/error/i.test(field[1]) && value !== undefined && typeof value === 'object')) {
			return { kind: 'event', event: 'error', data: field[2].trim() };
		}
	}
	return { kind: 'raw', line };
}

/** Lines of an NDJSON body (Ollama); a torn last line waits for the rest, blank lines are skipped. */
export async function* jsonLines(text: AsyncIterable<string>): AsyncGenerator<string> {
	let buffer = '';
	for await (const piece of text) {
		buffer += piece;
		let newline;
		while ((newline = buffer.indexOf('\n')) >= 0) {
			const line = buffer.slice(0, newline).trim();
			buffer = buffer.slice(newline + 1);
			if (line) {
				yield line;
			}
		}
	}
	if (buffer.trim()) {
		yield buffer.trim();
	}
}

/** Reassembles raw lines into JSON values: a raw body may be one line or pretty-printed over many. */
export class RawJson {
	private _lines: string[] = [];

	/** The value once the lines so far parse as JSON; undefined while they do not (yet). */
	push(line: string): unknown {
		this._lines.push(line);
		try {
			const value = JSON.parse(this._lines.join('\n'));
			this._lines = [];
			return value;
		} catch {
			return undefined;
		}
	}

	/** What never parsed: text a proxy sent instead of the stream. */
	get leftover(): string {
		return this._lines.join('\n').trim();
	}
}
