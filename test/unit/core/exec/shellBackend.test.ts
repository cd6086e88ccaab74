import * as assert from 'assert';
import { ExecError } from '../../../../src/core/exec/execError';
import {
	AUTO_FALLBACK_NOTE,
	ShellBackendSelector,
	type ShellBackendSetting,
} from '../../../../src/core/exec/shellBackend';
import { FakeCommandRunner } from '../../../fakes/fakeCommandRunner';

describe('ShellBackendSelector', () => {
	const setup = (setting: ShellBackendSetting, engineAnswers: boolean, withTerminal = true) => {
		const sandbox = new FakeCommandRunner('sandbox');
		sandbox.availableAnswer = engineAnswers;
		const terminal = withTerminal ? new FakeCommandRunner('terminal') : undefined;
		return { sandbox, terminal, selector: new ShellBackendSelector(() => setting, sandbox, terminal) };
	};

	it('auto: uses the sandbox when the engine answers, without a note', async () => {
		const { selector, sandbox } = setup('auto', true);
		const choice = await selector.choose();
		assert.strictEqual(choice.runner, sandbox);
		assert.strictEqual(choice.note, undefined);
	});

	it('auto: falls back to the terminal when no engine answers and says so; the next card title follows', async () => {
		const { selector, terminal } = setup('auto', false);
		assert.strictEqual(selector.expected(), 'sandbox');
		const choice = await selector.choose();
		assert.strictEqual(choice.runner, terminal);
		assert.strictEqual(choice.backend, 'terminal');
		assert.strictEqual(choice.note, AUTO_FALLBACK_NOTE);
		assert.strictEqual(selector.expected(), 'terminal');
	});

	it('docker: never asks the engine first and never falls back (the runner reports the engine error)', async () => {
		const { selector, sandbox } = setup('docker', false);
		assert.strictEqual((await selector.choose()).runner, sandbox);
		assert.strictEqual(sandbox.availableCalls, 0);
	});

	it('terminal: uses the terminal; without one (plain Node) it says what to do', async () => {
		assert.strictEqual((await setup('terminal', true).selector.choose()).backend, 'terminal');
		await assert.rejects(setup('terminal', true, false).selector.choose(), ExecError);
		await assert.rejects(setup('auto', false, false).selector.choose(), /start Docker/);
	});
});
