// The one retry layer for tools, checked on generated cases through the real loop: for any
// tool effect, retry setting and sequence of outcomes, a tool runs exactly as often as the
// principle says (idempotent tools again after a passing failure, up to the limit; commands
// and writes once), and the chat's retry notices and pauses agree with that count.
import * as assert from 'assert';
import * as z from 'zod';
import type { AgentEvent } from '../../../../../src/core/agent/events';
import { runTurn } from '../../../../../src/core/agent/loop/runAgent';
import { defaultToolPolicySettings, ToolPolicy } from '../../../../../src/core/agent/toolPolicy/toolPolicy';
import type { Clock } from '../../../../../src/core/ports';
import { defineTool, fail, ok, type ToolEffect, type ToolResult } from '../../../../../src/core/tools/defineTool';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { InMemoryWorkspace } from '../../../../fakes/inMemoryWorkspace';
import { callStep, ScriptedChatModel, textStep } from '../../../../fakes/scriptedChatModel';
import { rng } from '../../../../support/resilience/scenarios';

/** One attempt's outcome; `passing` says whether a person would call it worth another try. */
interface Outcome {
	passing: boolean;
	run(): ToolResult;
	/** What the model reads of it when it is the last. */
	shows: RegExp;
}

const status = (code: number, passing: boolean): Outcome => ({
	passing,
	run: () => fail(`https://x.test/p answered HTTP ${code}.`, { status: code }),
	shows: new RegExp(`answered HTTP ${code}`),
});
const message = (text: string, passing: boolean): Outcome => ({
	passing,
	run: () => fail(text),
	shows: new RegExp(text.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
});
const thrown = (text: string, passing: boolean): Outcome => ({
	passing,
	run: () => {
		throw new Error(text);
	},
	shows: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
});

const PASSING: Outcome[] = [
	...[429, 500, 502, 503, 504, 408].map(code => status(code, true)),
	message('Could not fetch https://x.test/p: fetch failed', true),
	message('https://x.test/p did not answer in time. Try again later or another source.', true),
	message('read ECONNRESET while reading the body', true),
	thrown('connect ECONNREFUSED 10.0.0.1:443', true),
	thrown('socket hang up', true),
	{ passing: true, run: () => fail('The search took too long.', { timedOut: true }), shows: /took too long/ },
];
const FINAL: Outcome[] = [
	{ passing: false, run: () => ok('the page'), shows: /^the page$/ },
	...[400, 401, 403, 404, 410].map(code => status(code, false)),
	message('No file named a.txt. Did you mean b.txt?', false),
	{ passing: false, run: () => fail('`make` failed with exit code 2.', { exitCode: 2 }), shows: /exit code 2/ },
	thrown('Cannot read properties of undefined', false),
];

interface Case {
	effect: ToolEffect;
	retries: number;
	delayMs: number;
	outcomes: Outcome[];
	recovery: boolean;
}

function generate(random: () => number): Case {
	const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
	const length = 1 + Math.floor(random() * 5);
	return {
		effect: pick(['read', 'network', 'write', 'exec'] as const),
		retries: Math.floor(random() * 4),
		delayMs: pick([1, 40, 500]),
		outcomes: Array.from({ length }, () => (random() < 0.65 ? pick(PASSING) : pick(FINAL))),
		recovery: random() < 0.9,
	};
}

/** The principle, written apart from the code: how many times the tool must run. */
function expectedRuns(c: Case): number {
	if (!c.recovery || c.effect === 'write' || c.effect === 'exec') {
		return 1;
	}
	let runs = 1;
	// The outcome list repeats its last entry once it runs out.
	while (runs <= c.retries && c.outcomes[Math.min(runs - 1, c.outcomes.length - 1)].passing) {
		runs++;
	}
	return runs;
}

async function runCase(c: Case) {
	let runs = 0;
	const tool = defineTool({
		name: 'probe',
		description: 'a tool with scripted outcomes',
		input: z.object({}),
		effect: c.effect,
		describe: () => 'Probe',
		async execute() {
			return c.outcomes[Math.min(runs++, c.outcomes.length - 1)].run();
		},
	});
	const registry = new ToolRegistry([tool]);
	const toolPolicy = new ToolPolicy(() => ({
		...defaultToolPolicySettings,
		infraRetries: c.retries,
		infraRetryDelayMs: c.delayMs,
	}));
	const model = new ScriptedChatModel([callStep({ name: 'probe', args: {}, id: 'p1' }), textStep('ok')]);
	const events: AgentEvent[] = [];
	const pauses: number[] = [];
	const clock: Clock = { now: () => 0, sleep: async ms => void pauses.push(ms) };
	const outcome = await runTurn(
		{
			model,
			registry,
			toolPolicy,
			approvals: undefined,
			approvalSettings: { autoApprove: { read: true, write: true, exec: true, network: true } },
			workspace: new InMemoryWorkspace({}),
			systemPrompt: 'sys',
			maxSteps: 5,
			emit: event => events.push(event),
			clock,
			random: () => 0.5,
			recovery: { enabled: c.recovery },
		},
		[],
		'go',
		't1',
		new AbortController().signal,
	);
	const notices = events.flatMap(e => (e.type === 'notice' && e.code === 'toolRetry' ? [e.text] : []));
	const result = outcome.messages.find(m => m.kind === 'tool_result');
	return { runs, notices, pauses, result: result?.content ?? '' };
}

function describeCase(c: Case, seed: number): string {
	const names = c.outcomes.map(o => `${o.passing ? 'passing' : 'final'}:${o.shows.source}`);
	return `seed ${seed}: ${c.effect}, retries ${c.retries}, recovery ${c.recovery}, outcomes ${names.join(' → ')}`;
}

describe('one retry layer for tools (generated cases through the loop)', () => {
	it('runs each tool as often as the principle says, and the notices and pauses count the same retries', async () => {
		for (let seed = 1; seed <= 300; seed++) {
			const c = generate(rng(seed));
			const got = await runCase(c);
			const runs = expectedRuns(c);
			const why = describeCase(c, seed);
			assert.strictEqual(got.runs, runs, why);
			assert.deepStrictEqual(
				got.notices.map(text =>
					text
						.match(/\((\d+)\/(\d+)\)/)
						?.slice(1)
						.map(Number),
				),
				Array.from({ length: runs - 1 }, (_, i) => [i + 1, c.retries]),
				why,
			);
			assert.deepStrictEqual(
				got.pauses,
				Array.from({ length: runs - 1 }, (_, i) => c.delayMs * 2 ** i),
				why,
			);
			const last = c.outcomes[Math.min(runs - 1, c.outcomes.length - 1)];
			assert.match(got.result, last.shows, why);
		}
	});

	it('without a tool policy the defaults apply: 2 retries after 500 ms and 1 s', async () => {
		let runs = 0;
		const tool = defineTool({
			name: 'fetch_page',
			description: 'fetch',
			input: z.object({}),
			effect: 'network',
			describe: () => 'Fetch',
			execute: async () => (runs++, fail('https://x.test answered HTTP 503.', { status: 503 })),
		});
		const pauses: number[] = [];
		const events: AgentEvent[] = [];
		await runTurn(
			{
				model: new ScriptedChatModel([callStep({ name: 'fetch_page', args: {} }), textStep('down')]),
				registry: new ToolRegistry([tool]),
				approvals: undefined,
				approvalSettings: { autoApprove: { network: true } },
				workspace: new InMemoryWorkspace({}),
				systemPrompt: 'sys',
				maxSteps: 5,
				emit: event => events.push(event),
				clock: { now: () => 0, sleep: async ms => void pauses.push(ms) },
			},
			[],
			'go',
			't1',
			new AbortController().signal,
		);
		assert.strictEqual(runs, 3);
		assert.deepStrictEqual(pauses, [500, 1000]);
		assert.deepStrictEqual(
			events.flatMap(e => (e.type === 'notice' ? [e.text] : [])),
			['fetch_page: server error; retrying (1/2).', 'fetch_page: server error; retrying (2/2).'],
		);
	});
});
