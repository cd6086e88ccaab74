import * as assert from 'assert';
import * as fc from 'fast-check';
import { classifyFailure } from '../../../../../src/core/agent/recovery/failures/failureTable';
import { AgentError } from '../../../../../src/core/errors';

function failure(status: number | undefined, message: string): AgentError {
	const body = JSON.stringify({ error: { message, type: 'tokens', code: 'rate_limit_exceeded' } });
	return status === undefined
		? new AgentError('modelStream', 'The model server reported an error mid-answer', { body, inStream: true })
		: new AgentError('modelHttp', `HTTP ${status}`, { status, body });
}

const status = fc.constantFrom<number | undefined>(undefined, 400, 413, 429, 500, 503);
const prefix = fc.constantFrom(
	'Request too large for model `llama-3.3-70b` in organization `org_1` service tier `on_demand` on tokens per minute (TPM):',
	'Rate limit reached for tokens per min.',
	'Too many tokens in this request.',
	'429 Too Many Requests -',
	'',
);
const number = (n: number, commas: boolean) => (commas ? n.toLocaleString('en-US') : String(n));
/** The two numbers in the orders and words servers use. */
const sentence = fc.constantFrom(
	(limit: string, asked: string) => `Limit ${limit}, Requested ${asked}.`,
	(limit: string, asked: string) => `limit: ${limit}, requested: ${asked}`,
	(limit: string, asked: string) => `Requested ${asked} tokens, but the maximum is ${limit}.`,
	(limit: string, asked: string) => `This request needs ${asked} tokens; allowed ${limit} per minute.`,
	(limit: string, asked: string) => `max=${limit} requested=${asked}`,
);

describe('a limit the request alone exceeds', () => {
	it('is shrunk once (compacted), never retried as busy, whatever the status and phrasing', () => {
		fc.assert(
			fc.property(
				status,
				prefix,
				sentence,
				fc.integer({ min: 1000, max: 200_000 }),
				fc.integer({ min: 1, max: 50_000 }),
				fc.boolean(),
				(code, head, say, limit, over, commas) => {
					const text = `${head} ${say(number(limit, commas), number(limit + over, commas))}`.trim();
					const c = classifyFailure(failure(code, text));
					assert.strictEqual(c.action, 'compact', `${code} ${text}: ${c.action}`);
					assert.strictEqual(c.cap, limit);
				},
			),
			{ numRuns: 300 },
		);
	});

	it('a request within the limit on a full window is still a rate limit: waited for', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1000, max: 200_000 }), fc.integer({ min: 1, max: 999 }), (limit, asked) => {
				const text = `Rate limit reached for model in organization on tokens per min (TPM): Limit ${limit}, Used ${limit - 10}, Requested ${asked}. Please try again in 1.2s.`;
				const c = classifyFailure(failure(429, text));
				assert.strictEqual(c.action, 'retry', text);
			}),
			{ numRuns: 100 },
		);
	});
});

/** A context error in the plain OpenAI-compatible envelope llama.cpp and vLLM use. */
function contextError(status: number, message: string): AgentError {
	const body = JSON.stringify({ error: { code: status, message, type: 'invalid_request_error' } });
	return new AgentError('modelHttp', `HTTP ${status}`, { status, body });
}

describe('a context error that names the window', () => {
	it('gives the size the shrunk request must fit under, whatever the wording and status', () => {
		const wordings = [
			(n: number, w: number) =>
				`request (${n} tokens) exceeds the available context size (${w} tokens), try increasing it`,
			(n: number, w: number) =>
				`This model's maximum context length is ${w} tokens. However, your messages resulted in ${n} tokens.`,
			(n: number, w: number) =>
				`the request exceeds the available context size; n_ctx: ${w}, n_prompt_tokens: ${n}`,
			(n: number, w: number) => `Input is too long for requested model: context length ${w}, got ${n}`,
		];
		fc.assert(
			fc.property(
				fc.constantFrom(...wordings),
				fc.integer({ min: 512, max: 200_000 }),
				fc.integer({ min: 1, max: 50_000 }),
				fc.constantFrom(400, 413, 500),
				(say, window, over, code) => {
					const c = classifyFailure(contextError(code, say(window + over, window)));
					assert.strictEqual(c.action, 'compact');
					assert.strictEqual(c.serverWindow, window, say(window + over, window));
				},
			),
			{ numRuns: 200 },
		);
	});
});
