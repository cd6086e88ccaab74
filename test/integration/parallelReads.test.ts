// Read-only calls of one step run together through the real loop, over HTTP against the model
// double: what a user notices is the wait (reads overlap), and what the model notices must not
// change (results in call order, the next request byte for byte what sequential calls send).
import * as assert from 'assert';
import fc from 'fast-check';
import * as z from 'zod';
import { defaultApprovalSettings, type ApprovalSettings } from '../../src/core/agent/approval/approvalPolicy';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import { ChatSession } from '../../src/core/session/chatSession';
import { defineTool, ok, type ToolDefinition } from '../../src/core/tools/defineTool';
import { ToolRegistry } from '../../src/core/tools/registry';
import { sleep } from '../../src/core/util/abort';
import { InMemoryWorkspace } from '../fakes/inMemoryWorkspace';
import { fileTools } from '../fakes/readTools';
import { startModelDouble, text, toolCalls, type ModelDouble } from '../support/modelDouble';

/** What the tools saw: when each call started and ended, and how many ran at once. */
class Timeline {
	events: Array<{ id: string; at: 'start' | 'end'; t: number }> = [];
	running = 0;
	most = 0;
	start(id: string): void {
		this.running++;
		this.most = Math.max(this.most, this.running);
		this.events.push({ id, at: 'start', t: this.events.length });
	}
	end(id: string): void {
		this.running--;
		this.events.push({ id, at: 'end', t: this.events.length });
	}
	/** Position of an event in the order things happened. */
	when(id: string, at: 'start' | 'end'): number {
		return this.events.findIndex(e => e.id === id && e.at === at);
	}
}

/** Tools whose calls take `ms` and say which call they were: a read, a write, and a read a rule makes ask. */
function timedTools(timeline: Timeline): ToolDefinition<any>[] {
	const timed = (name: string, effect: 'read' | 'write') =>
		defineTool({
			name,
			description: `${name} (takes ms milliseconds)`,
			input: z.object({ tag: z.string(), ms: z.number() }),
			effect,
			describe: input => `${name} ${input.tag}`,
			execute: async (input, { signal }) => {
				timeline.start(input.tag);
				try {
					await sleep(input.ms, signal);
				} finally {
					timeline.end(input.tag);
				}
				return ok(`${name} ${input.tag} done after ${input.ms} ms`);
			},
		});
	return [timed('slow_read', 'read'), timed('slow_write', 'write'), timed('asked_read', 'read')];
}

const settings: ApprovalSettings = {
	...defaultApprovalSettings,
	autoApprove: { read: true, write: true },
	rules: [{ tool: 'asked_read', action: 'ask' }],
};

type Kind = 'slow_read' | 'slow_write' | 'asked_read';
interface PlannedCall {
	kind: Kind;
	ms: number;
}

describe('read-only calls of a step run together, results in call order (loop over HTTP)', function () {
	this.timeout(60_000);
	let double: ModelDouble;
	let timeline: Timeline;

	before(async () => {
		double = await startModelDouble();
	});
	after(() => double.close());
	beforeEach(() => {
		double.reset();
		timeline = new Timeline();
	});

	function session(parallelReads: number): ChatSession {
		const chat = new ChatSession({
			sessionId: `reads-${parallelReads}`,
			createModel: async () => new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'glm-4.7-flash' }),
			registry: new ToolRegistry([...fileTools, ...timedTools(timeline)]),
			workspace: new InMemoryWorkspace({ 'README.md': '# Fixture\nThe answer is 42.', 'src/app.ts': 'x\n' }),
			approvalSettings: () => settings,
			maxSteps: () => 5,
			parallelReads: () => parallelReads,
			systemPrompt: () => 'You are Keel.',
		});
		// The user approves whatever asks.
		chat.onDidEvent(event => {
			if (event.type === 'toolCallUpdated' && event.call.status === 'awaitingApproval') {
				setImmediate(() => chat.decide(event.call.id, true));
			}
		});
		return chat;
	}

	const step = (calls: PlannedCall[]) =>
		toolCalls(calls.map((c, i) => ({ name: c.kind, arguments: { tag: `c${i}`, ms: c.ms }, id: `call_${i}` })));

	/** The second request's messages as sent on the wire. */
	const followUp = () => JSON.stringify(double.modelRequests[1].body.messages);

	it('five reads of 200 ms each run at once, and the results go back in the order asked', async () => {
		double.script(step(Array.from({ length: 5 }, () => ({ kind: 'slow_read' as const, ms: 200 }))), text('ok'));
		const outcome = await session(8).send('read five things');
		assert.strictEqual(outcome.reason, 'completed');
		assert.strictEqual(timeline.most, 5, 'all five were running at the same moment');
		const tools = double.modelRequests[1].body.messages.filter((m: { role: string }) => m.role === 'tool');
		assert.deepStrictEqual(
			tools.map((m: { tool_call_id: string }) => m.tool_call_id),
			['call_0', 'call_1', 'call_2', 'call_3', 'call_4'],
		);
		assert.match(tools[4].content, /slow_read c4 done after 200 ms/);
	});

	it('runs no more reads at once than keel.agent.parallelReads, and one at a time with 1', async () => {
		for (const limit of [2, 1]) {
			double.reset();
			timeline = new Timeline();
			double.script(step(Array.from({ length: 5 }, () => ({ kind: 'slow_read' as const, ms: 30 }))), text('ok'));
			await session(limit).send('read');
			assert.strictEqual(timeline.most, limit);
		}
	});

	it('sends the model byte for byte what sequential calls send, whatever order the reads finish in', async () => {
		const calls: PlannedCall[] = [250, 20, 120, 0, 60].map(ms => ({ kind: 'slow_read', ms }));
		const mixed = [...calls, { kind: 'asked_read', ms: 10 }, { kind: 'slow_read', ms: 5 }] satisfies PlannedCall[];
		const real = toolCalls([
			{ name: 'read_file', arguments: { path: 'README.md' }, id: 'r0' },
			{ name: 'find_path', arguments: { glob: '**/*.ts' }, id: 'r1' },
			{ name: 'read_file', arguments: { path: 'missing.md' }, id: 'r2' },
		]);
		const sent: string[] = [];
		for (const limit of [1, 8]) {
			double.reset();
			double.script(step(mixed), real, text('ok'));
			await session(limit).send('read');
			sent.push(`${followUp()}\n${JSON.stringify(double.modelRequests[2].body.messages)}`);
		}
		assert.strictEqual(sent[1], sent[0]);
	});

	it('a write between reads waits for the reads before it, and the reads after it wait for the write', async () => {
		const calls: PlannedCall[] = [
			{ kind: 'slow_read', ms: 80 },
			{ kind: 'slow_read', ms: 40 },
			{ kind: 'slow_write', ms: 20 },
			{ kind: 'slow_read', ms: 10 },
			{ kind: 'slow_read', ms: 10 },
		];
		double.script(step(calls), text('ok'));
		await session(8).send('read, write, read');
		const w = timeline.when('c2', 'start');
		assert.ok(
			w > timeline.when('c0', 'end') && w > timeline.when('c1', 'end'),
			'the write started after both reads ended',
		);
		const wEnd = timeline.when('c2', 'end');
		assert.ok(
			timeline.when('c3', 'start') > wEnd && timeline.when('c4', 'start') > wEnd,
			'later reads waited for it',
		);
		assert.strictEqual(timeline.most, 2);
	});

	it('Stop cancels every read that runs', async () => {
		double.script(step(Array.from({ length: 4 }, () => ({ kind: 'slow_read' as const, ms: 30_000 }))), text('ok'));
		const chat = session(8);
		const statuses = new Map<string, string>();
		chat.onDidEvent(event => {
			if (event.type === 'toolCallUpdated') statuses.set(event.call.id, event.call.status);
		});
		// The user presses Stop once all four are running.
		const watch = setInterval(() => timeline.running === 4 && chat.cancel(), 5);
		const started = Date.now();
		const outcome = await chat.send('read slowly').finally(() => clearInterval(watch));
		assert.strictEqual(outcome.reason, 'cancelled');
		assert.ok(Date.now() - started < 20_000, 'the turn did not wait for the reads');
		assert.deepStrictEqual([...statuses.values()], ['cancelled', 'cancelled', 'cancelled', 'cancelled']);
		assert.strictEqual(timeline.running, 0);
	});

	/** A read that ignores Stop: it runs its `ms` to the end, as a tool that never looks at its signal would. */
	const deafRead = defineTool({
		name: 'deaf_read',
		description: 'deaf_read (takes ms milliseconds, whatever happens)',
		input: z.object({ tag: z.string(), ms: z.number() }),
		effect: 'read',
		describe: input => `deaf_read ${input.tag}`,
		execute: async input => {
			timeline.start(input.tag);
			await sleep(input.ms);
			timeline.end(input.tag);
			return ok('read');
		},
	});

	/** A read that takes `ms` to look before it runs (prepare ignores Stop), and says when it ran. */
	const lookingRead = defineTool({
		name: 'looking_read',
		description: 'looking_read (looks for ms milliseconds first)',
		input: z.object({ tag: z.string(), ms: z.number() }),
		effect: 'read',
		describe: input => `looking_read ${input.tag}`,
		prepare: async input => {
			timeline.start(`look ${input.tag}`);
			await sleep(input.ms);
			timeline.end(`look ${input.tag}`);
			return {};
		},
		execute: async input => {
			timeline.start(input.tag);
			timeline.end(input.tag);
			return ok('read');
		},
	});

	function stoppable(parallelReads: number, tool: ToolDefinition<any>): ChatSession {
		return new ChatSession({
			sessionId: `stop-${parallelReads}`,
			createModel: async () => new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'glm-4.7-flash' }),
			registry: new ToolRegistry([tool]),
			workspace: new InMemoryWorkspace({}),
			approvalSettings: () => settings,
			maxSteps: () => 5,
			parallelReads: () => parallelReads,
			systemPrompt: () => 'You are Keel.',
		});
	}

	it('after Stop the turn says when every read it left running has finished, however many ran at once', async () => {
		for (const limit of [1, 8]) {
			double.reset();
			timeline = new Timeline();
			const calls = Array.from({ length: 4 }, (_, i) => ({
				name: 'deaf_read',
				arguments: { tag: `c${i}`, ms: 150 + 40 * i },
				id: `call_${i}`,
			}));
			double.script(toolCalls(calls), text('ok'));
			const chat = stoppable(limit, deafRead);
			const watch = setInterval(() => timeline.running === Math.min(limit, 4) && chat.cancel(), 5);
			const outcome = await chat.send('read').finally(() => clearInterval(watch));
			assert.strictEqual(outcome.reason, 'cancelled');
			assert.ok(timeline.running > 0, 'the turn ended while reads still ran');
			await outcome.settled;
			assert.strictEqual(
				timeline.running,
				0,
				`with ${limit} at once, settled waited for every read left running`,
			);
		}
	});

	it('a read still looking when Stop came never runs after it', async () => {
		for (const limit of [1, 8]) {
			double.reset();
			timeline = new Timeline();
			const calls = Array.from({ length: 3 }, (_, i) => ({
				name: 'looking_read',
				arguments: { tag: `c${i}`, ms: 80 },
				id: `call_${i}`,
			}));
			double.script(toolCalls(calls), text('ok'));
			const chat = stoppable(limit, lookingRead);
			const watch = setInterval(() => timeline.running > 0 && chat.cancel(), 2);
			const outcome = await chat.send('read').finally(() => clearInterval(watch));
			assert.strictEqual(outcome.reason, 'cancelled');
			await outcome.settled;
			await sleep(200); // longer than any look: a run that starts late would show here
			const ran = timeline.events.filter(e => e.at === 'start' && !e.id.startsWith('look'));
			assert.deepStrictEqual(ran, [], `with ${limit} at once, nothing ran after Stop`);
		}
	});

	it('for generated steps of reads, writes and asking reads: results in call order, no write or ask before the calls ahead finished', async () => {
		const planned = fc.array(
			fc.record({
				kind: fc.constantFrom<Kind>('slow_read', 'slow_read', 'slow_write', 'asked_read'),
				ms: fc.integer({ min: 0, max: 25 }),
			}),
			{ minLength: 1, maxLength: 8 },
		);
		await fc.assert(
			fc.asyncProperty(planned, fc.integer({ min: 1, max: 4 }), async (calls, limit) => {
				double.reset();
				timeline = new Timeline();
				double.script(step(calls), text('ok'));
				const outcome = await session(limit).send('go');
				assert.strictEqual(outcome.reason, 'completed');
				const tools = double.modelRequests[1].body.messages.filter((m: { role: string }) => m.role === 'tool');
				assert.deepStrictEqual(
					tools.map((m: { tool_call_id: string }) => m.tool_call_id),
					calls.map((_, i) => `call_${i}`),
				);
				tools.forEach((m: { content: string }, i: number) =>
					assert.match(m.content, new RegExp(`${calls[i].kind} c${i} done after ${calls[i].ms} ms`)),
				);
				assert.ok(timeline.most <= limit, `at most ${limit} at once (${timeline.most})`);
				calls.forEach((call, i) => {
					if (call.kind === 'slow_read') return;
					const start = timeline.when(`c${i}`, 'start');
					for (let before = 0; before < i; before++) {
						assert.ok(
							start > timeline.when(`c${before}`, 'end'),
							`c${i} (${call.kind}) started after c${before} ended`,
						);
					}
				});
			}),
			{ numRuns: 30 },
		);
	});
});
