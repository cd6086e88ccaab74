import * as assert from 'assert';
import { ContinueGate, askToContinue } from '../../../../../src/core/agent/guards/continueGate';

describe('ContinueGate', () => {
	it("resolves with the user's decision once; a second decision is refused", async () => {
		const gate = new ContinueGate();
		const answer = gate.request({ id: 'c', text: '?' }, new AbortController().signal);
		assert.ok(gate.decide('c', true));
		assert.strictEqual(await answer, true);
		assert.strictEqual(gate.decide('c', false), false);
	});

	it('fails closed to Stop: abort, dispose, unknown ids, throwing deciders, no decider', async () => {
		const gate = new ContinueGate();
		const abort = new AbortController();
		const answer = gate.request({ id: 'c', text: '?' }, abort.signal);
		abort.abort();
		assert.strictEqual(await answer, false);
		assert.strictEqual(gate.decide('nope', true), false);
		const pending = gate.request({ id: 'd', text: '?' }, new AbortController().signal);
		gate.dispose();
		assert.strictEqual(await pending, false);
		assert.strictEqual(
			await askToContinue(
				{
					request: async () => {
						throw new Error('x');
					},
				},
				{ id: 'e', text: '?' },
				new AbortController().signal,
			),
			false,
		);
		assert.strictEqual(await askToContinue(undefined, { id: 'f', text: '?' }, new AbortController().signal), false);
	});
});
