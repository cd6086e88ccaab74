// The terminal backend of run_command inside a real VS Code (code-server): a real Keel
// terminal, real shell integration, real exit codes, the timeout and the refusal when shell
// integration never starts.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { ExecError } from '../../../src/core/exec/execError';
import type { CommandRequest } from '../../../src/core/ports';
import { TerminalRunner } from '../../../src/host/tools/terminalRunner';
import { testConfig } from '../context';
import { requirePart } from '../../support/tierGate';

describe('terminal backend (real VS Code terminal, shell integration)', function () {
	this.timeout(60_000);
	const config = testConfig();
	const runners: TerminalRunner[] = [];
	const make = (options: Partial<ConstructorParameters<typeof TerminalRunner>[0]> = {}) => {
		const runner = new TerminalRunner({
			workspaceRoot: () => config.workspace,
			shellPath: '/bin/bash',
			shellIntegrationTimeoutMs: 15_000,
			name: 'Keel test',
			...options,
		});
		runners.push(runner);
		return runner;
	};
	const request = (command: string, extra: Partial<CommandRequest> = {}): CommandRequest => ({
		command,
		cwd: '',
		timeoutMs: 20_000,
		outputLimitBytes: 1 << 20,
		...extra,
	});
	after(() => runners.forEach(r => r.dispose()));

	it('runs a command in a visible Keel terminal and returns its output and real exit code', async () => {
		const chunks: string[] = [];
		const result = await make().run(
			request('printf "out\\n"; printf "err\\n" >&2; (exit 3)', { onOutput: text => chunks.push(text) }),
		);
		assert.strictEqual(result.backend, 'terminal');
		assert.strictEqual(result.exitCode, 3);
		assert.match(result.stdout, /out\n/);
		assert.match(result.stdout, /err\n/, 'a terminal has one stream: stderr shows in stdout');
		// eslint-disable-next-line no-control-regex
		assert.doesNotMatch(result.stdout, /\x1b/, 'escape sequences are stripped');
		assert.strictEqual(result.timedOut, false);
		assert.ok(chunks.join('').includes('out'), 'output streamed live');
		assert.ok(vscode.window.terminals.some(t => t.name === 'Keel test'));
	});

	it('runs in the requested folder of the workspace, and reuses the terminal', async () => {
		const runner = make();
		const first = await runner.run(request('pwd', { cwd: 'src' }));
		assert.strictEqual(first.stdout.trim().split('\n').pop(), path.join(config.workspace, 'src'));
		assert.strictEqual(first.exitCode, 0);
		const count = vscode.window.terminals.length;
		const second = await runner.run(request('echo again'));
		assert.match(second.stdout, /again/);
		assert.strictEqual(vscode.window.terminals.length, count);
	});

	it('stops a command at the timeout, reports it, and the next command still runs', async () => {
		const runner = make();
		const result = await runner.run(request('sleep 30; echo never', { timeoutMs: 1500 }));
		assert.strictEqual(result.timedOut, true);
		assert.doesNotMatch(result.stdout, /never/);
		const next = await runner.run(request('echo after'));
		assert.strictEqual(next.exitCode, 0);
		assert.match(next.stdout, /after/);
	});

	it('caps the output and flags it', async () => {
		const result = await make().run(request('seq 1 20000', { outputLimitBytes: 2000 }));
		assert.strictEqual(result.truncated, true);
		assert.strictEqual(result.exitCode, 0);
		assert.match(result.stdout, /\b20000\b/);
	});

	it('refuses, and runs nothing, when shell integration does not start', async () => {
		// dash has no shell integration script: VS Code cannot report when a command ends.
		const runner = make({ shellPath: '/bin/sh', shellIntegrationTimeoutMs: 3000, name: 'Keel no-integration' });
		const error = await runner.run(request('touch should-not-exist')).then(
			() => undefined,
			e => e,
		);
		assert.ok(error instanceof ExecError, String(error));
		assert.strictEqual(error.code, 'shellIntegrationUnavailable');
		assert.match(error.message, /Shell integration did not start.*nothing was run.*keel\.shell\.backend/s);
		const exists = await vscode.workspace.fs
			.stat(vscode.Uri.file(path.join(config.workspace, 'should-not-exist')))
			.then(
				() => true,
				() => false,
			);
		assert.strictEqual(exists, false);
	});

	it('contributes the keel.shell settings with safe defaults', function () {
		requirePart(
			this,
			'Keel VSIX',
			config.installed.includes('keel.keel')
				? undefined
				: 'dist/keel.vsix was not installed (build it with npm run package)',
		);
		const shell = vscode.workspace.getConfiguration('keel.shell');
		assert.deepStrictEqual(
			['backend', 'network', 'memoryMb', 'cpus', 'pids', 'timeoutSeconds', 'outputLimitBytes'].map(key =>
				shell.get(key),
			),
			['auto', 'none', 512, 0.5, 256, 30, 1048576],
		);
	});
});
