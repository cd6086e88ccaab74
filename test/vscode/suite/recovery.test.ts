// Recovery as a user meets it in the real extension host: a server that refuses the history Keel
// sends back by a rule it names, and a stream that ends saying the context window is full. The
// model double enforces the rule the way the real server does (test/support/modelDouble/wire/history.ts
// names the reports) and sends the stop reason in the wire's own field.
import * as assert from 'assert';
import { text, toolCalls } from '../../support/modelDouble';
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
});
