// Replies that stop where work should start, and the second, different re-ask, through the real
// loop and HTTP on every wire: what is sent each time, what runs, and what the user reads.

import * as assert from 'node:assert/strict';
import { startModelDouble, text, textThenTools, toolCall, type ModelDouble } from '../support/modelDouble';
import { harness } from '../support/resilience/harness';

describe('resilience — replies that stop short, and the second re-ask', function () {
	this.timeout(30_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	afterEach(() => double.reset());
	after(() => double.close());

	for (const wire of ['openai', 'ollama', 'anthropic'] as const) {
		it(`${wire}: a model that ignores the first correction follows the second — the exact form, as text, for that one request`, async () => {
			double.script(
				text('Now let me read the note:'),
				text('I will read the file now.'),
				text('<tool_call>{"name": "read_file", "arguments": {"path": "notes/a.txt"}}</tool_call>'),
				text('It says alpha.'),
			);
			const t = harness(double, wire);
			const outcome = await t.run('What does notes/a.txt say?');
			assert.equal(outcome.reason, 'completed');
			assert.ok(outcome.messages.some(m => m.kind === 'tool_result' && m.data.ok && /alpha/.test(m.content)));
			const [, second, third, fourth] = double.modelRequests.map(r => r.body);
			assert.match(JSON.stringify(second), /said what you would do next.*nothing ran/);
			assert.match(JSON.stringify(third), /exactly one tool call written as text[\s\S]*read_file/);
			assert.ok(!(third.tools?.length > 0), 'no native tools in the second re-ask');
			assert.ok(fourth.tools?.length > 0, 'native tools again after it');
			assert.deepEqual(t.notices().filter(n => n.code === 'reask').length, 2);
			// The announcements were folded, never left as the answer.
			assert.deepEqual(
				outcome.messages.filter(m => m.kind === 'assistant').map(m => m.content),
				['It says alpha.'],
			);
		});

		it(`${wire}: a call with no arguments never runs; the model is asked for them`, async () => {
			double.script(toolCall('read_file', {}), toolCall('read_file', { path: 'notes/a.txt' }), text('alpha'));
			const t = harness(double, wire);
			const outcome = await t.run();
			assert.equal(outcome.reason, 'completed');
			const results = outcome.messages.filter(m => m.kind === 'tool_result');
			assert.equal(results.length, 1, 'only the call with its arguments ran');
			assert.match(
				JSON.stringify(double.modelRequests[1].body),
				/read_file call had no arguments, so nothing ran/,
			);
		});

		it(`${wire}: what the model invents after its call is set aside; the real result is used`, async () => {
			double.script(
				{ ...toolCall('read_file', { path: 'notes/a.txt' }), textAfter: '\nThe file says BANANA.' },
				text('It says {{lastToolResult}}'),
			);
			const t = harness(double, wire);
			const outcome = await t.run();
			assert.equal(outcome.reason, 'completed');
			const shown = outcome.messages
				.filter(m => m.kind === 'assistant')
				.map(m => m.content)
				.join('\n');
			assert.ok(!shown.includes('BANANA'), shown);
			assert.match(shown, /alpha/);
			assert.ok(t.notices().some(n => /Set aside what the model wrote after its call/.test(n.text)));
		});

		it(`${wire}: a native call also written out in the text runs once, and the copy is not the answer`, async () => {
			const call = { name: 'read_file', arguments: { path: 'notes/a.txt' } };
			double.script(
				textThenTools(`Reading it.\n<tool_call>${JSON.stringify(call)}</tool_call>`, [call]),
				text('It says {{lastToolResult}}'),
			);
			const outcome = await harness(double, wire).run();
			assert.equal(outcome.reason, 'completed');
			assert.equal(outcome.messages.filter(m => m.kind === 'tool_result').length, 1);
			assert.deepEqual(
				outcome.messages.filter(m => m.kind === 'assistant').map(m => m.content.split('\n')[0]),
				['Reading it.', 'It says content of notes/a.txt:'],
			);
		});
	}
});
