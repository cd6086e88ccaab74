/**
 * Every tool failure classified, so recovery can tell "the server is down" (retry, not the
 * model's fault) from "the model called it wrong" (one reformat attempt) from "this cannot
 * work" (say so and stop). The model reads a `[tool_error]` block instead of a bare string.
 * Per-tool failure budgets read `category`/`retryable` from the result (ToolResultData).
 */
export type ToolErrorCategory =
	| 'tool_not_found'
	| 'invalid_parameters'
	| 'type_mismatch'
	| 'policy_blocked'
	| 'confirmation_required'
	| 'permanent_failure'
	| 'cancelled'
	| 'rate_limited'
	| 'server_error'
	| 'network_error'
	| 'timeout';

/** Not attributable to the model: retried automatically (reads and fetches, toolRetry.ts), never counted as its mistake. */
export const INFRASTRUCTURE: ReadonlySet<ToolErrorCategory> = new Set([
	'rate_limited',
	'server_error',
	'network_error',
	'timeout',
]);
/** The model produced a wrong call: one reformat attempt, then final. */
export const QUALITY: ReadonlySet<ToolErrorCategory> = new Set([
	'invalid_parameters',
	'type_mismatch',
	'tool_not_found',
]);

export interface ToolErrorInfo {
	category: ToolErrorCategory;
	retryable: boolean;
	suggestion: string;
}

/**
 * The specified table: 400/422 the call, 401/403 policy, 429 rate, 5xx server, the rest
 * permanent; 408 (the server gave up waiting) is a timeout and 425 ("too early") a request
 * sent too soon, both worth another try.
 */
export function classifyHttpStatus(status: number): ToolErrorCategory {
	if (status === 400 || status === 422) {
		return 'invalid_parameters';
	}
	if (status === 401 || status === 403) {
		return 'policy_blocked';
	}
	if (status === 408) {
		return 'timeout';
	}
	if (status === 429 || status === 425) {
		return 'rate_limited';
	}
	if (status >= 500 && status <= 599) {
		return 'server_error';
	}
	return 'permanent_failure';
}

export interface FailureFacts {
	/** From the loop: 'unknownTool' | 'invalidArguments' | 'denied' | 'cancelled' | 'error' | … */
	errorKind?: string;
	message: string;
	/** Structured fields of the tool's result envelope, when it ran. */
	fields?: Record<string, unknown>;
	refused?: boolean;
}

const NETWORK =
	/\b(?:ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|socket hang up|fetch failed|network|DNS)\b/i;
const TIMEOUT = /\b(?:timed out|timeout|did not answer in time|ETIMEDOUT)\b/i;

/** The one classifier of tool failures: what the model is told, what the tool policy counts, what is retried. */
export function classifyToolFailure(facts: FailureFacts): ToolErrorCategory {
	const f = facts.fields ?? {};
	if (facts.errorKind === 'unknownTool') {
		return 'tool_not_found';
	}
	if (facts.errorKind === 'invalidArguments') {
		// Zod: "expected number, received string" is a type mismatch; "received undefined" a missing parameter.
		return /expected \w+, received (?!undefined)\w+/.test(facts.message) ? 'type_mismatch' : 'invalid_parameters';
	}
	if (facts.errorKind === 'denied' || facts.errorKind === 'blocked' || facts.refused || f.refused === true) {
		return 'policy_blocked';
	}
	if (facts.errorKind === 'cancelled') {
		return 'cancelled';
	}
	if (f.timedOut === true) {
		return 'timeout';
	}
	if (typeof f.status === 'number' && f.status >= 400) {
		return classifyHttpStatus(f.status);
	}
	// A command that ran and exited non-zero did its job: the output says why. 126/127: cannot run.
	if (typeof f.exitCode === 'number') {
		return 'permanent_failure';
	}
	if (TIMEOUT.test(facts.message)) {
		return 'timeout';
	}
	if (NETWORK.test(facts.message) || f.errorCode === 'dockerUnavailable') {
		return 'network_error';
	}
	return 'permanent_failure';
}

const SUGGESTION: Record<ToolErrorCategory, string> = {
	tool_not_found: 'Use one of the available tools listed in the error.',
	invalid_parameters: "Fix the arguments to match the tool's schema and call it again once.",
	type_mismatch:
		'Send each argument with the type the schema asks for (e.g. a number, not a string) and call it again once.',
	policy_blocked: 'This is not allowed here. Do not retry it; find another way or ask the user.',
	confirmation_required: 'The user must confirm this call first.',
	permanent_failure:
		'Read the error, fix the cause (or try another approach), then continue. Retrying unchanged will fail the same way.',
	cancelled: 'The user stopped this; do not retry it unless asked.',
	rate_limited: 'Rate limit exceeded. The system will retry if possible.',
	server_error: 'The server failed. The system will retry if possible; otherwise try again later or another source.',
	network_error: 'The network or service is unreachable. The system will retry if possible.',
	timeout: 'It took too long. The system will retry reads; for commands, narrow the work or raise timeoutSeconds.',
};

export function describeFailure(category: ToolErrorCategory, qualityAttemptsLeft: boolean): ToolErrorInfo {
	if (QUALITY.has(category)) {
		return {
			category,
			retryable: qualityAttemptsLeft,
			suggestion: qualityAttemptsLeft
				? SUGGESTION[category]
				: 'The call failed again after a correction: do not call this tool again the same way; use another approach.',
		};
	}
	return { category, retryable: INFRASTRUCTURE.has(category), suggestion: SUGGESTION[category] };
}

/**
 * The four-line block, with the error's first line in it and any detail (a command's
 * output, the schema issues) after it, so the model always finds the verdict first.
 */
export function formatToolError(info: ToolErrorInfo, message: string): string {
	const [first, ...rest] = message.trim().split('\n');
	const detail = rest.length ? `\n${rest.join('\n')}` : '';
	return `[tool_error]\ncategory: ${info.category}\nerror: ${first}\nsuggestion: ${info.suggestion}\nretryable: ${info.retryable}${detail}`;
}
