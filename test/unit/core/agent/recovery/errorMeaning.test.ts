import * as assert from 'assert';
import * as fc from 'fast-check';
import { classifyFailure } from '../../../../../src/core/agent/recovery/failures/failureTable';
import { namedWaitMs } from '../../../../../src/core/agent/recovery/failures/errorMeaning';
import { AgentError } from '../../../../../src/core/errors';

/** An error as any server may send it: a status (or inside a 200 stream) and one of the envelopes. */
const envelope = fc.constantFrom(
	(m: string) => ({ error: { message: m, type: 'error' } }),
	(m: string) => ({ error: m }),
	(m: string) => ({ object: 'error', message: m }),
	(m: string) => ({ type: 'error', error: { type: 'api_error', message: m } }),
	(m: string) => ({ detail: m }),
);
const where = fc.constantFrom<number | undefined>(undefined, 400, 402, 403, 413, 422, 429, 500, 503);

function failure(status: number | undefined, body: unknown): AgentError {
	return status === undefined
		? new AgentError('modelStream', 'The model server reported an error mid-answer', {
				body: JSON.stringify(body),
				inStream: true,
			})
		: new AgentError('modelHttp', `HTTP ${status}`, { status, body: JSON.stringify(body) });
}

/** Phrasings composed from parts: no list of messages, a subject and what happened to it. */
const phrasing = (parts: string[][]) =>
	fc.tuple(...parts.map(p => fc.constantFrom(...p))).map(words => words.join(' '));
const context = phrasing([
	['The prompt', 'Your input', 'This request', 'The messages'],
	[
		'exceeds the maximum context length of',
		'is longer than the model context window of',
		'is too long for the context size of',
	],
	['4096 tokens.', '32768 tokens', '8k tokens.'],
]);
const quota = phrasing([
	[
		'You exceeded your current quota,',
		'Insufficient balance,',
		'Your credit balance is too low,',
		'Monthly usage limit reached,',
	],
	['please check your plan and billing details.', 'please recharge.', 'add credits to continue.'],
]);
const memory = phrasing([
	[
		'CUDA out of memory.',
		'model requires more system memory (9.1 GiB) than is available (6.0 GiB).',
		'failed to allocate compute buffer:',
		'cudaMalloc failed: out of memory',
	],
	['', 'Tried to allocate 2.00 GiB.', 'try a smaller model'],
]);

describe('errors read by what they mean, whatever their status', () => {
	it('a context overflow compacts, under any status and envelope, inside a stream too', () => {
		fc.assert(
			fc.property(context, envelope, where, (m, wrap, status) => {
				assert.strictEqual(classifyFailure(failure(status, wrap(m))).action, 'compact', `${status} ${m}`);
			}),
			{ numRuns: 200, seed: 31 },
		);
	});

	it('a quota or balance is never retried, whatever its status (429 included)', () => {
		fc.assert(
			fc.property(quota, envelope, where, (m, wrap, status) => {
				const c = classifyFailure(failure(status, wrap(m)));
				assert.deepStrictEqual([c.failureClass, c.action], ['billing', 'stop'], `${status} ${m}`);
			}),
			{ numRuns: 200, seed: 32 },
		);
	});

	it('out of memory is never retried, whatever its status', () => {
		fc.assert(
			fc.property(memory, envelope, where, (m, wrap, status) => {
				const c = classifyFailure(failure(status, wrap(m)));
				assert.deepStrictEqual([c.failureClass, c.action], ['outOfMemory', 'stop'], `${status} ${m}`);
			}),
			{ numRuns: 200, seed: 33 },
		);
	});

	it('an output budget the server will not give is lowered to what it names', () => {
		const cases: Array<[string, number, number]> = [
			['max_tokens: 8192 > 4096, which is the maximum allowed number of output tokens for claude-x', 8192, 4096],
			[
				'max_tokens is too large: 30000. This model supports at most 2048 completion tokens, whereas you provided 30000.',
				30000,
				2048,
			],
			[
				"This model's maximum context length is 16384 tokens. However, you requested 20000 tokens (4000 in the messages, 16000 in the completion).",
				16000,
				12384,
			],
			[
				'input length and `max_tokens` exceed context limit: 150000 + 64000 > 200000, decrease input length or `max_tokens` and try again',
				64000,
				50000,
			],
		];
		for (const [m, asked, cap] of cases) {
			const c = classifyFailure(failure(400, { error: { message: m } }), { askedMaxTokens: asked });
			assert.deepStrictEqual([c.action, c.cap], ['lowerMaxTokens', cap], m);
		}
		// The messages alone fill the window: that is an overflow to compact, not a budget to lower.
		const full =
			"This model's maximum context length is 16384 tokens. However, you requested 17408 tokens (16384 in the messages, 1024 in the completion).";
		assert.strictEqual(classifyFailure(failure(400, { object: 'error', message: full })).action, 'compact');
	});

	it('a named wait longer than the turn could outlast stops and says when; a short one is waited for', () => {
		assert.strictEqual(namedWaitMs('Please try again in 7h12m0s.'), (7 * 60 + 12) * 60_000);
		assert.strictEqual(namedWaitMs('Rate limit reached. Please try again in 20ms'), 20);
		const now = Date.parse('2026-11-03T08:00:00Z');
		assert.strictEqual(namedWaitMs('Your limit resets at 2026-11-03T10:00:00Z.', now), 2 * 3_600_000);
		const long = classifyFailure(
			failure(429, { error: { message: 'Daily limit reached. Try again in 5 hours.' } }),
			{ retryAfterCapMs: 360_000 },
		);
		assert.deepStrictEqual([long.failureClass, long.action], ['waitTooLong', 'stop']);
		const short = classifyFailure(failure(429, { error: { message: 'Rate limit reached, try again in 2s.' } }), {
			retryAfterCapMs: 360_000,
		});
		assert.deepStrictEqual([short.action, short.retryAfterMs], ['retry', 2000]);
	});

	it('words nobody recognises are retried at most twice (retryUnknown), whatever the status', () => {
		fc.assert(
			fc.property(
				fc.stringMatching(/^[A-Z][a-z]{3,8} [a-z]{3,8} [A-Z]-\d{3}$/),
				envelope,
				fc.constantFrom(400, 409, 422, 500),
				(m, wrap, status) => {
					assert.strictEqual(classifyFailure(failure(status, wrap(m))).action, 'retryUnknown', m);
				},
			),
			{ numRuns: 100, seed: 34 },
		);
	});
});
