// Recovery as a user meets it in the real extension host: a server that refuses the history Keel
// sends back by a rule it names, and a stream that ends saying the context window is full. The
// model double enforces the rule the way the real server does (test/support/modelDouble/wire/history.ts
// names the reports) and sends the stop reason in the wire's own field.
import * as assert from 'assert';
import { text, toolCall, toolCalls, withFaults } from '../../support/modelDouble';
import { useKeelSuite } from '../keelSuite';

describe('Recovery in the extension host', function () {
	this.timeout(30_000);
	const keel = useKeelSuite();
	const notices = () => keel.api.view().items.flatMap(item => (item.kind === 'notice' ? [item] : []));
	const statuses = () =>
		keel.double.requests.filter(r => /chat\/completions/.test(r.path)).map(r => r.response?.status);

	it('a server that refuses the history by a rule it names: re-formed once, the answer arrives', async () => {
		keel.double.script(toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]), {
			...text('It is the fixture workspace.'),
			// Mistral's nine-character ids: the ids the server itself gave are longer.
			historyRules: ['nineCharIds'],
		});
		const outcome = await keel.api.runTurn('What is README.md about?');
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		assert.deepStrictEqual(statuses(), [200, 400, 200], 'refused once, then accepted');
		assert.deepStrictEqual([keel.last().kind, keel.last().content], ['assistant', 'It is the fixture workspace.']);
		assert.ok(
			notices().every(n => n.level !== 'error'),
			JSON.stringify(notices()),
		);
	});

	it('a stream that ends with the context window full: not taken for the answer, sent once more', async () => {
		keel.double.script(
			text('I was in the middle of', { finishReason: 'model_context_window_exceeded' }),
			text('Done.'),
		);
		const outcome = await keel.api.runTurn('And now?');
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		assert.strictEqual(keel.double.modelRequests.length, 2);
		assert.deepStrictEqual([keel.last().kind, keel.last().content], ['assistant', 'Done.']);
		assert.ok(
			notices().some(n => n.code === 'contextOverflow'),
			JSON.stringify(notices()),
		);
	});

	it('a call written with its name in an attribute and its arguments after a separator token runs, once', async () => {
		keel.double.script(
			text('Let me read it.\n<|open|>call name="read_file"<|sep|>{"path":"README.md"}<|close|>', { chunks: 7 }),
			text('Read: {{lastToolResult}}'),
		);
		const outcome = await keel.api.runTurn('What is in README.md?');
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		assert.deepStrictEqual(
			keel.toolCards().map(call => [call.name, call.status]),
			[['read_file', 'succeeded']],
		);
		assert.match(keel.last().content, /Fixture workspace/);
		// The text that carried the call is marked as having become one (the chat folds it), never left as the answer.
		for (const item of keel.api.view().items)
			if (item.kind === 'assistant' && /call name=/.test(item.text))
				assert.strictEqual(item.retracted, 'recovered', item.text);
	});

	it('arguments streamed as object pieces (as MiniMax sends them) are one call, run once', async () => {
		keel.double.script(
			{ ...toolCall('read_file', { path: 'README.md' }, { split: 3 }), argDeltas: 'objectPieces' },
			text('Read: {{lastToolResult}}'),
		);
		const outcome = await keel.api.runTurn('Read README.md');
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		assert.strictEqual(keel.double.modelRequests.length, 2, 'nothing asked again');
		assert.deepStrictEqual(
			keel.toolCards().map(call => [call.name, call.status]),
			[['read_file', 'succeeded']],
		);
	});

	it('an error sent on an `error:` line of a 200 stream is an error, not an empty answer', async () => {
		keel.double.script(
			withFaults(text('never shown'), {
				errorAfter: 0,
				streamErrorShape: 'field',
				streamErrorBody: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } },
			}),
			text('Ready now.'),
		);
		const outcome = await keel.api.runTurn('Hello?');
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		assert.strictEqual(keel.double.modelRequests.length, 2, 'sent once more');
		assert.deepStrictEqual([keel.last().kind, keel.last().content], ['assistant', 'Ready now.']);
		assert.ok(
			notices().every(n => n.code !== 'noAnswer'),
			JSON.stringify(notices()),
		);
	});
});
