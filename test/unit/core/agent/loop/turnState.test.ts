import * as assert from 'assert';
import { defaultToolPolicySettings, ToolPolicy } from '../../../../../src/core/agent/toolPolicy/toolPolicy';
import { endTurn, finishTurn, uniqueId } from '../../../../../src/core/agent/loop/turnState';
import { AgentError } from '../../../../../src/core/errors';
import { toolCallMessage } from '../../../../../src/core/llm/canonical';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { fileTools } from '../../../../fakes/readTools';
import { noteTool, phaseFixture } from './phaseFixture';

describe('turn state: the start and the end of a turn', () => {
	it('announces the turn, records the prompt as the first added message, and starts at step 0', () => {
		const { state, events } = phaseFixture();
		assert.deepStrictEqual(
			events.map(e => e.type),
			['turnStarted', 'messageAppended'],
		);
		assert.deepStrictEqual(state.added, [{ kind: 'user', content: 'go' }]);
		assert.strictEqual(state.step, 0);
		assert.strictEqual(state.stepsSinceContinue, 0);
		assert.deepStrictEqual(state.usage, { requests: 0, tokens: 0 });
		assert.strictEqual(state.nudge, undefined);
	});

	it('offers only the tools the permissions allow', () => {
		const { state } = phaseFixture([], {
			approvalSettings: { autoApprove: { read: true }, rules: [{ tool: 'write_note', action: 'deny' }] },
		});
		assert.deepStrictEqual(state.offered.map(t => t.name).sort(), ['find_path', 'list_directory', 'read_file']);
	});

	it('takes what is offered from the tool policy when the session has one', () => {
		const registry = new ToolRegistry([...fileTools, noteTool]);
		const toolPolicy = new ToolPolicy(() => ({
			...defaultToolPolicySettings,
			anomaly: { enabled: true, windowSize: 10, failureThreshold: 0.7, minCalls: 3 },
		}));
		const policy = toolPolicy.session('s');
		for (let i = 0; i < 5; i++) {
			policy.record('write_note', false, 'permanent_failure');
		}
		const { state } = phaseFixture([], { registry, toolPolicy, sessionId: 's' });
		assert.ok(state.offerable.some(t => t.name === 'write_note'));
		assert.ok(
			state.offered.some(t => t.name === 'write_note'),
			'a blocked tool stays offered; its call is refused',
		);
		assert.match(policy.refuse('write_note', new Set(['write_note'])) ?? '', /blocked for this session/);
	});

	it('gives every call id once in the session: ids in the history and ids given this turn are taken', () => {
		const history = [toolCallMessage({ id: 'c1', name: 'read_file', rawArguments: '{}', arguments: {} })];
		const { state } = phaseFixture([], {}, history);
		assert.strictEqual(uniqueId(state, 'c1', 'fallback'), 'c1-2');
		assert.strictEqual(uniqueId(state, 'c1', 'fallback'), 'c1-3');
		// Made-up ids are nine letters or digits, distinct even from the same seed.
		const made = uniqueId(state, undefined, 'f');
		const again = uniqueId(state, '', 'f');
		assert.match(made, /^[A-Za-z0-9]{9}$/);
		assert.match(again, /^[A-Za-z0-9]{9}$/);
		assert.notStrictEqual(made, again);
	});

	it('reports the end once, with the error the user reads, and returns what the turn added', () => {
		const { state, ctx, of } = phaseFixture();
		const outcome = finishTurn(state, ctx, endTurn('failed', new AgentError('modelFormat', 'No answer.')));
		assert.deepStrictEqual(of('turnFinished'), [
			{
				type: 'turnFinished',
				turnId: 't1',
				reason: 'failed',
				error: { code: 'modelFormat', message: 'No answer.' },
			},
		]);
		assert.strictEqual(outcome.reason, 'failed');
		assert.strictEqual(outcome.messages, state.added);
		assert.strictEqual(outcome.error?.code, 'modelFormat');
	});
});
