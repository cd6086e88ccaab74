// Raw HTTP against a real server: status, headers and the exact body bytes (SSE included),
// with the time each chunk arrived, and a way to hang up mid-response like a client that gives up.
import * as http from 'http';

export interface RawChunk {
	/** Milliseconds since the request was sent. */
	at: number;
	text: string;
}

export interface RawResponse {
	status: number;
	headers: Record<string, string>;
	body: string;
	chunks: RawChunk[];
	/** When the status line and headers arrived (ms since the request was sent); undefined if they never did. */
	headersAt?: number;
	/** Total time until the end or the hang-up. */
	ms: number;
	/** The client hung up before the end (abortWhen said so, or the timeout). */
	aborted: boolean;
}

export interface RawOptions {
	/** Called with the body so far after every chunk; true hangs up. */
	abortWhen?: (bodySoFar: string) => boolean;
	/** Hang up after this long (ms), whatever arrived. */
	abortAfterMs?: number;
}

export function rawRequest(
	baseUrl: string,
	method: string,
	path: string,
	body?: unknown,
	options: RawOptions = {},
): Promise<RawResponse> {
	const url = new URL(path, baseUrl);
	const payload = body === undefined ? undefined : JSON.stringify(body);
	const start = Date.now();
	return new Promise((resolve, reject) => {
		const out: RawResponse = { status: 0, headers: {}, body: '', chunks: [], ms: 0, aborted: false };
		let timer: NodeJS.Timeout | undefined;
		const finish = () => {
			if (timer) clearTimeout(timer);
			out.ms = Date.now() - start;
			resolve(out);
		};
		const req = http.request(
			url,
			{
				method,
				// A connection per request: Node's pooled sockets met "socket hang up" on every second
				// request to llama-server (its Keep-Alive: timeout=5); fetch (undici) reuses them fine.
				agent: false,
				headers: payload
					? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
					: {},
			},
			res => {
				out.status = res.statusCode ?? 0;
				out.headersAt = Date.now() - start;
				for (const [key, value] of Object.entries(res.headers)) {
					if (typeof value === 'string') out.headers[key] = value;
				}
				res.setEncoding('utf8');
				res.on('data', (text: string) => {
					out.body += text;
					out.chunks.push({ at: Date.now() - start, text });
					if (options.abortWhen?.(out.body)) hangUp();
				});
				res.on('end', finish);
				res.on('error', () => finish());
				res.on('close', finish);
			},
		);
		const hangUp = () => {
			if (out.aborted) return;
			out.aborted = true;
			req.destroy();
			finish();
		};
		if (options.abortAfterMs !== undefined) timer = setTimeout(hangUp, options.abortAfterMs);
		req.on('error', error => (out.aborted ? finish() : reject(error)));
		if (payload) req.write(payload);
		req.end();
	});
}

/** The JSON body, or the raw text when it is not JSON. */
export function jsonOrText(body: string): unknown {
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

/** The `data:` payloads of an SSE body, parsed where they are JSON. Comments (`:` pings) are kept as `{ comment }`. */
export function sseFrames(body: string): unknown[] {
	return body
		.split(/\r?\n\r?\n/)
		.filter(block => block.trim())
		.map(block => {
			const lines = block.split(/\r?\n/);
			const data = lines.filter(line => line.startsWith('data:')).map(line => line.slice(5).trimStart());
			if (!data.length) return { comment: block };
			return jsonOrText(data.join('\n'));
		});
}
