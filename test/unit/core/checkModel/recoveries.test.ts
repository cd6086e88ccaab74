// What Keel stepped in for, read from the loop's own notices and results, by class.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { AgentEvent } from '../../../../src/core/agent/events';
import type { CanonicalMessage } from '../../../../src/core/llm/canonical';
import { brokenCalls, classifyRecoveries } from '../../../../src/core/checkModel/recoveries';

const notice = (code: string, text: string): AgentEvent => ({
	type: 'notice',
	turnId: 't',
	level: 'info',
	code: code as never,
	text,
});
const invalid = (errorKind: string): CanonicalMessage => ({
	kind: 'tool_result',
	content: 'x',
	data: { toolCallId: 'c', name: 'read_file', output: 'x', ok: false, errorKind },
});

/** Each kind of notice the loop writes, with the class it belongs to. */
const KINDS: Array<[AgentEvent, string | undefined]> = [
	[notice('repair', 'Recovered read_file call written as text.'), 'textCall'],
	[notice('repair', 'Repaired malformed arguments for read_file (repaired malformed JSON).'), 'jsonRepair'],
	[notice('repair', 'Matched tool name "Read_File" to read_file.'), 'nameMatch'],
	[notice('repair', 'Split 2 read_file calls that arrived glued together.'), 'gluedCalls'],
	[notice('repair', 'Recovered the grep call the model wrote in its reasoning.'), 'hiddenCall'],
	[notice('reflection', 'Server could not parse the tool call (500): asked the model to correct it.'), 'serverParse'],
	[notice('transportRetry', 'Model busy (429): retrying.'), 'transport'],
	[notice('reask', 'The model sent an empty answer; asked it again.'), 'emptyAnswer'],
	[notice('loopWarning', 'The same call three times.'), 'loop'],
	[notice('usage' as never, 'not a recovery'), undefined],
];

describe('Check Model recoveries', () => {
	it('counts each notice once in its class, whatever the mix', () => {
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 0, max: KINDS.length - 1 }), { maxLength: 30 }), picks => {
				const counts = classifyRecoveries(
					picks.map(i => KINDS[i][0]),
					[],
					'native',
				);
				const expected: Record<string, number> = {};
				for (const i of picks) {
					const key = KINDS[i][1];
					if (key) {
						expected[key] = (expected[key] ?? 0) + 1;
					}
				}
				assert.deepEqual(counts, expected);
			}),
		);
	});

	it('in text mode a call written as text is the format, not a recovery', () => {
		const events = [notice('repair', 'Recovered read_file call written as text.')];
		assert.deepEqual(classifyRecoveries(events, [], 'text'), {});
		assert.deepEqual(classifyRecoveries(events, [], 'native'), { textCall: 1 });
	});

	it('a call refused for its arguments or an unknown name is a broken call; a denial is not', () => {
		const counts = classifyRecoveries(
			[],
			[invalid('invalidArguments'), invalid('unknownTool'), invalid('denied')],
			'native',
		);
		assert.deepEqual(counts, { invalidCall: 2 });
		assert.equal(brokenCalls({ ...counts, transport: 3, jsonRepair: 1 }), 3);
	});
});
