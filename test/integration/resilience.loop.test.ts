// Loop behaviours that used to stall ordinary work, through the real loop and HTTP: a failing
// test run is a result, per-tool budgets count only calls that could not run and reset on
// success, a passing fetch failure gets one more try, and at the step cap the model is told.

import * as assert from 'node:assert/strict';
import * as z from 'zod';
import { defineTool, fail, ok } from '../../src/core/tools/defineTool';
import { ToolRegistry } from '../../src/core/tools/registry';
import { startModelDouble, text, toolCall, type ModelDouble } from '../support/modelDouble';
import { harness } from '../support/resilience/harness';
import { TaskFiles } from '../support/resilience/taskTools';

/** `run_tests` fails (exit 1) until `fixed`; `fetch_page` answers 503 the first `outages` times. */
function projectTools(state: { fixed: boolean; outages: number; runs: number; fetches: number }) {
	return [
		...new TaskFiles({ 'src/a.ts': 'bug' }).tools(),
		defineTool({
			name: 'run_tests',
			description: 'Run the test suite.',
			input: z.object({ filter: z.string().optional() }),
			effect: 'exec',
			describe: () => 'Run tests',
			async execute() {
				state.runs++;
				return state.fixed
					? ok('12 passing', { exitCode: 0 })
					: fail(
							`\`npm test\` failed with exit code 1 after 2 s. Output (end):\n1 failing: expected 2, got 3 (run ${state.runs})`,
							{ exitCode: 1 },
						);
			},
		}),
		defineTool({
			name: 'fix',
			description: 'Apply the fix.',
			input: z.object({ attempt: z.number() }),
			effect: 'write',
			describe: () => 'Fix',
			async execute(input) {
				state.fixed = input.attempt >= 3;
				return ok(`applied fix ${input.attempt}`);
			},
		}),
		defineTool({
			name: 'fetch_page',
			description: 'Fetch a web page.',
			input: z.object({ url: z.string() }),
			effect: 'network',
			describe: input => `Fetch ${input.url}`,
			async execute(input) {
				state.fetches++;
				return state.outages-- > 0
					? fail(`${input.url} answered HTTP 503.`, { status: 503 })
					: ok('<h1>Docs</h1>');
			},
		}),
	];
}

describe('resilience — loop behaviours in real work', function () {
	this.timeout(20_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	afterEach(() => double.reset());
	after(() => double.close());

	const setup = (state: { fixed: boolean; outages: number; runs: number; fetches: number }, maxSteps = 20) =>
		harness(double, 'openai', {
			registry: new ToolRegistry(projectTools(state)),
			approvalSettings: { autoApprove: { read: true, write: true, exec: true, network: true } },
			maxSteps,
		});

	it('"run tests, fix, run tests" is never refused: a non-zero exit is a result, not a failed call', async () => {
		const state = { fixed: false, outages: 0, runs: 0, fetches: 0 };
		const steps = [1, 2, 3].flatMap(n => [toolCall('run_tests', {}), toolCall('fix', { attempt: n })]);
		double.script(...steps, toolCall('run_tests', {}), text('All tests pass now.'));
		const t = setup(state);
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.equal(state.runs, 4);
		assert.ok(
			!t.notices().some(n => n.code === 'toolBudget'),
			t
				.notices()
				.map(n => n.text)
				.join('\n'),
		);
		const last = outcome.messages.filter(m => m.kind === 'tool_result').pop();
		assert.match(last!.content, /12 passing/);
	});

	it('the per-tool budget counts only calls that could not run, and a success starts it afresh', async () => {
		const state = { fixed: true, outages: 0, runs: 0, fetches: 0 };
		const bad = () => toolCall('fix', { attempt: 'three' });
		// Two bad calls (limit 1 for a write tool, so the second is the last allowed), a good one, two bad again: still allowed.
		double.script(
			bad(),
			toolCall('fix', { attempt: 3 }),
			bad(),
			bad(),
			toolCall('fix', { attempt: 4 }),
			text('done'),
		);
		const t = setup(state);
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		const results = outcome.messages
			.filter(m => m.kind === 'tool_result')
			.map(m => m.kind === 'tool_result' && m.data.errorKind);
		assert.deepEqual(results, ['invalidArguments', undefined, 'invalidArguments', 'invalidArguments', undefined]);
		assert.ok(!t.notices().some(n => n.code === 'toolBudget'));
	});

	it('calls that cannot run are refused after the budget, and the notice says why', async () => {
		const state = { fixed: true, outages: 0, runs: 0, fetches: 0 };
		const bad = () => toolCall('fix', { attempt: 'three' });
		double.script(bad(), bad(), bad(), text('giving up'));
		const t = setup(state);
		await t.run();
		const budget = t.notices().find(n => n.code === 'toolBudget');
		assert.match(budget!.text, /could not run 2 times in a row \(invalid arguments or unknown tool\)/);
	});

	it('a fetch that answers 503 is tried once more after a short pause, and the model gets the page', async () => {
		const state = { fixed: true, outages: 1, runs: 0, fetches: 0 };
		double.script(toolCall('fetch_page', { url: 'https://example.com/docs' }), text('The docs say hi.'));
		const t = setup(state);
		const outcome = await t.run();
		assert.equal(state.fetches, 2);
		assert.match(outcome.messages.find(m => m.kind === 'tool_result')!.content, /Docs/);
		assert.ok(t.notices().some(n => n.code === 'toolRetry'));
	});

	it('after Continue at the step cap the next request tells the model the limit was reached; after Stop nothing more is sent', async () => {
		const state = { fixed: false, outages: 0, runs: 0, fetches: 0 };
		double.script(
			toolCall('run_tests', {}),
			toolCall('run_tests', { filter: 'a' }),
			text('Still failing; stopping here.'),
		);
		const go = harness(double, 'openai', {
			registry: new ToolRegistry(projectTools(state)),
			approvalSettings: { autoApprove: { read: true, exec: true } },
			maxSteps: 2,
			continueDecider: { request: async () => true },
		});
		assert.equal((await go.run()).reason, 'completed');
		assert.match(
			JSON.stringify(double.modelRequests[2].body.messages.at(-1)),
			/step limit was reached .*the user let you continue/,
		);

		double.reset();
		double.script(toolCall('run_tests', {}), toolCall('run_tests', { filter: 'a' }), text('never'));
		const stop = harness(double, 'openai', {
			registry: new ToolRegistry(projectTools(state)),
			approvalSettings: { autoApprove: { read: true, exec: true } },
			maxSteps: 2,
			continueDecider: { request: async () => false },
		});
		assert.equal((await stop.run()).reason, 'stepLimit');
		assert.equal(double.modelRequests.length, 2);
	});

	it('at the step cap with nobody to ask, the model is told the limit was reached (tools as before, none run), and its summary is shown', async () => {
		const state = { fixed: false, outages: 0, runs: 0, fetches: 0 };
		double.script(
			toolCall('run_tests', {}),
			toolCall('run_tests', { filter: 'a' }),
			text('I ran the tests twice; 1 still fails. Next: fix src/a.ts.'),
		);
		const t = setup(state, 2);
		const outcome = await t.run();
		assert.equal(outcome.reason, 'stepLimit');
		const last = double.modelRequests[2].body;
		// The same tools as the request before, so a local server reads only the note anew.
		assert.deepEqual(last.tools, double.modelRequests.at(-2)!.body.tools);
		assert.match(JSON.stringify(last.messages[last.messages.length - 1]), /step limit was reached/);
		assert.deepEqual(
			outcome.messages.filter(m => m.kind === 'assistant').map(m => m.content),
			['I ran the tests twice; 1 still fails. Next: fix src/a.ts.'],
		);
	});
});
