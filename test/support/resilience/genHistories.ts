// Generated histories for the history rules real servers enforce (modelDouble/wire/history.ts):
// earlier turns with calls of every kind of id, broken arguments, corrections and prompts after
// tool results, results whose call was compacted away, calls whose result never came, empty and
// blank texts. Shared by the histories test and the generative bench, so both judge the same set.

import fc from 'fast-check';
import type { CanonicalMessage } from '../../../src/core/llm/canonical';
import type { ModelDouble, Wire } from '../modelDouble/types';
import { text } from '../modelDouble';
import { HISTORY_RULES, type HistoryRuleName } from '../modelDouble/wire/history';
import { harness } from './harness';

export const RULE_NAMES = Object.keys(HISTORY_RULES) as HistoryRuleName[];

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
const blankArb = fc.constantFrom('', ' ', '\n', ' \t ');

/** One exchange of an earlier turn: optional text, a batch of calls and their results, then maybe a note. */
export const exchangeArb = fc.record({
	text: fc.option(fc.oneof(wordsArb, blankArb), { nil: undefined }),
	calls: fc.array(fc.record({ id: idArb, args: argsArb, output: fc.oneof(fc.constant('alpha'), blankArb) }), {
		minLength: 1,
		maxLength: 3,
	}),
	dropCall: fc.boolean(), // compaction removed the first call but kept its result
	dropResult: fc.boolean(), // the last call's result never came (a turn stopped before it ran)
	after: fc.constantFrom<'none' | 'correction' | 'user' | 'blank'>('none', 'correction', 'user', 'blank'),
});

export function history(
	exchanges: Array<typeof exchangeArb extends fc.Arbitrary<infer T> ? T : never>,
): CanonicalMessage[] {
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
		for (const [i, c] of calls.entries()) {
			if (ex.dropResult && i === calls.length - 1 && !(ex.dropCall && i === 0)) continue;
			out.push({
				kind: 'tool_result',
				content: c.output,
				data: { toolCallId: c.id, name: 'read_file', output: c.output, ok: true },
			});
		}
		if (ex.after === 'correction') out.push({ kind: 'system', content: 'Your last call failed: try again.' });
		if (ex.after === 'user') out.push({ kind: 'user', content: 'and now?' });
		if (ex.after === 'blank') out.push({ kind: 'user', content: ' ' });
	}
	return out;
}

export type Exchange = typeof exchangeArb extends fc.Arbitrary<infer T> ? T : never;

/** A generated case: earlier exchanges and the rules (of those the wire's servers enforce) switched on, in one of their wordings. */
export function historyCaseArb(wire: Wire) {
	const rules = RULE_NAMES.filter(name => HISTORY_RULES[name].wires.includes(wire));
	return fc.record({
		exchanges: fc.array(exchangeArb, { minLength: 1, maxLength: 4 }),
		enforced: fc.subarray(rules, { minLength: 1 }),
		wording: fc.nat(5),
	});
}

export type HistoryCase = typeof historyCaseArb extends (w: Wire) => fc.Arbitrary<infer T> ? T : never;

/** One case through the real loop over HTTP: the statuses of its model requests and how the turn ended. */
export async function runHistoryCase(double: ModelDouble, wire: Wire, c: HistoryCase) {
	double.reset();
	double.script({ ...text('Read it.'), historyRules: c.enforced, historyWording: c.wording });
	const h = harness(double, wire);
	const outcome = await h.run('go on', history(c.exchanges));
	const statuses = double.requests
		.filter(r => r.path.includes('chat') || r.path.includes('messages'))
		.map(r => r.response?.status);
	return { statuses, outcome, shown: h.shown(), refused: statuses.filter(s => s === 400).length };
}
