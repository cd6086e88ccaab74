// A read whose arguments are complete starts while the model is still streaming the rest of its
// response, through the real loop over HTTP against the model double. What a user notices is
// the read's card running before the response ends; what the model notices must not change
// (the next request byte for byte what the same turn sends when calls wait for the stream's end).
import * as assert from 'assert';
import fc from 'fast-check';
import * as z from 'zod';
import { defaultApprovalSettings, type ApprovalSettings } from '../../src/core/agent/approval/approvalPolicy';
import type { AgentEvent } from '../../src/core/agent/events';
import { runTurn, type TurnOutcome } from '../../src/core/agent/loop/runAgent';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import { defineTool, ok } from '../../src/core/tools/defineTool';
import { ToolRegistry } from '../../src/core/tools/registry';
import { sleep } from '../../src/core/util/abort';
import { InMemoryWorkspace } from '../fakes/inMemoryWorkspace';
import { startModelDouble, text, toolCalls, type ModelDouble } from '../support/modelDouble';
import type { ReplyStep } from '../support/modelDouble/types';

type Kind = 'slow_read' | 'slow_write' | 'asked_read';

/** What happened, in order: tools starting and ending, and the stream's call fragments arriving. */
let order: string[] = [];

function timed(name: Kind, effect: 'read' | 'write') {
	return defineTool({
		name,
		description: `${name} (takes ms milliseconds)`,
		input: z.object({ tag: z.string(), ms: z.number() }),
		effect,
		describe: input => `${name} ${input.tag}`,
		execute: async (input, { signal }) => {
			order.push(`start ${input.tag}`);
			try {
				await sleep(input.ms, signal);
			} finally {
				order.push(`end ${input.tag}`);
			}
			return ok(`${name} ${input.tag} done after ${input.ms} ms`);
		},
	});
}

const registry = new ToolRegistry([
	timed('slow_read', 'read'),
	timed('slow_write', 'write'),
	timed('asked_read', 'read'),
]);
const settings: ApprovalSettings = {
	...defaultApprovalSettings,
	autoApprove: { read: true, write: true },
	rules: [{ tool: 'asked_read', action: 'ask' }],
};

describe('a read starts as soon as its arguments are complete in the stream (loop over HTTP)', function () {
	this.timeout(60_000);
	let double: ModelDouble;

	before(async () => {
		double = await startModelDouble();
	});
	after(() => double.close());
	beforeEach(() => {
		double.reset();
		order = [];
	});

	const calls = (planned: Array<{ kind: Kind; ms: number }>, opts: { split?: number; delayMs?: number } = {}) =>
		toolCalls(
			planned.map((c, i) => ({ name: c.kind, arguments: { tag: `c${i}`, ms: c.ms }, id: `call_${i}` })),
			opts,
		);

	/** One turn: the outcome, its events, and every request as sent. */
	async function turn(
		steps: ReplyStep[],
		startCallsEarly: boolean,
		control: { abort?: AbortController; onEvent?: (event: AgentEvent) => void } = {},
	): Promise<{ outcome: TurnOutcome; events: AgentEvent[]; sent: string }> {
		double.reset();
		double.script(...steps);
		const events: AgentEvent[] = [];
		const outcome = await runTurn(
			{
				model: new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'glm-4.7-flash' }),
				registry,
				// The user allows whatever asks.
				approvals: { request: async () => ({ approved: true }) },
				approvalSettings: settings,
				workspace: new InMemoryWorkspace({}),
				systemPrompt: 'You are Keel.',
				maxSteps: 5,
				parallelReads: 8,
				startCallsEarly,
				emit: event => {
					events.push(event);
					if (event.type === 'toolCallUpdated' && event.call.status === 'streaming') {
						order.push(`stream ${event.call.id}`);
					}
					control.onEvent?.(event);
				},
			},
			[],
			'go',
			'early',
			(control.abort ?? new AbortController()).signal,
		);
		return { outcome, events, sent: JSON.stringify(double.modelRequests.map(r => r.body.messages)) };
	}

	it('a read runs while the next call is still streaming, and the model is sent the same bytes', async () => {
		const step = calls(
			[
				{ kind: 'slow_read', ms: 100 },
				{ kind: 'slow_write', ms: 0 },
			],
			{ split: 6, delayMs: 40 },
		);
		const early = await turn([step, text('done')], true);
		assert.strictEqual(early.outcome.reason, 'completed');
		const started = order.indexOf('start c0');
		assert.ok(
			order.lastIndexOf('stream call_1') > order.indexOf('end c0') && started >= 0,
			`the read ran and ended while call_1 was still streaming: ${order.join(', ')}`,
		);
		const earlyOrder = order;
		order = [];
		const reference = await turn([step, text('done')], false);
		assert.ok(order.indexOf('start c0') > order.lastIndexOf('stream call_1'), 'the reference waits for the end');
		assert.strictEqual(early.sent, reference.sent);
		assert.ok(earlyOrder.indexOf('start c1') > earlyOrder.indexOf('end c0'), 'the write waited for the read');
	});

	it('a write that comes first waits for the stream and the reads after it wait for it; a call that asks runs at its turn', async () => {
		for (const first of ['slow_write', 'asked_read'] as const) {
			order = [];
			const step = calls(
				[
					{ kind: first, ms: 0 },
					{ kind: 'slow_read', ms: 0 },
				],
				{ split: 4, delayMs: 20 },
			);
			const { outcome } = await turn([step, text('done')], true);
			assert.strictEqual(outcome.reason, 'completed');
			assert.ok(
				order.indexOf('start c0') > order.lastIndexOf('stream call_1'),
				`${first}: nothing ran before the stream ended (${order.join(', ')})`,
			);
			if (first === 'slow_write') {
				assert.ok(order.indexOf('start c1') > order.indexOf('end c0'), 'the read waited for the write');
			}
		}
	});

	it('Stop while the stream goes on cancels the read it started, and the turn says when it is over', async () => {
		const step = calls(
			[
				{ kind: 'slow_read', ms: 30_000 },
				{ kind: 'slow_read', ms: 0 },
			],
			{ split: 20, delayMs: 50 },
		);
		const abort = new AbortController();
		const started = Date.now();
		const { outcome, events } = await turn([step, text('done')], true, {
			abort,
			onEvent: () => {
				// Stop while the read runs and the stream still sends the next call.
				if (order.includes('start c0') && !abort.signal.aborted) abort.abort();
			},
		});
		assert.strictEqual(outcome.reason, 'cancelled');
		assert.ok(Date.now() - started < 10_000, 'the turn did not wait for the read');
		await outcome.settled;
		assert.deepStrictEqual(
			order.filter(e => !e.startsWith('stream')),
			['start c0', 'end c0'],
			'the read started early ended with the Stop; the one after it never ran',
		);
		const last = events.filter(e => e.type === 'toolCallUpdated' && e.call.id === 'call_0').at(-1);
		assert.strictEqual(last?.type === 'toolCallUpdated' && last.call.status, 'cancelled');
	});

	it('a response that breaks and is sent again: the read started from the broken one is not the one recorded', async () => {
		const planned = [
			{ kind: 'slow_read' as const, ms: 20 },
			{ kind: 'slow_read' as const, ms: 20 },
		];
		// Two call heads and their fragments, then the connection drops before the finish.
		const broken = { ...calls(planned, { split: 3, delayMs: 10 }), dropAfter: 7 };
		const whole = calls(planned, { split: 3 });
		const early = await turn([broken, whole, text('done')], true);
		assert.strictEqual(early.outcome.reason, 'completed');
		assert.strictEqual(order.filter(e => e === 'start c0').length, 2, 'the broken response had started its read');
		const reference = await turn([broken, whole, text('done')], false);
		assert.strictEqual(early.sent, reference.sent);
		const results = double.modelRequests[2].body.messages.filter((m: { role: string }) => m.role === 'tool');
		assert.strictEqual(results.length, 2, 'one result per call of the response that completed');
	});

	it('for generated steps and stream pacing: the requests are the bytes the turn sends with calls after the stream', async () => {
		const planned = fc.array(
			fc.record({
				kind: fc.constantFrom<Kind>('slow_read', 'slow_read', 'slow_write', 'asked_read'),
				ms: fc.integer({ min: 0, max: 20 }),
			}),
			{ minLength: 1, maxLength: 5 },
		);
		await fc.assert(
			fc.asyncProperty(
				planned,
				fc.integer({ min: 1, max: 5 }),
				fc.integer({ min: 0, max: 8 }),
				async (plan, split, delayMs) => {
					const steps = [calls(plan, { split, delayMs }), text('done')];
					order = [];
					const early = await turn(steps, true);
					const earlyOrder = order;
					order = [];
					const reference = await turn(steps, false);
					assert.strictEqual(early.outcome.reason, 'completed');
					assert.strictEqual(early.sent, reference.sent);
					// A write or an asking call starts only after every call before it ended.
					plan.forEach((call, i) => {
						if (call.kind === 'slow_read') return;
						for (let before = 0; before < i; before++) {
							assert.ok(earlyOrder.indexOf(`start c${i}`) > earlyOrder.indexOf(`end c${before}`));
						}
					});
				},
			),
			{ numRuns: 25 },
		);
	});
});
