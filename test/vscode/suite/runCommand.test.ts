// run_command wired into Keel inside a real VS Code: the card says the exact command and where
// it runs, approval comes first, and the result (exit code, output) reaches the model. The
// sandbox case builds the image from the Dockerfile inside the installed VSIX.
import * as assert from 'assert';
import Docker from 'dockerode';
import * as vscode from 'vscode';
import { text, toolCalls } from '../../support/modelDouble';
import { requirePart } from '../../support/tierGate';
import { useKeelSuite } from '../keelSuite';

describe('run_command through Keel (real VS Code)', function () {
	this.timeout(120_000);
	const keel = useKeelSuite();

	async function approveNext(expectedTitle: string): Promise<void> {
		const pending = await keel.pendingApprovals();
		assert.strictEqual(pending.length, 1, 'the command waits for approval');
		assert.strictEqual(keel.toolCards().at(-1)!.title, expectedTitle);
		assert.ok(keel.api.decideToolCall(pending[0], true));
	}

	it('terminal backend: asks with the exact command, runs it in the Keel terminal, and a non-zero exit reaches the model', async () => {
		await keel.set('shell.backend', 'terminal');
		keel.double.script(
			toolCalls([{ name: 'run_command', arguments: { command: 'echo from-keel; (exit 4)' } }]),
			text('{{lastToolResult}}'),
		);
		const turn = keel.api.runTurn('run it');
		await approveNext('Run `echo from-keel; (exit 4)` (terminal)');
		const outcome = await turn;
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		const result = keel.toolResults().at(-1)!;
		assert.strictEqual(result.ok, false);
		assert.match(result.content, /failed with exit code 4 in the terminal/);
		assert.match(result.content, /from-keel/);
		assert.ok(vscode.window.terminals.some(t => t.name === 'Keel'));
	});

	it("auto backend with a running engine: runs in the sandbox built from the VSIX's Dockerfile", async function () {
		if (
			!(await new Docker().ping().then(
				() => true,
				() => false,
			))
		) {
			requirePart(this, 'Docker engine', 'no engine answers in the extension host');
		}
		await keel.set('shell.backend', 'auto');
		keel.double.script(
			toolCalls([{ name: 'run_command', arguments: { command: 'id -un; pwd; ls' } }]),
			text('{{lastToolResult}}'),
		);
		const turn = keel.api.runTurn('where am I?');
		await approveNext('Run `id -un; pwd; ls` (sandbox)');
		const outcome = await turn;
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		const result = keel.toolResults().at(-1)!;
		assert.strictEqual(result.ok, true, result.content);
		assert.match(result.content, /^keel\n\/workspace\n/);
		assert.match(result.content, /README\.md/);
		assert.match(result.content, /ran in the sandbox/);
	});
});
