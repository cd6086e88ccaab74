// Calls found by their anchor whatever wraps them, and a structured call beside a call written
// in the text, through the real loop and HTTP to the model double on the three wires.

import * as assert from 'node:assert/strict';
import { startModelDouble, text, textThenTools, type ModelDouble, type Wire } from '../support/modelDouble';
import { harness } from '../support/resilience/harness';

const WIRES: Wire[] = ['openai', 'ollama', 'anthropic'];

/** What the model sent back after the tool ran: the result it was given. */
const resultSent = (double: ModelDouble) => JSON.stringify(double.modelRequests[1]?.body ?? '');

describe('resilience — markup no parser names, and calls that disagree (real loop, HTTP)', function () {
	this.timeout(30_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	afterEach(() => double.reset());
	after(() => double.close());

	for (const wire of WIRES) {
		it(`${wire}: a name in an attribute, arguments after a separator token: the call runs, the markup is never the answer`, async () => {
			double.script(
				text('Let me read it.\n<|open|>call name="read_file"<|sep|>{"path":"notes/a.txt"}<|close|>', {
					chunks: 7,
				}),
				text('It says alpha.'),
			);
			const h = harness(double, wire);
			const outcome = await h.run('What is in notes/a.txt?');
			assert.equal(outcome.reason, 'completed');
			assert.equal(double.modelRequests.length, 2);
			assert.match(resultSent(double), /content of notes\/a\.txt:\\nalpha/);
			for (const m of outcome.messages.filter(m => m.kind === 'assistant')) {
				assert.doesNotMatch(m.content, /<\||name=|call name/, m.content);
			}
		});

		it(`${wire}: "{}" as the structured call beside the whole call in the text runs the whole one, once`, async () => {
			double.script(
				textThenTools(
					'<tool_call>{"name": "write_file", "arguments": {"path": "out.txt", "content": "hi"}}</tool_call>',
					[{ name: 'write_file', arguments: '{}' }],
				),
				text('Written.'),
			);
			const h = harness(double, wire);
			const outcome = await h.run('Write hi to out.txt');
			assert.equal(outcome.reason, 'completed');
			assert.equal(h.files.files.get('out.txt'), 'hi');
			assert.equal(h.files.writeCount('out.txt'), 1);
			assert.equal(double.modelRequests.length, 2, 'no correction round for the empty call');
		});
	}
});
