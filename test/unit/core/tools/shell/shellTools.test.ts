import * as assert from 'assert';
import { engineUnavailable } from '../../../../../src/core/exec/execError';
import { ShellBackendSelector, type ShellBackendSetting } from '../../../../../src/core/exec/shellBackend';
import type { ToolContext, ToolDefinition } from '../../../../../src/core/tools/defineTool';
import { createShellTools, type ShellToolSettings } from '../../../../../src/core/tools/shell/shellTools';
import { FakeCommandRunner } from '../../../../fakes/fakeCommandRunner';
import { InMemoryWorkspace } from '../../../../fakes/inMemoryWorkspace';

const settings: ShellToolSettings = { timeoutSeconds: 30, outputLimitBytes: 1 << 20, memoryMb: 512, pids: 256 };

function setup(
	script: ConstructorParameters<typeof FakeCommandRunner>[1] = [],
	setting: ShellBackendSetting = 'docker',
	engineAnswers = true,
) {
	const sandbox = new FakeCommandRunner('sandbox', script);
	sandbox.availableAnswer = engineAnswers;
	const terminal = new FakeCommandRunner('terminal', script);
	const [tool] = createShellTools({
		selector: new ShellBackendSelector(() => setting, sandbox, terminal),
		settings: () => settings,
	}) as [ToolDefinition<any>];
	const progress: string[] = [];
	const context: ToolContext = {
		workspace: new InMemoryWorkspace({ 'pkg/a.txt': 'A' }),
		signal: new AbortController().signal,
		progress: text => progress.push(text),
	};
	// The order the loop uses: describe → prepare → (approval) → execute with what prepare returned.
	const call = async (input: Record<string, unknown>) => {
		const parsed = tool.input.parse(input);
		const prepared = await tool.prepare!(parsed, context);
		return { prepared, result: await tool.execute(parsed, { ...context, prepared }) };
	};
	return { tool, sandbox, terminal, progress, call };
}

describe('run_command', () => {
	it('titles the card with the exact command and where it runs, and offers the command line to permission rules', async () => {
		const { tool, call } = setup();
		assert.strictEqual(tool.effect, 'exec');
		assert.strictEqual(tool.describe({ command: 'npm test' }), 'Run `npm test` (sandbox)');
		assert.deepStrictEqual(tool.subjects!({ command: 'npm test && rm -rf x' }), [
			{ kind: 'command', values: ['npm test && rm -rf x'] },
		]);
		assert.strictEqual((await call({ command: 'npm test' })).prepared.title, 'Run `npm test` (sandbox)');
	});

	it('runs with the default timeout and output cap, in the requested folder, and streams to the card', async () => {
		const { sandbox, progress, call } = setup([{ stdout: 'ok\n' }]);
		const { result } = await call({ command: 'ls', cwd: './pkg/' });
		assert.deepStrictEqual(
			sandbox.requests.map(r => ({
				command: r.command,
				cwd: r.cwd,
				timeoutMs: r.timeoutMs,
				limit: r.outputLimitBytes,
			})),
			[{ command: 'ls', cwd: 'pkg', timeoutMs: 30_000, limit: 1 << 20 }],
		);
		assert.deepStrictEqual(progress, ['ok\n']);
		assert.strictEqual(result.ok, true);
		assert.match(result.display, /^ok\n\[exit code 0 · 12 ms · ran in the sandbox\]$/);
		assert.strictEqual(result.exitCode, 0);
		assert.strictEqual(result.backend, 'sandbox');
	});

	it('refuses a cwd outside the workspace or missing, before anything runs', async () => {
		const { sandbox, call } = setup();
		await assert.rejects(call({ command: 'ls', cwd: '../..' }), /leaves the workspace/);
		await assert.rejects(call({ command: 'ls', cwd: 'nope' }), /not a folder of the workspace/);
		assert.strictEqual(sandbox.requests.length, 0);
	});

	it('turns a non-zero exit into a tool error carrying the exit code and the tail of the output', async () => {
		const lines = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
		const { result } = await setup([{ stdout: lines, stderr: 'Error: boom', exitCode: 2 }]).call({
			command: 'npm test',
		});
		assert.strictEqual(result.ok, false);
		assert.strictEqual(result.exitCode, 2);
		assert.match(result.display, /^`npm test` failed with exit code 2 in the sandbox/);
		assert.match(result.display, /line 199\n\[stderr\]\nError: boom$/);
		assert.doesNotMatch(result.display, /line 100\n/);
	});

	it('reports a timeout, an OOM kill and the pids limit in words the model can act on', async () => {
		const { call } = setup([
			{ timedOut: true, exitCode: 124, durationMs: 30_000, stdout: 'waiting…' },
			{ limitHit: 'memory', exitCode: 137 },
			{ limitHit: 'pids', exitCode: 254 },
		]);
		const timeout = (await call({ command: 'npm start' })).result;
		assert.strictEqual(timeout.ok, false);
		assert.strictEqual(timeout.timedOut, true);
		assert.match(
			timeout.display,
			/timed out after 30\.0 s in the sandbox; it and every process it started were killed.*timeoutSeconds/s,
		);
		assert.match(
			(await call({ command: 'x' })).result.display,
			/ran out of memory in the sandbox .*512 MB, setting keel\.shell\.memoryMb/,
		);
		assert.match(
			(await call({ command: 'y' })).result.display,
			/process limit \(256 processes, setting keel\.shell\.pids\)/,
		);
	});

	it('flags truncated output', async () => {
		const { result } = await setup([
			{ stdout: 'head\n[… 10 bytes of output omitted …]\ntail', truncated: true },
		]).call({ command: 'cat big' });
		assert.strictEqual(result.truncated, true);
		assert.match(result.display, /output truncated/);
	});

	it('auto without an engine runs in the terminal, titles the card so before approval, and says so in the chat', async () => {
		const { sandbox, terminal, call } = setup([{ stdout: 'hi\n' }], 'auto', false);
		const { prepared, result } = await call({ command: 'echo hi' });
		assert.strictEqual(prepared.title, 'Run `echo hi` (terminal)');
		assert.strictEqual(sandbox.requests.length, 0);
		assert.strictEqual(terminal.requests.length, 1);
		assert.match(result.display, /ran in the terminal/);
		assert.match(result.display, /Docker is not available, so this ran in your terminal/);
	});

	it("gives the user's fix when Docker is not running (backend docker)", async () => {
		const { result } = await setup([
			engineUnavailable(Object.assign(new Error('connect ENOENT /var/run/docker.sock'), { code: 'ENOENT' })),
		]).call({ command: 'ls' });
		assert.strictEqual(result.ok, false);
		assert.match(result.display, /^Docker is not running — start it, or set keel\.shell\.backend to terminal\./);
		assert.strictEqual(result.errorCode, 'engineUnavailable');
	});

	it('says honestly when the exit code is unknown', async () => {
		const { result } = await setup([{ exitCode: undefined, stdout: 'x' }], 'terminal').call({ command: 'ls' });
		assert.match(result.display, /exit code unknown/);
	});
});
