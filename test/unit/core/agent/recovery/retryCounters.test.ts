// Whatever fails and in whatever order, the counters a user reads on the retry lines agree
// with the sentence that gives up: the count it gives up after is the last count shown, so
// "1/6 … gave up after 3" cannot happen. Generated failure sequences (transport errors, a server that is not running,
// broken streams, tool calls the server could not parse) against random budgets.
import * as assert from 'assert';
import fc from 'fast-check';
import { ApprovalGate } from '../../../../../src/core/agent/approval/approvalGate';
import type { AgentEvent } from '../../../../../src/core/agent/events';
import { runTurn, type AgentOptions } from '../../../../../src/core/agent/loop/runAgent';
import { AgentError } from '../../../../../src/core/errors';
import type { Clock } from '../../../../../src/core/ports';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { fileTools } from '../../../../fakes/readTools';
import { InMemoryWorkspace } from '../../../../fakes/inMemoryWorkspace';
import { ScriptedChatModel, textStep, type ScriptedStep } from '../../../../fakes/scriptedChatModel';

const unparsable = JSON.stringify({ error: "error parsing tool call: raw='ls -R\n', err=invalid character 'l'" });
const failures: Record<string, () => ScriptedStep> = {
	http500: () => new AgentError('modelHttp', 'HTTP 500', { status: 500, body: '{}' }),
	unknown: () => new AgentError('modelHttp', 'HTTP 500: down', { status: 500, body: 'down' }),
	http503: () => new AgentError('modelHttp', 'HTTP 503', { status: 503, body: '{}' }),
	http429: () => new AgentError('modelHttp', 'HTTP 429', { status: 429, body: '{}' }),
	unreachable: () => new AgentError('modelUnreachable', 'Nothing answers at http://127.0.0.1:1'),
	streamDrop: () => ({ events: [{ type: 'text', text: 'Half' }], error: new AgentError('modelStream', 'broke') }),
	parseError: () => new AgentError('modelHttp', 'HTTP 500', { status: 500, body: unparsable }),
};
const kinds = Object.keys(failures);

/** "— 2/3" on a retry line, "Gave up after 3" / "No retry was left" in the final error. */
const COUNTER = /— (\d+)\/(\d+)$/;
const GAVE_UP = /Gave up after (\d+) retr/;
const SENT = /it was sent (\d+) times and failed each time/;

describe('retry counters', () => {
	it('the last counter shown is the count the turn gives up after, for any failure sequence', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 14 }),
				fc.integer({ min: 0, max: 6 }),
				fc.integer({ min: 0, max: 3 }),
				fc.boolean(),
				async (sequence, maxRetriesPerTurn, reflectionsPerRequest, succeedAtEnd) => {
					const steps: ScriptedStep[] = sequence.map(kind => failures[kind]());
					if (succeedAtEnd) {
						steps.push(textStep('done'));
					}
					const events: AgentEvent[] = [];
					const clock: Clock = { now: () => 0, sleep: async () => undefined };
					const options: AgentOptions = {
						model: new ScriptedChatModel(steps),
						registry: new ToolRegistry([...fileTools]),
						approvals: new ApprovalGate(),
						approvalSettings: { autoApprove: { read: true } },
						workspace: new InMemoryWorkspace({ 'README.md': 'x' }),
						systemPrompt: 'sys',
						maxSteps: 5,
						emit: event => events.push(event),
						clock,
						random: () => 0.5,
						recovery: { maxRetriesPerTurn, reflectionsPerRequest, toolMode: 'native' },
					};
					const outcome = await runTurn(options, [], 'go', 't1', new AbortController().signal);
					const counters = events.flatMap(e =>
						e.type === 'notice' && COUNTER.test(e.text)
							? [
									{
										code: e.code,
										n: Number(COUNTER.exec(e.text)![1]),
										of: Number(COUNTER.exec(e.text)![2]),
									},
								]
							: [],
					);
					const total = counters.length;
					assert.ok(total <= maxRetriesPerTurn, `${total} retries shown, budget ${maxRetriesPerTurn}`);
					for (const c of counters) {
						assert.ok(c.n >= 1 && c.n <= c.of, `counter ${c.n}/${c.of}`);
					}
					if (outcome.reason !== 'failed' || !outcome.error) {
						return;
					}
					const message = outcome.error.message;
					// An error nobody recognises gives up saying how often it was sent: when it was the only
					// failure, that is the turn's retries plus the first try.
					const model = options.model as ScriptedChatModel;
					const met = sequence.slice(0, model.requests.length);
					const sent = met.every(kind => kind === 'unknown') ? SENT.exec(message) : null;
					const gaveUp = GAVE_UP.exec(message) ?? (sent && [sent[0], String(Number(sent[1]) - 1)]);
					if (!gaveUp) {
						return; // a failure recovery does not retry (no counter was promised)
					}
					const last = counters.at(-1);
					assert.ok(last, `"${message}" after no counter`);
					assert.strictEqual(
						Number(gaveUp[1]),
						last.n,
						`last counter ${last.n}/${last.of}, then "${message}"`,
					);
					// The turn's budget is known from the start, so its end is announced ("6/6"), and so is a
					// kind's own cap (a server that is not running: "3/3") once failures of that kind come.
					if (/maxRetriesPerTurn/.test(message) || met.every(kind => kind === met[0])) {
						assert.strictEqual(last.n, last.of, `the last try was announced as ${last.n}/${last.of}`);
					}
				},
			),
			{ numRuns: 300 },
		);
	});

	it('an error and what recovery adds to it read as two sentences', async () => {
		const events: AgentEvent[] = [];
		const outcome = await runTurn(
			{
				model: new ScriptedChatModel([failures.http500(), failures.http500()]),
				registry: new ToolRegistry([...fileTools]),
				approvals: new ApprovalGate(),
				approvalSettings: { autoApprove: { read: true } },
				workspace: new InMemoryWorkspace({}),
				systemPrompt: 'sys',
				maxSteps: 5,
				emit: event => events.push(event),
				clock: { now: () => 0, sleep: async () => undefined },
				random: () => 0.5,
				recovery: { maxRetriesPerTurn: 1 },
			},
			[],
			'go',
			't1',
			new AbortController().signal,
		);
		assert.match(outcome.error!.message, /[.!?] Gave up after 1 retry this turn: /);
	});
});
