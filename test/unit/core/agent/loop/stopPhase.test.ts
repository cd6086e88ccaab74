import * as assert from 'assert';
import {
	loopDetected,
	noToolCalls,
	stepCountIs,
	wasCancelled,
	type StepInfo,
} from '../../../../../src/core/agent/guards/stopConditions';
import { stopAfterCalls, stopWhenAnswered } from '../../../../../src/core/agent/loop/stopPhase';
import { textStep } from '../../../../fakes/scriptedChatModel';
import { phaseFixture } from './phaseFixture';

const info = (patch: Partial<StepInfo>): StepInfo => ({
	step: 1,
	stepsSinceContinue: 1,
	toolCalls: 1,
	aborted: false,
	loopStopped: false,
	...patch,
});

describe('stop conditions are data', () => {
	it('each predicate reads one fact of the step', () => {
		assert.strictEqual(noToolCalls()(info({ toolCalls: 0 })), true);
		assert.strictEqual(noToolCalls()(info({ toolCalls: 2 })), false);
		assert.strictEqual(wasCancelled()(info({ aborted: true })), true);
		assert.strictEqual(loopDetected()(info({ loopStopped: true })), true);
		assert.strictEqual(stepCountIs(3)(info({ stepsSinceContinue: 2, step: 9 })), false);
		assert.strictEqual(stepCountIs(3)(info({ stepsSinceContinue: 3, step: 3 })), true);
	});
});

describe('turn phases: stop checks', () => {
	it('an answer without calls completes the turn (cancelled when the user stopped meanwhile)', async () => {
		const { state, ctx, abort } = phaseFixture();
		assert.strictEqual(await stopWhenAnswered(state, ctx, 1), undefined);
		assert.deepStrictEqual(await stopWhenAnswered(state, ctx, 0), { end: 'completed' });
		abort.abort();
		assert.deepStrictEqual(await stopWhenAnswered(state, ctx, 0), { end: 'cancelled' });
	});

	it('counts the steps that ran tools and goes on below the cap', async () => {
		const { state, ctx } = phaseFixture([], { maxSteps: 3 });
		assert.strictEqual(await stopAfterCalls(state, ctx, 1), undefined);
		assert.strictEqual(await stopAfterCalls(state, ctx, 1), undefined);
		assert.strictEqual(state.stepsSinceContinue, 2);
	});

	it('Stop pressed during the calls ends the turn cancelled before any other check', async () => {
		const { state, ctx, abort, of } = phaseFixture([], { maxSteps: 1 });
		abort.abort();
		assert.deepStrictEqual(await stopAfterCalls(state, ctx, 1), { end: 'cancelled' });
		assert.strictEqual(of('continueRequested').length, 0);
	});

	it('a doom loop the model did not leave after a warning fails the turn with an error notice', async () => {
		const { state, ctx, notices } = phaseFixture();
		for (let i = 0; i < 6; i++) {
			state.guards.afterTool(
				{ id: `c${i}`, name: 'read_file', rawArguments: '{"path":"a"}' },
				{ toolCallId: `c${i}`, name: 'read_file', output: 'same', ok: true },
				state.offered,
			);
		}
		const end = await stopAfterCalls(state, ctx, 1);
		assert.strictEqual(end?.end, 'failed');
		assert.strictEqual(end?.error?.code, 'loopDetected');
		assert.ok(notices().some(n => n.code === 'loopStopped' && n.level === 'error' && n.notify));
	});

	it('at the cap, Continue starts a new batch of steps and tells the model in the next request', async () => {
		const { state, ctx, of } = phaseFixture([], { maxSteps: 1, continueDecider: { request: async () => true } });
		state.step = 4;
		assert.strictEqual(await stopAfterCalls(state, ctx, 1), undefined);
		assert.strictEqual(state.stepsSinceContinue, 0);
		assert.match(state.nudge?.text ?? '', /step limit was reached \(4 model requests.*continue for up to 1 more/);
		assert.deepStrictEqual(
			of('continueDecided').map(e => [e.id, e.proceed]),
			[['t1-continue-4', true]],
		);
	});

	it("at the cap, the user's Stop ends the turn and sends nothing more", async () => {
		const { state, ctx, model } = phaseFixture([textStep('never')], {
			maxSteps: 1,
			continueDecider: { request: async () => false },
		});
		const end = await stopAfterCalls(state, ctx, 1);
		assert.strictEqual(end?.end, 'stepLimit');
		assert.strictEqual(model.requests.length, 0);
	});

	it('at the cap with nobody to ask, one last request (same tools, a note that none will run) lets the model say where it got to', async () => {
		const { state, ctx, model } = phaseFixture([textStep('I read two files; the fix is left.')], { maxSteps: 1 });
		state.step = 1;
		const end = await stopAfterCalls(state, ctx, 1);
		assert.strictEqual(end?.end, 'stepLimit');
		assert.strictEqual(end?.error?.code, 'stepLimit');
		assert.strictEqual(model.requests.length, 1);
		// The tools stay as every other request had them, so a local server reads only the note anew.
		assert.deepStrictEqual(
			model.requests[0].toolNames,
			state.offered.map(t => t.name),
		);
		assert.match(model.requests[0].messages.at(-1)?.content ?? '', /no more tools will run now/);
		assert.strictEqual(state.added.at(-2)?.kind, 'system', 'the note stays in the history where it was sent');
		assert.deepStrictEqual(state.added.at(-1), {
			kind: 'assistant',
			content: 'I read two files; the fix is left.',
		});
	});
});
