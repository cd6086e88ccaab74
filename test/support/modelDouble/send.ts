// Writes a rendered response frame by frame and injects the transport faults. Each frame
// waits for its write callback, so "dropAfter: n" really means the client got n frames.

import type { ServerResponse } from 'node:http';
import type { Faults, ResponseRecord } from './types';
import { sseEvent, type Rendering } from './wire/shared';

export async function send(res: ServerResponse, r: Rendering, faults: Faults, record: ResponseRecord): Promise<void> {
	if (faults.closeBeforeHeaders) {
		record.fault = 'closedBeforeHeaders';
		record.status = 0;
		res.socket?.destroy();
		return;
	}
	if (faults.headerDelayMs && !(await sleep(faults.headerDelayMs, res))) return abort(record);

	const headers: Record<string, string | number> = { ...r.headers };
	// JSON bodies get a length, as real servers send them; streams stay chunked.
	if (!/event-stream|ndjson/.test(r.headers['content-type'] ?? ''))
		headers['content-length'] = Buffer.byteLength(r.frames.join(''));
	// A prefill may already have sent the status line (llama.cpp does when a slot starts).
	if (!res.headersSent) {
		res.writeHead(r.status, headers);
		res.flushHeaders();
	}
	record.status = res.statusCode;

	for (let i = 0; i <= r.frames.length; i++) {
		if (faults.dropAfter === i) {
			record.fault = 'dropped';
			res.socket?.destroy();
			return;
		}
		if (faults.stallAfter === i) {
			// Left open on purpose; the server destroys it on reset() / close() or when the client gives up.
			record.fault = 'stalled';
			return;
		}
		if (faults.errorAfter === i && r.errorBody) {
			if (!(await write(res, errorFrame(r, faults)))) return abort(record);
			record.fault = 'streamError';
			res.end();
			return;
		}
		if (i === r.frames.length) {
			if (faults.holdOpen) {
				// Everything sent, the socket left open: the client must see the response is complete.
				record.fault = 'stalled';
				return;
			}
			break;
		}
		if (faults.delayMs && !(await sleep(faults.delayMs, res))) return abort(record);
		if (!(await write(res, r.frames[i]))) return abort(record);
		record.frames++;
	}
	res.end();
}

/** The in-stream error in the shape asked for: an SSE `event: error`, a `data:` line, a raw JSON line, or an `error:` field. */
function errorFrame(r: Rendering, faults: Faults): string {
	const e = faults.streamError ?? { type: 'overloaded_error', message: 'Overloaded' };
	const body = faults.streamErrorBody ?? r.errorBody!(e.type ?? 'server_error', e.message);
	const shape = r.errorShape === 'ndjson' ? 'raw' : (faults.streamErrorShape ?? r.errorShape ?? 'data');
	if (shape === 'raw') return JSON.stringify(body) + '\n';
	if (shape === 'field') {
		// llama-server's old frame: the error object itself (not under `error`) on an `error:` line.
		const inner = (body as { error?: unknown }).error ?? body;
		return `error: ${JSON.stringify(inner)}\n\n${sseEvent('[DONE]', r.sse ?? {})}`;
	}
	return sseEvent(body, r.sse ?? {}, shape === 'event' ? 'error' : undefined);
}

function abort(record: ResponseRecord): void {
	record.fault = 'clientAborted';
}

function write(res: ServerResponse, frame: string): Promise<boolean> {
	if (res.destroyed || res.writableEnded) return Promise.resolve(false);
	return new Promise(resolve => res.write(frame, err => resolve(!err)));
}

/** Resolves true after ms, or false as soon as the connection closes (no dangling timers). */
function sleep(ms: number, res: ServerResponse): Promise<boolean> {
	if (res.destroyed) return Promise.resolve(false);
	return new Promise(resolve => {
		const onClose = () => {
			clearTimeout(timer);
			resolve(false);
		};
		const timer = setTimeout(() => {
			res.off('close', onClose);
			resolve(!res.destroyed);
		}, ms);
		res.once('close', onClose);
	});
}
