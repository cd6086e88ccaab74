// Histories every server accepts: generated conversations (calls with every kind of id, broken
// arguments, corrections and prompts after tool results, results whose call was compacted away)
// go through the real loop over HTTP to a model double enforcing a random subset of real
// servers' history rules. A server may refuse the first form once; after one re-form none is refused.

import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CanonicalMessage } from '../../src/core/llm/canonical';
import { startModelDouble, text, type ModelDouble } from '../support/modelDouble';
import { HISTORY_RULES, type HistoryRuleName } from '../support/modelDouble/wire/history';
import { harness } from '../support/resilience/harness';

const RULE_NAMES = Object.keys(HISTORY_RULES) as HistoryRuleName[];

const idArb = fc.oneof(
	fc.stringMatching(/^call_[A-Za-z0-9]{24}$/),
	fc.uuid(),
	fc.stringMatching(/^[A-Za-z0-9]{9}$/),
	fc.stringMatching(/^t[A-Za-z0-9_-]{12}-s[0-9]-c[0-9]$/),
	fc.stringMatching(/^toolu_[A-Za-z0-9]{20}$/),
);
const argsArb = fc.oneof(
	fc.constant({ raw: '{"path":"notes/a.txt"}', parsed: { path: 'notes/a.txt' } as unknown }),
	fc.constant({ raw: '{"path": "notes/a.txt", "x": "He said "hi""}', parsed: undefined as unknown }),
	fc.constant({ raw: '', parsed: undefined as unknown }),
	fc.constant({ raw: '[1,2]', parsed: [1, 2] as unknown }),
);
const wordsArb = fc.stringMatching(/^[a-z ]{1,20}$/);

/** One exchange of an earlier turn: optional text, a batch of calls and their results, then maybe a note. */
const exchangeArb = fc.record({
	text: fc.option(fc.oneof(wordsArb, fc.constant('')), { nil: undefined }),
	calls: fc.array(fc.record({ id: idArb, args: argsArb }), { minLength: 1, maxLength: 3 }),
	dropCall: fc.boolean(), // compaction removed the first call but kept its result
	after: fc.constantFrom<'none' | 'correction' | 'user'>('none', 'correction', 'user'),
});

function history(exchanges: Array<typeof exchangeArb extends fc.Arbitrary<infer T> ? T : never>): CanonicalMessage[] {
	const out: CanonicalMessage[] = [{ kind: 'user', content: 'read the notes' }];
	let n = 0;
	for (const ex of exchanges) {
		if (ex.text !== undefined) out.push({ kind: 'assistant', content: ex.text });
		const calls = ex.calls.map(c => ({ ...c, id: `${c.id}${n++}` }));
		calls.forEach((c, i) => {
			if (ex.dropCall && i === 0) return;
			out.push({
				kind: 'tool_call',
				content: `read_file(${c.args.raw})`,
				data: { id: c.id, name: 'read_file', arguments: c.args.parsed, rawArguments: c.args.raw },
			});
		});
		for (const c of calls) {
			out.push({
				kind: 'tool_result',
				content: 'alpha',
				data: { toolCallId: c.id, name: 'read_file', output: 'alpha', ok: true },
			});
		}
		if (ex.after === 'correction') out.push({ kind: 'system', content: 'Your last call failed: try again.' });
		if (ex.after === 'user') out.push({ kind: 'user', content: 'and now?' });
	}
	return out;
}

describe('histories every server accepts (real loop, HTTP, rules switched on at random)', function () {
	this.timeout(120_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	after(() => double.close());

	it('after at most one re-form no generated history is refused, whatever rules the server enforces', async () => {
		let cases = 0;
		let firstRefused = 0;
		let refusedAfterReform = 0;
		await fc.assert(
			fc.asyncProperty(
				fc.array(exchangeArb, { minLength: 1, maxLength: 4 }),
				fc.subarray(RULE_NAMES, { minLength: 1 }),
				fc.nat(5),
				async (exchanges, rules, wording) => {
					double.reset();
					double.script({ ...text('Read it.'), historyRules: rules, historyWording: wording });
					const h = harness(double, 'openai');
					const outcome = await h.run('go on', history(exchanges));
					const statuses = double.requests.filter(r => r.path.includes('chat')).map(r => r.response?.status);
					cases++;
					if (statuses[0] === 400) firstRefused++;
					const refused = statuses.filter(s => s === 400).length;
					if (refused > 1 || outcome.reason !== 'completed') refusedAfterReform++;
					assert.ok(
						refused <= 1,
						`refused ${refused} times under ${rules.join(',')}: ${JSON.stringify(statuses)}`,
					);
					assert.match(h.shown(), /Read it\./);
				},
			),
			{ numRuns: 60 },
		);
		console.log(
			`      histories: ${cases} generated, first form refused ${firstRefused}, refused after one re-form ${refusedAfterReform}`,
		);
	});
});
