// Errors whose status code lies about their meaning, and argument values whose encoding lies
// about their content. Recoverable ones: a context error under any status or shape (compact),
// a max_tokens the server will not give (lower it), an error nobody recognises (retry, at most
// twice), a file body escaped twice. Hopeless ones, which must not be retried blindly: a quota or
// balance, memory the model does not fit in, a wait of hours, an unknown error that never ends.

import { httpError, text, withFaults, type DataStep } from '../modelDouble';
import type { StepView } from './stepView';

export const MEANING_CLASSES = ['contextAnyShape', 'budgetTooLarge', 'unknownTransient', 'doubleEscaped'] as const;
export type MeaningClass = (typeof MEANING_CLASSES)[number];
export const MEANING_HOPELESS = ['quota', 'outOfMemory', 'longWait', 'unknownForever'] as const;
export type MeaningHopeless = (typeof MEANING_HOPELESS)[number];

/** Words of each hopeless error the user must read in the chat (the server's own). */
export const SERVER_WORDS: Record<MeaningHopeless, RegExp> = {
	quota: /quota|balance|credit/i,
	outOfMemory: /memory/i,
	longWait: /limit|try again|reset/i,
	unknownForever: /E-7731|went sideways/i,
};

export function meaningFault(fault: MeaningClass | MeaningHopeless, v: StepView): DataStep {
	const good = v.good(v.phase);
	const variant = v.s.variant;
	switch (fault) {
		case 'contextAnyShape':
			return good; // the "too long" answers come once the history is big (classicFaults.contextExceeded)
		case 'budgetTooLarge':
			return budget(v, good);
		case 'unknownTransient':
			return v.fire() < Math.min(2, v.s.burst) ? unknown(variant) : good;
		case 'doubleEscaped':
			return escapedTwice(v, good);
		case 'quota':
			return quota(variant);
		case 'outOfMemory':
			return outOfMemory(variant);
		case 'longWait':
			return longWait(variant);
		case 'unknownForever':
			return unknown(variant);
	}
}

/** The output budget Keel asked for, on whichever wire: max_tokens, max_completion_tokens, num_predict. */
function requestedBudget(body: any): number | undefined {
	const n = body?.max_tokens ?? body?.max_completion_tokens ?? body?.options?.num_predict;
	return typeof n === 'number' ? n : undefined;
}

/** A server with a small output cap refuses a larger max_tokens, each in its own words. */
function budget(v: StepView, good: DataStep): DataStep {
	const asked = requestedBudget(v.req.body);
	const cap = [4096, 2048, 1024, 4096, 3000][v.s.variant];
	if (asked === undefined || asked <= cap) return good;
	const prompt = Math.round(v.conv.size / 4);
	switch (v.s.variant) {
		case 0:
			return httpError(400, {
				type: 'error',
				error: {
					type: 'invalid_request_error',
					message: `max_tokens: ${asked} > ${cap}, which is the maximum allowed number of output tokens for double-model`,
				},
			});
		case 1:
			return httpError(400, {
				error: {
					message: `max_tokens is too large: ${asked}. This model supports at most ${cap} completion tokens, whereas you provided ${asked}.`,
					type: 'invalid_request_error',
					param: 'max_tokens',
					code: 'invalid_value',
				},
			});
		case 2:
			return httpError(400, {
				object: 'error',
				message: `This model's maximum context length is ${prompt + cap} tokens. However, you requested ${prompt + asked} tokens (${prompt} in the messages, ${asked} in the completion). Please reduce the length of the messages or completion.`,
				type: 'BadRequestError',
				param: null,
				code: 400,
			});
		case 3:
			return httpError(400, {
				type: 'error',
				error: {
					type: 'invalid_request_error',
					message: `input length and \`max_tokens\` exceed context limit: ${prompt} + ${asked} > ${prompt + cap}, decrease input length or \`max_tokens\` and try again`,
				},
			});
		default:
			return withFaults(text('x'), {
				errorAfter: 0,
				streamErrorBody: {
					error: { message: `Requested max_tokens ${asked} exceeds the model limit of ${cap} output tokens` },
				},
			});
	}
}

/** Errors that say nothing Keel knows: a transient glitch as far as anyone can tell. */
function unknown(variant: number): DataStep {
	switch (variant % 4) {
		case 0:
			return httpError(400, {
				error: { message: 'Bad request: unexpected condition E-7731', type: 'invalid_request_error' },
			});
		case 1:
			return httpError(500, 'Something went sideways (E-7731)');
		case 2:
			return withFaults(text('x'), {
				errorAfter: 0,
				streamErrorBody: { error: 'Something went sideways (E-7731)' },
			});
		default:
			return httpError(409, { error: { message: 'Conflict E-7731 while scheduling the request' } });
	}
}

/** The write's content escaped twice: newlines (and tabs, quotes, unicode) arrive as backslash sequences. */
function escapedTwice(v: StepView, good: DataStep): DataStep {
	if (v.phase !== 2 || good.kind !== 'reply' || !good.toolCalls?.length) return good;
	const args = JSON.parse(good.toolCalls[0].arguments) as Record<string, string>;
	const once = JSON.stringify(args.content).slice(1, -1);
	const content =
		v.s.variant % 2
			? once
			: once.replace(/[^\x20-\x7e]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
	return { ...good, toolCalls: [{ ...good.toolCalls[0], arguments: JSON.stringify({ ...args, content }) }] };
}

function quota(variant: number): DataStep {
	return [
		httpError(429, {
			error: {
				message: 'You exceeded your current quota, please check your plan and billing details.',
				type: 'insufficient_quota',
				code: 'insufficient_quota',
			},
		}),
		httpError(429, {
			error: { code: '1113', message: 'Insufficient balance or no resource package. Please recharge.' },
		}),
		httpError(429, {
			error: {
				code: 429,
				message:
					'Quota exceeded for quota metric generate_content_free_tier_requests and limit GenerateRequestsPerDayPerProjectPerModel-FreeTier.',
				status: 'RESOURCE_EXHAUSTED',
			},
		}),
		withFaults(text('x'), {
			errorAfter: 0,
			streamErrorShape: 'event',
			streamErrorBody: {
				type: 'error',
				error: {
					type: 'invalid_request_error',
					message:
						'Your credit balance is too low to access the API. Please go to Plans & Billing to upgrade or purchase credits.',
				},
			},
		}),
		httpError(402, {
			error: { message: 'Insufficient credits. Add more credits in your account settings.', code: 402 },
		}),
	][variant];
}

function outOfMemory(variant: number): DataStep {
	return [
		httpError(500, { error: 'model requires more system memory (12.3 GiB) than is available (7.8 GiB)' }),
		httpError(500, { error: 'llama runner process has terminated: cudaMalloc failed: out of memory' }),
		httpError(503, {
			error: {
				message: 'CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 7.79 GiB total capacity)',
				type: 'server_error',
			},
		}),
		withFaults(text('x'), {
			errorAfter: 0,
			streamErrorBody: { error: 'failed to allocate compute buffer: not enough memory' },
		}),
		httpError(400, {
			error: {
				message:
					'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9000.00 MiB on device 0: cudaMalloc failed: out of memory',
				code: 400,
			},
		}),
	][variant];
}

function longWait(variant: number): DataStep {
	const at = new Date(Date.now() + 7 * 3600_000).toISOString();
	return [
		httpError(429, {
			error: {
				message:
					'Rate limit reached for requests per day (RPD): Limit 200, Used 200. Please try again in 7h12m0s.',
				type: 'requests',
				code: 'rate_limit_exceeded',
			},
		}),
		httpError(429, { error: { message: 'Too many requests' } }, { 'retry-after': '7200' }),
		httpError(429, {
			error: { message: `Rate limit exceeded: free-models-per-day. Your limit resets at ${at}.`, code: 429 },
		}),
		httpError(429, {
			error: { code: '1302', message: `You have reached the usage limit of your plan; it will reset at ${at}.` },
		}),
		withFaults(text('x'), {
			errorAfter: 0,
			streamErrorBody: {
				error: { type: 'rate_limit_error', message: 'Daily token limit reached. Please try again in 5 hours.' },
			},
		}),
	][variant];
}
