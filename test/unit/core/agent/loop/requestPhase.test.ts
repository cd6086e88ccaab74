import * as assert from 'assert';
import { accountUsage, planRequest, requestModel } from '../../../../../src/core/agent/loop/requestPhase';
import { isTurnEnd } from '../../../../../src/core/agent/loop/turnState';
import { defaultToolPolicySettings, ToolPolicy } from '../../../../../src/core/agent/toolPolicy/toolPolicy';
import { AgentError } from '../../../../../src/core/errors';
import { toolCallMessage } from '../../../../../src/core/llm/canonical';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { fileTools } from '../../../../fakes/readTools';
import { textStep } from '../../../../fakes/scriptedChatModel';
import { noteTool, phaseFixture, response } from './phaseFixture';

function planned(plan: ReturnType<typeof planRequest>) {
	assert.ok(!isTurnEnd(plan), 'the request fits');
	return plan(false);
}

describe('turn phases: plan the request', () => {
	it('starts a step and plans the system prompt, the history and the offered tools', () => {
		const { state, ctx } = phaseFixture();
		const request = planned(planRequest(state, ctx));
		assert.strictEqual(state.step, 1);
		assert.deepStrictEqual(
			request.messages.map(m => [m.kind, m.content]),
			[
				['system', 'sys'],
				['user', 'go'],
			],
		);
		assert.deepStrictEqual(
			request.tools.map(t => t.name),
			state.offered.map(t => t.name),
		);
	});

	it('keeps the nudge in the history as a note where it was sent, so later requests still start with this one', () => {
		const { state, ctx } = phaseFixture();
		state.nudge = { text: 'Call a tool.' };
		const request = planned(planRequest(state, ctx));
		assert.deepStrictEqual(request.messages.at(-1), { kind: 'system', content: 'Call a tool.' });
		assert.deepStrictEqual(state.added.at(-1), { kind: 'system', content: 'Call a tool.' });
		const next = planned(planRequest(state, ctx));
		assert.deepStrictEqual(next.messages.slice(0, request.messages.length), request.messages);
	});

	it('leaves the reasoning out of the calls once the server refused it', () => {
		const call = toolCallMessage({
			id: 'c1',
			name: 'read_file',
			rawArguments: '{}',
			arguments: {},
			reasoning: { text: 'thinking', field: 'reasoning_content' },
		});
		const { state, ctx } = phaseFixture([], {}, [call]);
		const plan = planRequest(state, ctx);
		const reasoningOf = () => {
			const sent = planned(plan).messages.find(m => m.kind === 'tool_call');
			return sent?.kind === 'tool_call' ? sent.data.reasoning : 'missing';
		};
		assert.deepStrictEqual(reasoningOf(), { text: 'thinking', field: 'reasoning_content' });
		state.sendReasoning = false;
		assert.strictEqual(reasoningOf(), undefined, 'the planner reads the state when it is called');
	});

	it('ends the turn, with an error notice, when the conversation cannot fit the window even compacted', () => {
		const { state, ctx, notices } = phaseFixture([], { recovery: { contextWindow: 1000 } }, [
			{ kind: 'user', content: 'x'.repeat(8000) },
		]);
		const end = planRequest(state, ctx);
		assert.ok(isTurnEnd(end));
		assert.strictEqual(end.end, 'failed');
		assert.strictEqual(end.error?.code, 'contextOverflow');
		assert.deepStrictEqual(
			notices().map(n => [n.code, n.level, n.notify]),
			[['contextBudget', 'error', true]],
		);
	});

	it('a tool blocked during the turn stays offered in its place (its call is refused instead)', () => {
		const registry = new ToolRegistry([...fileTools, noteTool]);
		const toolPolicy = new ToolPolicy(() => ({
			...defaultToolPolicySettings,
			anomaly: { enabled: true, windowSize: 10, failureThreshold: 0.7, minCalls: 3 },
		}));
		const { state, ctx } = phaseFixture([], { registry, toolPolicy, sessionId: 's' });
		planRequest(state, ctx);
		assert.ok(state.offered.some(t => t.name === 'write_note'));
		for (let i = 0; i < 3; i++) {
			toolPolicy.session('s').record('write_note', false, 'permanent_failure');
		}
		const before = state.offered.map(t => t.name);
		planRequest(state, ctx);
		assert.deepStrictEqual(
			state.offered.map(t => t.name),
			before,
		);
		assert.match(toolPolicy.session('s').refuse('write_note', new Set(before)) ?? '', /blocked for this session/);
	});
});

describe('turn phases: request the model', () => {
	it('returns the response and spends the nudge', async () => {
		const { state, ctx, model } = phaseFixture([textStep('Hello')]);
		state.nudge = { text: 'Answer now.' };
		const plan = planRequest(state, ctx);
		assert.ok(!isTurnEnd(plan));
		const output = await requestModel(state, ctx, plan);
		assert.ok(!isTurnEnd(output));
		assert.strictEqual(output.text, 'Hello');
		assert.strictEqual(model.requests[0].messages.at(-1)?.content, 'Answer now.');
		assert.strictEqual(state.nudge, undefined);
	});

	it('ends the turn on a failure that is not retried, keeping the partial answer the user saw', async () => {
		const broken = {
			events: [{ type: 'text' as const, text: 'Half an ans' }],
			error: new AgentError('modelAuth', 'The key was refused.', { status: 401 }),
		};
		const { state, ctx } = phaseFixture([broken]);
		const plan = planRequest(state, ctx);
		assert.ok(!isTurnEnd(plan));
		const end = await requestModel(state, ctx, plan);
		assert.ok(isTurnEnd(end));
		assert.strictEqual(end.end, 'failed');
		assert.strictEqual(end.error?.code, 'modelAuth');
		assert.deepStrictEqual(state.added.at(-1), { kind: 'assistant', content: 'Half an ans' });
	});

	it('ends the turn as cancelled when the user stopped it', async () => {
		const { state, ctx, abort } = phaseFixture([textStep('never')]);
		const plan = planRequest(state, ctx);
		assert.ok(!isTurnEnd(plan));
		abort.abort();
		const end = await requestModel(state, ctx, plan);
		assert.ok(isTurnEnd(end));
		assert.strictEqual(end.end, 'cancelled');
	});
});

describe('turn phases: account usage', () => {
	it("reports the provider's counts and keeps the turn's totals", () => {
		const { state, ctx, of } = phaseFixture();
		accountUsage(state, ctx, response({ usage: { promptTokens: 100, completionTokens: 20 } }));
		accountUsage(state, ctx, response({ usage: { promptTokens: 150, completionTokens: 5 } }));
		const last = of('usage').at(-1);
		assert.strictEqual(last?.estimated, false);
		assert.strictEqual(last?.turnRequests, 2);
		assert.strictEqual(last?.turnTokens, 275);
		assert.deepStrictEqual(state.usage, { requests: 2, tokens: 275 });
	});

	it("falls back to Keel's estimate when the server sent no counts, and says it is one", () => {
		const { state, ctx, of } = phaseFixture();
		const plan = planRequest(state, ctx);
		assert.ok(!isTurnEnd(plan));
		plan(false);
		accountUsage(
			state,
			ctx,
			response({ text: 'x'.repeat(40), calls: [{ id: 'c', name: 'read_file', rawArguments: 'y'.repeat(8) }] }),
		);
		const usage = of('usage')[0];
		assert.strictEqual(usage.estimated, true);
		assert.strictEqual(usage.promptTokens, state.guards.estimate);
		assert.strictEqual(usage.completionTokens, 12);
	});

	it('warns once when the server read far fewer prompt tokens than were sent (a cut prompt)', () => {
		const { state, ctx, notices } = phaseFixture([], {}, [{ kind: 'user', content: 'x'.repeat(40_000) }]);
		const plan = planRequest(state, ctx);
		assert.ok(!isTurnEnd(plan));
		plan(false);
		accountUsage(state, ctx, response({ usage: { promptTokens: 2048, completionTokens: 1 } }));
		accountUsage(state, ctx, response({ usage: { promptTokens: 2048, completionTokens: 1 } }));
		assert.deepStrictEqual(
			notices().map(n => n.code),
			['truncated'],
		);
	});
});
