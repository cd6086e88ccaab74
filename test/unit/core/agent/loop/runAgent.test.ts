import * as assert from 'assert';
import { ApprovalGate } from '../../../../../src/core/agent/approval/approvalGate';
import { defaultApprovalSettings } from '../../../../../src/core/agent/approval/approvalPolicy';
import type { AgentEvent } from '../../../../../src/core/agent/events';
import { runTurn, type AgentOptions } from '../../../../../src/core/agent/loop/runAgent';
import { fileTools } from '../../../../fakes/readTools';
import { defineTool, ok } from '../../../../../src/core/tools/defineTool';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import * as z from 'zod';
import { AgentError } from '../../../../../src/core/errors';
import { InMemoryWorkspace } from '../../../../fakes/inMemoryWorkspace';
import { ScriptedChatModel, callStep, textStep } from '../../../../fakes/scriptedChatModel';

const writeTool = defineTool({
	name: 'write_note',
	description: 'test write',
	input: z.object({ text: z.string() }),
	effect: 'write',
	describe: input => `Write note "${input.text}"`,
	async execute(input, { workspace }) {
		await workspace.writeFile('note.txt', Buffer.from(input.text));
		return ok('written');
	},
});

function setup(steps: ConstructorParameters<typeof ScriptedChatModel>[0], overrides: Partial<AgentOptions> = {}) {
	const model = new ScriptedChatModel(steps);
	const workspace = new InMemoryWorkspace({
		'README.md': 'Keel fixture\nline two',
		'src/app.ts': 'export const x = 1;',
	});
	const gate = new ApprovalGate();
	const events: AgentEvent[] = [];
	const options: AgentOptions = {
		model,
		registry: new ToolRegistry([...fileTools, writeTool]),
		approvals: gate,
		approvalSettings: defaultApprovalSettings,
		workspace,
		systemPrompt: 'sys',
		maxSteps: 25,
		emit: event => events.push(event),
		...overrides,
	};
	return { model, workspace, gate, events, options };
}

describe('runTurn', () => {
	it('answers directly when the model calls no tool', async () => {
		const { options, events } = setup([textStep('Hello there')]);
		const outcome = await runTurn(options, [], 'hi', 't1', new AbortController().signal);
		assert.strictEqual(outcome.reason, 'completed');
		assert.deepStrictEqual(
			outcome.messages.map(m => m.kind),
			['user', 'assistant'],
		);
		assert.strictEqual(outcome.messages[1].content, 'Hello there');
		assert.deepStrictEqual(events.filter(e => e.type === 'turnFinished').length, 1);
	});

	it('runs a read tool without asking and sends its result back with the matching id', async () => {
		const { options, model } = setup([
			callStep({ name: 'read_file', args: { path: 'README.md' }, id: 'c1' }),
			textStep('The README says: Keel fixture'),
		]);
		const outcome = await runTurn(options, [], 'what is in the readme?', 't1', new AbortController().signal);
		assert.strictEqual(outcome.reason, 'completed');
		const second = model.requests[1].messages;
		const result = second.find(m => m.kind === 'tool_result');
		assert.ok(result && result.kind === 'tool_result');
		assert.strictEqual(result.data.toolCallId, 'c1');
		assert.match(result.content, /1 {2}Keel fixture/);
		assert.deepStrictEqual(model.requests[0].toolNames.sort(), [
			'find_path',
			'list_directory',
			'read_file',
			'write_note',
		]);
	});

	it('runs several calls from one response, each with its own result', async () => {
		const { options } = setup([
			callStep(
				{ name: 'read_file', args: { path: 'README.md' }, id: 'a' },
				{ name: 'list_directory', args: { path: 'src' }, id: 'b' },
			),
			textStep('done'),
		]);
		const outcome = await runTurn(options, [], 'look', 't1', new AbortController().signal);
		const results = outcome.messages.filter(m => m.kind === 'tool_result');
		assert.deepStrictEqual(
			results.map(r => r.kind === 'tool_result' && r.data.toolCallId),
			['a', 'b'],
		);
		assert.ok(results.every(r => r.kind === 'tool_result' && r.data.ok));
	});

	it('asks before a write, and a denial reaches the model without running the tool', async () => {
		const { options, gate, workspace, events, model } = setup([
			callStep({ name: 'write_note', args: { text: 'x' }, id: 'w1' }),
			textStep('OK, I will not write it.'),
		]);
		const turn = runTurn(options, [], 'write a note', 't1', new AbortController().signal);
		await waitFor(() => gate.pendingIds().includes('w1'));
		const card = [...events].reverse().find(e => e.type === 'toolCallUpdated');
		assert.ok(card && card.type === 'toolCallUpdated' && card.call.status === 'awaitingApproval');
		assert.strictEqual(card.call.title, 'Write note "x"');
		assert.ok(gate.decide('w1', { approved: false, reason: 'not now' }));
		const outcome = await turn;
		assert.strictEqual(workspace.writes.length, 0);
		const result = model.requests[1].messages.find(m => m.kind === 'tool_result');
		assert.ok(result && result.kind === 'tool_result' && !result.data.ok && result.data.errorKind === 'denied');
		assert.match(result.content, /denied.*not now/);
		assert.strictEqual(outcome.reason, 'completed');
	});

	it('runs a write once it is approved', async () => {
		const { options, gate, workspace } = setup([
			callStep({ name: 'write_note', args: { text: 'hello' }, id: 'w1' }),
			textStep('written'),
		]);
		const turn = runTurn(options, [], 'write', 't1', new AbortController().signal);
		await waitFor(() => gate.pendingIds().length === 1);
		gate.decide('w1', { approved: true });
		await turn;
		assert.strictEqual(Buffer.from(workspace.files.get('note.txt')!).toString(), 'hello');
	});

	it('returns invalid arguments and unknown tools to the model as results', async () => {
		const { options, model } = setup([
			callStep(
				{ name: 'read_file', args: { line: 3 }, id: 'bad' },
				{ name: 'delete_everything', args: {}, id: 'unknown' },
			),
			textStep('sorry'),
		]);
		await runTurn(options, [], 'go', 't1', new AbortController().signal);
		const results = model.requests[1].messages.filter(m => m.kind === 'tool_result');
		assert.match(results[0].content, /Invalid arguments for read_file: path/);
		assert.match(results[1].content, /no tool named "delete_everything".*read_file/);
	});

	it('refuses paths outside the workspace with a clear result', async () => {
		const { options, model } = setup([
			callStep({ name: 'read_file', args: { path: '../../etc/passwd' } }),
			textStep('ok'),
		]);
		await runTurn(options, [], 'go', 't1', new AbortController().signal);
		const result = model.requests[1].messages.find(m => m.kind === 'tool_result');
		assert.ok(result && result.kind === 'tool_result' && !result.data.ok);
		assert.match(result.content, /leaves the workspace/);
	});

	it('stops at the step cap with a message instead of looping forever', async () => {
		const loop = () => callStep({ name: 'list_directory', args: { path: '.' } });
		const { options, events } = setup([loop, loop, loop, loop], { maxSteps: 3 });
		const outcome = await runTurn(options, [], 'go', 't1', new AbortController().signal);
		assert.strictEqual(outcome.reason, 'stepLimit');
		assert.match(outcome.error!.message, /Stopped after 3 model steps/);
		assert.ok(events.some(e => e.type === 'notice' && e.code === 'stepLimit'));
	});

	it('stops promptly while waiting for approval, and every call still gets a result', async () => {
		const { options, gate } = setup([callStep({ name: 'write_note', args: { text: 'x' }, id: 'w1' })]);
		const abort = new AbortController();
		const turn = runTurn(options, [], 'write', 't1', abort.signal);
		await waitFor(() => gate.pendingIds().length === 1);
		abort.abort();
		const outcome = await turn;
		assert.strictEqual(outcome.reason, 'cancelled');
		const result = outcome.messages.find(m => m.kind === 'tool_result');
		assert.ok(result && result.kind === 'tool_result' && result.data.errorKind === 'cancelled');
	});

	it('a Stop ends the turn at once, and the turn says when the call it left running has finished writing', async () => {
		// Delays of many lengths: the turn must never claim the work settled before the write landed.
		for (const delayMs of [0, 1, 5, 20, 60]) {
			let release!: () => void;
			const started = new Promise<void>(resolve => (release = resolve));
			const slowWrite = defineTool({
				name: 'slow_write',
				description: 'ignores its signal',
				input: z.object({}),
				effect: 'read',
				describe: () => 'Write late',
				async execute(_input, { workspace }) {
					release();
					await new Promise(resolve => setTimeout(resolve, delayMs));
					await workspace.writeFile('late.txt', Buffer.from('late'));
					return ok('written');
				},
			});
			const { options, workspace } = setup([callStep({ name: 'slow_write', args: {} })], {
				registry: new ToolRegistry([slowWrite]),
			});
			const abort = new AbortController();
			const turn = runTurn(options, [], 'write', 't1', abort.signal);
			await started;
			abort.abort();
			const outcome = await turn;
			assert.strictEqual(outcome.reason, 'cancelled');
			await outcome.settled;
			assert.strictEqual(
				Buffer.from(await workspace.readFile('late.txt')).toString(),
				'late',
				`after ${delayMs} ms the write had landed`,
			);
		}
	});

	it('keeps the partial answer and reports the error when the model fails mid-stream', async () => {
		// With no retries left (keel.recovery.maxRetriesPerTurn = 0) a broken stream ends the turn.
		const { options, events } = setup(
			[
				{
					events: [{ type: 'text', text: 'Partial ' }],
					error: new AgentError('modelStream', 'The model stream broke: reset'),
				},
			],
			{ recovery: { maxRetriesPerTurn: 0 } },
		);
		const outcome = await runTurn(options, [], 'go', 't1', new AbortController().signal);
		assert.strictEqual(outcome.reason, 'failed');
		assert.strictEqual(outcome.error!.code, 'modelStream');
		assert.deepStrictEqual(
			outcome.messages.map(m => [m.kind, m.content]),
			[
				['user', 'go'],
				['assistant', 'Partial '],
			],
		);
		const finished = events.find(e => e.type === 'turnFinished');
		assert.ok(finished && finished.type === 'turnFinished' && finished.error?.message.includes('stream broke'));
	});
});

async function waitFor(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
	const start = Date.now();
	while (!predicate()) {
		if (Date.now() - start > timeoutMs) {
			throw new Error('waitFor timed out');
		}
		await new Promise(resolve => setTimeout(resolve, 5));
	}
}
