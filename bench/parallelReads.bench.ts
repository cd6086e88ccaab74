/**
 * Read-only calls of one step, through the real loop over HTTP against a zero-latency model
 * double: a step of five reads that take 200 ms each, and a step of reads around a write. The
 * reference is the same turn with keel.agent.parallelReads = 1 (every call in turn, as before).
 * Budget: five reads cost one read's wait (+ 100 ms); the requests that follow are byte for byte
 * the ones the sequential turn sends. Then a read whose arguments are complete while the stream
 * goes on for another second: the reference starts it after the stream ends.
 */
import * as z from 'zod';
import { defaultApprovalSettings } from '../src/core/agent/approval/approvalPolicy';
import { runTurn } from '../src/core/agent/loop/runAgent';
import { OpenAIChatModel } from '../src/core/llm/wires/openai/openaiChatModel';
import { defineTool, ok } from '../src/core/tools/defineTool';
import { ToolRegistry } from '../src/core/tools/registry';
import { sleep } from '../src/core/util/abort';
import { InMemoryWorkspace } from '../test/fakes/inMemoryWorkspace';
import { startModelDouble, text, toolCalls, type ModelDouble } from '../test/support/modelDouble';
import { percentile, printTable, timeIt } from './table';

export const title = 'Read-only calls of a step run together (loop over HTTP, 200 ms reads)';

const timed = (name: string, effect: 'read' | 'write') =>
	defineTool({
		name,
		description: name,
		input: z.object({ tag: z.string(), ms: z.number() }),
		effect,
		describe: input => `${name} ${input.tag}`,
		execute: async (input, { signal }) => {
			await sleep(input.ms, signal);
			return ok(`${name} ${input.tag} after ${input.ms} ms`);
		},
	});
const registry = new ToolRegistry([timed('slow_read', 'read'), timed('slow_write', 'write')]);
const settings = { ...defaultApprovalSettings, autoApprove: { read: true, write: true } };

type Step = Array<{ name: 'slow_read' | 'slow_write'; ms: number }>;
const FIVE_READS: Step = Array.from({ length: 5 }, () => ({ name: 'slow_read', ms: 200 }));
const AROUND_A_WRITE: Step = [
	...Array.from({ length: 3 }, () => ({ name: 'slow_read' as const, ms: 200 })),
	{ name: 'slow_write', ms: 200 },
	...Array.from({ length: 2 }, () => ({ name: 'slow_read' as const, ms: 200 })),
];

/** A read of 500 ms, then a stream that keeps sending the next call for 1 s (10 fragments, 100 ms apart). */
const STILL_TALKING: Step = [
	{ name: 'slow_read', ms: 500 },
	{ name: 'slow_read', ms: 0 },
];
const TALKING_PACE = { split: 10, delayMs: 100 };

/** One turn of `step` then an answer: its wall time and the follow-up request as sent. */
async function turn(
	double: ModelDouble,
	step: Step,
	parallelReads: number,
	early = true,
	pace: { split?: number; delayMs?: number } = {},
): Promise<{ ms: number; sent: string }> {
	double.reset();
	double.script(
		toolCalls(
			step.map((c, i) => ({ name: c.name, arguments: { tag: `c${i}`, ms: c.ms }, id: `call_${i}` })),
			pace,
		),
		text('done'),
	);
	const ms = await timeIt(async () => {
		const outcome = await runTurn(
			{
				model: new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'm' }),
				registry,
				approvals: undefined,
				approvalSettings: settings,
				workspace: new InMemoryWorkspace({}),
				systemPrompt: 'sys',
				maxSteps: 10,
				parallelReads,
				startCallsEarly: early,
				emit: () => {},
			},
			[],
			'go',
			`t${parallelReads}`,
			new AbortController().signal,
		);
		if (outcome.reason !== 'completed') {
			throw new Error(`the turn ended ${outcome.reason}: the figure would be wrong`);
		}
	});
	return { ms, sent: JSON.stringify(double.modelRequests[1].body) };
}

export async function run(): Promise<void> {
	const double = await startModelDouble();
	try {
		const rows: Array<Array<string | number>> = [];
		for (const [label, step, budget] of [
			['5 reads × 200 ms', FIVE_READS, '≤ 300'],
			['3 reads, a write, 2 reads (200 ms each)', AROUND_A_WRITE, '≤ 700'],
		] as const) {
			const before: number[] = [];
			const after: number[] = [];
			let same = true;
			for (let i = 0; i < 5; i++) {
				const one = await turn(double, step, 1);
				const many = await turn(double, step, 8);
				before.push(one.ms);
				after.push(many.ms);
				same &&= one.sent === many.sent;
			}
			rows.push([label, percentile(before, 0.5), percentile(after, 0.5), budget, same ? 'identical' : 'DIFFERS']);
		}
		printTable(
			['turn (ms, median of 5)', 'one at a time (reference)', 'parallelReads 8', 'budget', 'next request'],
			rows,
		);
		// The stream alone takes about 2.2 s (22 frames 100 ms apart); the read fits inside it.
		const before: number[] = [];
		const after: number[] = [];
		let same = true;
		for (let i = 0; i < 3; i++) {
			const waited = await turn(double, STILL_TALKING, 8, false, TALKING_PACE);
			const started = await turn(double, STILL_TALKING, 8, true, TALKING_PACE);
			before.push(waited.ms);
			after.push(started.ms);
			same &&= waited.sent === started.sent;
		}
		printTable(
			[
				'turn (ms, median of 3)',
				'calls after the stream (reference)',
				'read starts in the stream',
				'budget',
				'next request',
			],
			[
				[
					'500 ms read, then 1 s more of stream',
					percentile(before, 0.5),
					percentile(after, 0.5),
					'≤ reference − 400',
					same ? 'identical' : 'DIFFERS',
				],
			],
		);
	} finally {
		await double.close();
	}
}
