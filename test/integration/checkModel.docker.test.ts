// Check Model with the real Docker sandbox: the shell task runs its test in a container over
// the scratch workspace, and a cancel in the middle of a command leaves no folder, no
// container and no process behind.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import Docker from 'dockerode';
import { CHECK_TASKS } from '../../src/core/checkModel/suite';
import { LABEL } from '../../src/core/exec/sandbox/sandboxSpec';
import { nextAction, personality, scriptPersonality } from '../support/checkModel/personalities';
import { checkAgainst, SANDBOX, scratchParent } from '../support/checkModel/runAgainst';
import { requireDocker } from '../support/dockerEngine';
import { startModelDouble, text, toolCall, type ModelDouble } from '../support/modelDouble';

/** Sandbox containers whose workspace lies under `dir`, running or not. */
async function containersUnder(dir: string): Promise<string[]> {
	const docker = new Docker();
	const all = await docker.listContainers({ all: true, filters: { label: [LABEL] } });
	return all.filter(c => c.Mounts.some(m => m.Source?.startsWith(dir))).map(c => c.Id);
}

/** This process's children (ripgrep, a shell, docker's helpers), the `ps` asking excluded. */
function childProcesses(): string[] {
	const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
	return out
		.split('\n')
		.map(line => line.trim())
		.filter(line => line && !/\bps$/.test(line));
}

describe('Check Model — in the Docker sandbox', function () {
	this.timeout(300_000);
	before(requireDocker());
	let double: ModelDouble;
	beforeEach(async () => (double = await startModelDouble()));
	afterEach(() => double.close());

	it('runs the failing test in the sandbox, passes with the fix, and removes the container', async () => {
		const model = personality('clean');
		scriptPersonality(double, model.step);
		const tmpDir = scratchParent();
		const tasks = CHECK_TASKS.filter(t => ['fix-test', 'read-answer'].includes(t.id));
		const { report } = await checkAgainst(double, 'openai', { tasks, sandbox: SANDBOX, tmpDir, trials: 2 });
		assert.equal(report.sandbox, true);
		assert.deepEqual(report.skipped, []);
		const fixes = report.results.filter(r => r.taskId === 'fix-test');
		assert.equal(fixes.length, 4, 'two trials in each mode');
		assert.deepEqual(
			fixes.filter(r => !r.passed).map(r => r.why),
			[],
		);
		// The test ran in the container: the command's output came back through run_command.
		const ran = double.modelRequests.some(
			r => JSON.stringify(r.body).includes('PASS') && JSON.stringify(r.body).includes('ran in the sandbox'),
		);
		assert.ok(ran, 'the test passed in the sandbox');
		assert.deepEqual(await containersUnder(tmpDir), []);
		assert.deepEqual(fs.readdirSync(tmpDir), []);
	});

	it('Cancel in the middle of a command leaves no scratch folder, no container and no process', async () => {
		const abort = new AbortController();
		let started = false;
		const step = (req: Parameters<typeof nextAction>[0]) => {
			const action = nextAction(req);
			if ('call' in action && action.call === 'run_command' && !started) {
				started = true;
				setTimeout(() => abort.abort(), 3000);
				return toolCall('run_command', { command: 'sleep 120' });
			}
			return 'text' in action ? text(action.text) : toolCall(action.call, action.args);
		};
		double.script(...Array.from({ length: 50 }, () => step));
		const tmpDir = scratchParent();
		const tasks = CHECK_TASKS.filter(t => t.id === 'fix-test');
		const error = await checkAgainst(double, 'openai', {
			tasks,
			sandbox: SANDBOX,
			tmpDir,
			trials: 1,
			modes: ['native'],
			signal: abort.signal,
		}).then(
			() => assert.fail('the check should have been cancelled'),
			(thrown: Error) => thrown,
		);
		assert.ok(started, 'the command was running when Cancel came');
		assert.match(error.message, /cancelled/);
		assert.deepEqual(fs.readdirSync(tmpDir), [], 'no scratch folder');
		assert.deepEqual(await containersUnder(tmpDir), [], 'no container');
		assert.deepEqual(childProcesses(), [], 'no process');
	});
});
