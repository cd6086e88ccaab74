// The golden tool-calling set runs end to end against the model double scripted with each
// task's reference solution: proves the harness, the checks and the CLI plumbing, in CI.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { loadGolden } from '../../bench/eval/golden';
import { runEval, summarizeEval } from '../../bench/eval/runEval';
import { startModelDouble, text, toolCall, type DataStep, type ModelDouble } from '../support/modelDouble';

describe('eval — golden tool-calling set against the model double', function () {
	this.timeout(30_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	after(() => double.close());

	const script = (steps: Array<{ call?: { name: string; args: object }; text?: string }>): DataStep[] =>
		steps.map(step => (step.call ? toolCall(step.call.name, step.call.args) : text(step.text ?? '')));

	it('passes every task when the model answers like the reference, per dimension', async () => {
		const tasks = loadGolden();
		assert.ok(tasks.length >= 12);
		assert.deepEqual(
			new Set(tasks.map(t => t.dimension)),
			new Set(['file exploration', 'argument extraction', 'multi-step edits']),
		);
		double.reset();
		double.script(...tasks.flatMap(task => script(task.reference)));
		const results = await runEval(tasks, { baseUrl: double.openaiBaseUrl, model: 'double', recovery: true });
		assert.deepEqual(
			results.filter(r => !r.passed).map(r => `${r.id}: ${r.why}`),
			[],
		);
		assert.deepEqual(summarizeEval(results).pop(), ['overall', `${tasks.length}/${tasks.length}`, '100%']);
	});

	it('fails a task whose outcome is wrong, saying why', async () => {
		const task = loadGolden().find(t => t.id === 'edit-uppercase-copy')!;
		double.reset();
		double.script(
			toolCall('read_file', { path: 'notes/word.txt' }),
			toolCall('write_file', { path: 'out/word.txt', content: 'lantern' }),
			text('done'),
		);
		const [result] = await runEval([task], { baseUrl: double.openaiBaseUrl, model: 'double', recovery: true });
		assert.equal(result.passed, false);
		assert.match(result.why, /out\/word.txt is "lantern"/);
	});

	it('runs as `npm run eval -- --golden --base-url URL --model NAME` and prints pass rates', async () => {
		const task = loadGolden().find(t => t.id === 'explore-todo-owner')!;
		double.reset();
		double.script(...script(task.reference));
		const main = path.resolve(__dirname, '../../bench/eval/main.js');
		const stdout = await new Promise<string>((resolve, reject) =>
			execFile(
				process.execPath,
				[main, '--golden', '--base-url', double.openaiBaseUrl, '--model', 'double', '--only', task.id],
				(error, out) => (error ? reject(error) : resolve(out)),
			),
		);
		assert.match(stdout, /PASS {2}explore-todo-owner/);
		assert.match(stdout, /overall\s+1\/1\s+100%/);
	});
});
