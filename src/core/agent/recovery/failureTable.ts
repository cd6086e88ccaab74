import { type AgentError, toAgentError } from '../../errors';
import { extractErrorMessage } from '../../llm/httpErrors';
import { extractProviderRaw } from '../../llm/providerParseErrors';

/**
 * Every way a model request can fail, and what the loop does about it. Exhaustive on
 * purpose: anything not matched falls into `permanent` (never a silent blind retry).
 */
export type FailureClass =
	| 'transient'
	| 'stream'
	| 'format'
	| 'permanent'
	| 'contextOverflow'
	| 'toolsUnsupported'
	| 'billing'
	| 'reasoningRefused'
	| 'cancelled';

export type RecoveryAction =
	/** R1: back off (Retry-After honoured, capped) and send the same request again. */
	| 'retry'
	/** R2: the body broke or stalled; discard the attempt's partial output and ask again. */
	| 'retryStream'
	/** R3: the server could not parse the model's tool call; recover it from the raw text or reflect. */
	| 'reflect'
	/** Shrink the request (compact old tool outputs) once, then stop. */
	| 'compact'
	/** The server takes no native tools for this model: go on with calls written as text. */
	| 'textMode'
	/** The server refused the reasoning Keel sent back with earlier calls: send the request without it. */
	| 'dropReasoning'
	| 'stop';

export interface Classification {
	failureClass: FailureClass;
	action: RecoveryAction;
	/** Short label for the inline line, e.g. "Model busy (429)". */
	label: string;
	status?: number;
	/** Server-requested wait, from retry-after-ms / retry-after (seconds or HTTP date). */
	retryAfterMs?: number;
	/** The model's own text found inside a provider parse error. */
	raw?: string;
}

const FORMAT_500 = /error parsing tool call|failed to parse input at pos|tool call parsing failed/i;
const FORMAT_400 = /invalid tool call arguments/i;
const OVERFLOW =
	/context[_ ]length[_ ]exceeded|maximum context length|exceeds the available context size|prompt is too long|prompt too long|context window|exceeds? (?:the )?(?:max(?:imum)? )?context length|input length exceeds|too many tokens|reduce the length of the (?:messages|prompt)|must be less than max_seq_len/i;
/** A 429 (or 402/400) that is about money, not speed: waiting does not help (Z.AI 1113, OpenAI quota, Anthropic credit). */
const BILLING =
	/insufficient_quota|exceeded your current quota|billing|insufficient balance|no resource package|recharge|credit balance|"code"\s*:\s*"?1113\b|payment required/i;
/** Ollama: `… does not support tools`; vLLM without --enable-auto-tool-choice / --tool-call-parser; llama.cpp without --jinja. */
const NO_TOOLS =
	/does not support tools|tool choice requires --enable-auto-tool-choice|--tool-call-parser|tools? (?:are|is) not supported|tool_choice.*not supported|--jinja/i;

/** One table for every provider: status + body decide, never the SDK's own retry opinion. */
export function classifyFailure(error: unknown, now: () => number = Date.now): Classification {
	const agentError: AgentError = toAgentError(error);
	const { status, body = '', headers } = agentError.details;
	const message = extractErrorMessage(body) ?? agentError.message;
	switch (agentError.code) {
		case 'cancelled':
			return { failureClass: 'cancelled', action: 'stop', label: 'Stopped' };
		case 'modelUnreachable':
			return { failureClass: 'transient', action: 'retry', label: 'Model server unreachable' };
		case 'modelStream':
			return { failureClass: 'stream', action: 'retryStream', label: 'Model stream broke' };
		case 'modelAuth':
		case 'modelNotFound':
		case 'stepLimit':
		case 'loopDetected':
		case 'toolFailed':
		case 'protocol':
		case 'internal':
			return { failureClass: 'permanent', action: 'stop', label: agentError.code, status };
		case 'contextOverflow':
			return { failureClass: 'contextOverflow', action: 'compact', label: 'Context window exceeded', status };
		case 'modelFormat':
			return {
				failureClass: 'format',
				action: 'reflect',
				label: 'Malformed tool call',
				status,
				raw: extractProviderRaw(message),
			};
		case 'modelHttp':
			break;
	}
	if (status === undefined) {
		return { failureClass: 'stream', action: 'retryStream', label: 'Model stream broke' };
	}
	if ((status >= 500 && FORMAT_500.test(message)) || (status === 400 && FORMAT_400.test(message))) {
		return {
			failureClass: 'format',
			action: 'reflect',
			label: `Server could not parse the tool call (${status})`,
			status,
			raw: extractProviderRaw(message),
		};
	}
	if ((status === 400 || status === 413 || status === 422 || status === 500) && OVERFLOW.test(message)) {
		return { failureClass: 'contextOverflow', action: 'compact', label: 'Context window exceeded', status };
	}
	if ((status === 429 || status === 402 || status === 400 || status === 403) && BILLING.test(body)) {
		return { failureClass: 'billing', action: 'stop', label: `Billing or balance (${status})`, status };
	}
	if (
		(status === 400 || status === 422) &&
		/reasoning_content|\bthinking\b.*(?:not (?:allowed|permitted|supported)|unexpected|extra)/i.test(message)
	) {
		return {
			failureClass: 'reasoningRefused',
			action: 'dropReasoning',
			label: 'Server refused the reasoning sent back',
			status,
		};
	}
	if ((status === 400 || status === 404 || status === 422 || status === 501) && NO_TOOLS.test(message)) {
		return {
			failureClass: 'toolsUnsupported',
			action: 'textMode',
			label: 'Server takes no native tool calls',
			status,
		};
	}
	if (status === 408 || status === 409 || status === 425 || status === 429 || status >= 500) {
		const label =
			status === 429
				? 'Model busy (429)'
				: status === 529 || status === 503
					? `Model overloaded (${status})`
					: `Server error (${status})`;
		return {
			failureClass: 'transient',
			action: 'retry',
			label,
			status,
			retryAfterMs: parseRetryAfter(headers, now),
		};
	}
	// 400, 401, 403, 404, 422 and anything else: the same request would fail the same way.
	return { failureClass: 'permanent', action: 'stop', label: `HTTP ${status}`, status };
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
