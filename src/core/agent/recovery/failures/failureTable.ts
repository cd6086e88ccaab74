import { type AgentError, toAgentError } from '../../../errors';
import { extractErrorMessage } from '../../../llm/stream/httpErrors';
import { stringLeaves } from '../../../llm/stream/payloadError';
import { tryParseJson } from '../../../util/json';
import { extractProviderRaw } from '../../../llm/stream/providerParseErrors';
import { readMeaning, type Meaning } from './errorMeaning';

/**
 * Every way a model request can fail, and what the loop does about it. A body's meaning
 * decides first, whatever the status code; the status only speaks when the words say nothing
 * Keel knows, and an error nobody recognises is retried at most twice, then shown as it came.
 */
export type FailureClass =
	| 'transient'
	| 'stream'
	| 'format'
	| 'permanent'
	| 'contextOverflow'
	| 'outputBudget'
	| 'toolsUnsupported'
	| 'toolSchema'
	| 'billing'
	| 'outOfMemory'
	| 'waitTooLong'
	| 'reasoningRefused'
	| 'unknown'
	| 'cancelled';

export type RecoveryAction =
	/** R1: back off (Retry-After honoured, capped) and send the same request again. */
	| 'retry'
	/** R2: the body broke or stalled; discard the attempt's partial output and ask again. */
	| 'retryStream'
	/** An error with no meaning Keel knows: the same request again, at most twice. */
	| 'retryUnknown'
	/** R3: the server could not parse the model's tool call; recover it from the raw text or reflect. */
	| 'reflect'
	/** Shrink the request (compact old tool outputs) once, then stop. */
	| 'compact'
	/** Ask for fewer output tokens (what the server said it allows) once, then stop. */
	| 'lowerMaxTokens'
	/** The server takes no native tools for this model: go on with calls written as text. */
	| 'textMode'
	/** The server could not compile the tool schemas (its grammar): fewer tools in their simplest form, once, then stop. */
	| 'simplifyTools'
	/** The server refused the reasoning Keel sent back with earlier calls: send the request without it. */
	| 'dropReasoning'
	| 'stop';

export interface Classification {
	failureClass: FailureClass;
	action: RecoveryAction;
	/** Short label for the inline line, e.g. "Model busy (429)". */
	label: string;
	status?: number;
	/** Server-requested wait, from retry-after-ms / retry-after (seconds or HTTP date) or the body's words. */
	retryAfterMs?: number;
	/** The model's own text found inside a provider parse error (Ollama `raw='…'`, llama.cpp `at pos N:`). */
	raw?: string;
	/** Every string of the error body: where a server may have put the model's failed call. */
	leaves: string[];
	/** The output-token cap the server named (lowerMaxTokens), or the limit a request alone exceeds. */
	cap?: number;
	/** The context window a context error named: the shrunk request is made to fit under it. */
	serverWindow?: number;
	/** The server's words, as it wrote them. */
	words: string;
}

export interface ClassifyOptions {
	now?: () => number;
	/** A wait longer than this is not waited for: the turn stops and names the time. */
	retryAfterCapMs?: number;
	/** The output budget the failed request asked for (to read "8192 > 4096" right). */
	askedMaxTokens?: number;
}

const TRANSIENT_STATUS = new Set([408, 425, 429, 502, 503, 504, 520, 521, 522, 523, 524, 529]);

/** One table for every provider: what the body means decides, never the SDK's own retry opinion. */
export function classifyFailure(error: unknown, options: ClassifyOptions = {}): Classification {
	const agentError: AgentError = toAgentError(error);
	const { status, body = '', headers } = agentError.details;
	const words = extractErrorMessage(body) ?? agentError.message;
	const base = { status, words, leaves: stringLeaves(tryParseJson(body) ?? body) };
	const fixed = byCode(agentError, base);
	if (fixed) {
		return fixed;
	}
	const now = options.now ?? Date.now;
	// Only the server's words mean anything: Keel's own messages (a stall, a dropped socket) carry no body.
	const meaning = body ? readMeaning(`${words}\n${body}`, status, options.askedMaxTokens, now()) : undefined;
	const headerWait = parseRetryAfter(headers, now);
	if (meaning) {
		return fromMeaning(meaning, { ...base, raw: extractProviderRaw(words) }, headerWait, options.retryAfterCapMs);
	}
	if (status === undefined && !body) {
		return { ...base, failureClass: 'stream', action: 'retryStream', label: 'Model stream broke' };
	}
	if (status !== undefined && TRANSIENT_STATUS.has(status)) {
		return fromMeaning(
			{ kind: status === 429 ? 'rateLimited' : 'overloaded' },
			base,
			headerWait,
			options.retryAfterCapMs,
		);
	}
	if (status === 401 || status === 403 || status === 404) {
		return { ...base, failureClass: 'permanent', action: 'stop', label: `HTTP ${status}` };
	}
	return {
		...base,
		failureClass: 'unknown',
		action: 'retryUnknown',
		label: status ? `Server error (${status})` : 'Server error',
	};
}

type Base = Pick<Classification, 'status' | 'words' | 'leaves' | 'raw'>;

/** Codes that already say everything: a stop, the connection, our own guards. */
function byCode(error: AgentError, base: Base): Classification | undefined {
	switch (error.code) {
		case 'cancelled':
			return { ...base, failureClass: 'cancelled', action: 'stop', label: 'Stopped' };
		case 'modelUnreachable':
			return { ...base, failureClass: 'transient', action: 'retry', label: 'Model server unreachable' };
		case 'modelTimeout':
			// Sent again it would be read from the start again: the user decides (a longer timeout, a shorter chat).
			return { ...base, failureClass: 'permanent', action: 'stop', label: 'No first token in time' };
		case 'modelAuth':
		case 'modelNotFound':
		case 'stepLimit':
		case 'loopDetected':
		case 'toolFailed':
		case 'protocol':
		case 'internal':
			return { ...base, failureClass: 'permanent', action: 'stop', label: error.code };
		case 'contextOverflow':
			return { ...base, failureClass: 'contextOverflow', action: 'compact', label: 'Context window exceeded' };
		case 'modelFormat':
			return {
				...base,
				failureClass: 'format',
				action: 'reflect',
				label: 'Malformed tool call',
				raw: extractProviderRaw(base.words),
			};
		// What an HTTP error or a broken stream means is in its status and words, read after this;
		// a history refused again after it was re-formed for the rule the server named cannot pass as sent.
		case 'modelHttp':
		case 'modelStream':
			return error.details.historyRule
				? { ...base, failureClass: 'permanent', action: 'stop', label: 'Server refused the history' }
				: undefined;
	}
}

/** Shrunk once like a context overflow; the limit is kept to say what to change if it still does not fit. */
function overLimit(base: Base, meaning: Meaning, code: string): Classification {
	if (meaning.kind !== 'requestOverLimit') {
		const window = meaning.kind === 'contextOverflow' ? meaning.window : undefined;
		return {
			...base,
			failureClass: 'contextOverflow',
			action: 'compact',
			label: 'Context window exceeded',
			...(window ? { serverWindow: window } : {}),
		};
	}
	return {
		...base,
		failureClass: 'contextOverflow',
		action: 'compact',
		label: `Request larger than the server's limit${code}`,
		cap: meaning.limit,
	};
}

function fromMeaning(meaning: Meaning, base: Base, headerWait: number | undefined, capMs = 60_000): Classification {
	const status = base.status;
	const code = status ? ` (${status})` : '';
	switch (meaning.kind) {
		case 'toolFormat':
			return {
				...base,
				failureClass: 'format',
				action: 'reflect',
				label: `Server could not parse the tool call${code}`,
			};
		case 'toolsUnsupported':
			return {
				...base,
				failureClass: 'toolsUnsupported',
				action: 'textMode',
				label: meaning.vllm ? 'vllm' : 'Server takes no native tool calls',
			};
		case 'toolSchema':
			return {
				...base,
				failureClass: 'toolSchema',
				action: 'simplifyTools',
				label: `The server could not compile the tool schemas${code}`,
			};
		case 'reasoningRefused':
			return {
				...base,
				failureClass: 'reasoningRefused',
				action: 'dropReasoning',
				label: 'Server refused the reasoning sent back',
			};
		case 'outputBudget':
			return {
				...base,
				failureClass: 'outputBudget',
				action: 'lowerMaxTokens',
				label: `Output budget refused${code}`,
				cap: meaning.cap,
			};
		case 'contextOverflow':
		case 'requestOverLimit':
			return overLimit(base, meaning, code);
		case 'outOfMemory':
			return { ...base, failureClass: 'outOfMemory', action: 'stop', label: `Out of memory${code}` };
		case 'quota':
			return {
				...base,
				failureClass: 'billing',
				action: 'stop',
				label: `Billing or balance${code}`,
				retryAfterMs: meaning.waitMs ?? headerWait,
			};
		case 'auth':
		case 'modelMissing':
			return { ...base, failureClass: 'permanent', action: 'stop', label: `HTTP ${status ?? '?'}` };
		case 'rateLimited':
		case 'overloaded': {
			const wait = headerWait ?? (meaning.kind === 'rateLimited' ? meaning.waitMs : undefined);
			if (wait !== undefined && wait > capMs) {
				return {
					...base,
					failureClass: 'waitTooLong',
					action: 'stop',
					label: `Rate limited${code}`,
					retryAfterMs: wait,
				};
			}
			const label =
				status === undefined
					? 'Server error mid-answer'
					: meaning.kind === 'rateLimited'
						? `Model busy${code}`
						: status !== 500
							? `Model overloaded${code}`
							: `Server error${code}`;
			return { ...base, failureClass: 'transient', action: 'retry', label, retryAfterMs: wait };
		}
	}
}

/** `retry-after-ms`, then `retry-after` as seconds or an HTTP date; undefined when absent or nonsense. */
export function parseRetryAfter(
	headers: Record<string, string> | undefined,
	now: () => number = Date.now,
): number | undefined {
	if (!headers) {
		return undefined;
	}
	const ms = Number(headers['retry-after-ms']);
	if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) {
		return ms;
	}
	const value = headers['retry-after'];
	if (value === undefined || value.trim() === '') {
		return undefined;
	}
	const seconds = Number(value);
	if (Number.isFinite(seconds)) {
		return seconds >= 0 ? seconds * 1000 : undefined;
	}
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}
