import * as assert from 'assert';
import { runCalls } from '../../../../../src/core/agent/loop/callsPhase';
import { phaseFixture, response } from './phaseFixture';

describe('turn phases: run the calls', () => {
	it('records every call before any runs, then each result in order, with the reasoning on the first call', async () => {
		const { state, ctx, events } = phaseFixture();
		await runCalls(
			state,
			ctx,
			response({
				reasoning: 'Look at both.',
				reasoningField: 'reasoning_content',
				calls: [
					{ id: 'a', name: 'read_file', rawArguments: '{"path":"README.md"}' },
					{ id: 'b', name: 'write_note', rawArguments: '{"text":"hi"}' },
				],
			}),
		);
		const appended = events.flatMap(e => (e.type === 'messageAppended' ? [e.message] : [])).slice(1);
		assert.deepStrictEqual(
			appended.map(m => m.kind),
			['tool_call', 'tool_call', 'tool_result', 'tool_result'],
		);
		const [first, second, readResult, writeResult] = appended;
		assert.ok(first.kind === 'tool_call' && second.kind === 'tool_call');
		assert.deepStrictEqual(first.data.reasoning, { text: 'Look at both.', field: 'reasoning_content' });
		assert.strictEqual(second.data.reasoning, undefined);
		assert.ok(readResult.kind === 'tool_result' && writeResult.kind === 'tool_result');
		assert.match(readResult.content, /Keel fixture/);
		assert.strictEqual(writeResult.data.toolCallId, 'b');
		assert.strictEqual(writeResult.content, 'written');
		assert.deepStrictEqual(state.added.slice(1), appended);
	});

	it('keeps the arguments of a call that are not JSON as written, and the model reads why it did not run', async () => {
		const { state, ctx } = phaseFixture();
		await runCalls(
			state,
			ctx,
			response({ calls: [{ id: 'x', name: 'read_file', rawArguments: '{path: README' }] }),
		);
		const [call, result] = state.added.slice(1);
		assert.ok(call.kind === 'tool_call' && result.kind === 'tool_result');
		assert.strictEqual(call.data.arguments, undefined);
		assert.strictEqual(call.data.rawArguments, '{path: README');
		assert.strictEqual(result.data.ok, false);
	});

	it('refuses a call that kept failing to validate this turn, and its card says so', async () => {
		const { state, ctx, of, notices } = phaseFixture();
		const bad = (id: string) => ({ id, name: 'write_note', rawArguments: '{"text": 5}' });
		// A write tool may fail validation twice in a row (sideEffectToolRetries 1), the third is refused.
		await runCalls(state, ctx, response({ calls: [bad('w1'), bad('w2'), bad('w3')] }));
		const results = state.added.flatMap(m => (m.kind === 'tool_result' ? [m.data.errorKind] : []));
		assert.deepStrictEqual(results, ['invalidArguments', 'invalidArguments', 'retryBudget']);
		const card = of('toolCallUpdated').filter(e => e.call.id === 'w3');
		assert.deepStrictEqual(
			card.map(e => e.call.status),
			['failed'],
		);
		assert.ok(notices().some(n => n.code === 'toolBudget'));
	});
});
