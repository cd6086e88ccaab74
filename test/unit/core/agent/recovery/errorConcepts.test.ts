import * as assert from 'assert';
import * as fc from 'fast-check';
import { readMeaning } from '../../../../../src/core/agent/recovery/failures/errorMeaning';

// Errors read by what they say, in phrasings no pattern lists: a subject and what happened to it,
// in either order, inside any envelope, under any status.
const envelope = fc.constantFrom(
	(m: string) => JSON.stringify({ error: { message: m, type: 'invalid_request_error' } }),
	(m: string) => JSON.stringify({ error: m }),
	(m: string) => JSON.stringify({ detail: m }),
	(m: string) => m,
);
const status = fc.constantFrom<number | undefined>(undefined, 400, 402, 413, 422, 429, 500, 503);

function said(subjects: string[], happened: string[], tails: string[]): fc.Arbitrary<string> {
	return fc
		.tuple(fc.constantFrom(...subjects), fc.constantFrom(...happened), fc.constantFrom(...tails), fc.boolean())
		.map(([s, h, t, passive]) => (passive ? `${h} for ${s.toLowerCase()}${t}` : `${s} ${h}${t}`));
}

const CASES: Array<[string, fc.Arbitrary<string>]> = [
	[
		'contextOverflow',
		said(
			['Prompt', 'The input', 'Your conversation', 'The token count', 'Sequence'],
			['exceeds max length', 'is larger than the model limit', 'goes over the maximum', 'is too large'],
			['', ' (9000 > 8192)', ': 9000 tokens.', '. Shorten it.'],
		),
	],
	[
		'outOfMemory',
		said(
			['RAM', 'VRAM', 'GPU memory', 'The memory'],
			['is not enough to load the model', 'is insufficient', 'could not be reserved', 'ran out'],
			['', ' (needs 12 GiB).', '.'],
		),
	],
	[
		'quota',
		said(
			['Account balance', 'Your credits', 'The subscription', 'Monthly spending'],
			['is insufficient', 'have run out', 'reached its cap', 'is depleted'],
			['', '. Top up to continue.', ' — upgrade your plan.'],
		),
	],
];

describe('errors read by what they say, in phrasings no pattern lists', () => {
	for (const [kind, phrasing] of CASES) {
		it(`${kind}: a subject and what happened to it, in either order, any envelope and status`, () => {
			fc.assert(
				fc.property(phrasing, envelope, status, (m, wrap, code) => {
					assert.strictEqual(readMeaning(wrap(m), code)?.kind, kind, m);
				}),
				{ numRuns: 150, seed: 41 },
			);
		});
	}

	it('reads phrasings from real servers that name no listed pattern', () => {
		const seen: Array<[string, string]> = [
			['Prompt exceeds max length', 'contextOverflow'],
			['The number of tokens in the prompt (9000) is larger than the model limit (8192)', 'contextOverflow'],
			['prompt too large: 9000 > 8192', 'contextOverflow'],
			['Insufficient account balance', 'quota'],
			['You have reached your monthly spending cap', 'quota'],
			['Free tier daily limit exceeded. Upgrade your plan.', 'quota'],
			['Insufficient VRAM to load model', 'outOfMemory'],
			['not enough RAM to load the model', 'outOfMemory'],
			['Output length exceeds the model limit', 'outputBudget'],
			['Service is too busy, try later', 'overloaded'],
			['model is loading, please wait', 'overloaded'],
		];
		for (const [m, kind] of seen) {
			assert.strictEqual(readMeaning(JSON.stringify({ error: { message: m } }), 400)?.kind, kind, m);
		}
	});

	it('a rate over a window, an envelope key or an unrelated limit is not read as a prompt too long or a spent account', () => {
		const cases: Array<[string, number, string | undefined]> = [
			['Rate limit of 30,000 input tokens per minute exceeded', 429, 'rateLimited'],
			['Daily limit reached. Try again in 5 hours.', 429, 'rateLimited'],
			['messages[3].content must be a string', 400, undefined],
			['Exceeded maximum number of tool calls per message', 400, undefined],
			['Invalid value for temperature: must be between 0 and 2', 400, undefined],
		];
		for (const [m, code, kind] of cases) {
			assert.strictEqual(readMeaning(JSON.stringify({ error: { message: m } }), code)?.kind, kind, m);
		}
	});
});
