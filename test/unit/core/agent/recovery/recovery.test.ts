import * as assert from 'assert';
import * as z from 'zod';
import { ApprovalGate } from '../../../../../src/core/agent/approval/approvalGate';
import { ContinueGate } from '../../../../../src/core/agent/guards/continueGate';
import type { AgentEvent } from '../../../../../src/core/agent/events';
import { InMemoryToolModeMemory } from '../../../../../src/core/agent/recovery/recoverySettings';
import { runTurn, type AgentOptions } from '../../../../../src/core/agent/loop/runAgent';
import { AgentError } from '../../../../../src/core/errors';
import type { ModelEvent } from '../../../../../src/core/llm/chatModel';
import type { Clock } from '../../../../../src/core/ports';
import { defineTool, ok } from '../../../../../src/core/tools/defineTool';
import { fileTools } from '../../../../fakes/readTools';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { InMemoryWorkspace } from '../../../../fakes/inMemoryWorkspace';
import { ScriptedChatModel, callStep, textStep, type ScriptedStep } from '../../../../fakes/scriptedChatModel';

const appendTool = defineTool({
	name: 'append_line',
	description: 'append a line to log.txt',
	input: z.object({ line: z.string() }),
	effect: 'write',
	describe: input => `Append ${input.line}`,
	async execute(input, { workspace }) {
		const old = (await workspace.stat('log.txt'))
			? Buffer.from(await workspace.readFile('log.txt')).toString()
			: '';
		await workspace.writeFile('log.txt', Buffer.from(old + input.line + '\n'));
		return ok('appended');
	},
});

function setup(steps: ScriptedStep[], overrides: Partial<AgentOptions> = {}) {
	const model = new ScriptedChatModel(steps);
	const workspace = new InMemoryWorkspace({ 'README.md': 'Keel fixture', 'src/app.ts': 'export const x = 1;' });
	const events: AgentEvent[] = [];
	const delays: number[] = [];
	const clock: Clock = { now: () => 0, sleep: async ms => void delays.push(ms) };
	const options: AgentOptions = {
		model,
		registry: new ToolRegistry([...fileTools, appendTool]),
		approvals: new ApprovalGate(),
		approvalSettings: { autoApprove: { read: true, write: true } },
		workspace,
		systemPrompt: 'sys',
		maxSteps: 25,
		emit: event => events.push(event),
		clock,
		random: () => 0.5,
		...overrides,
	};
	const notices = () => events.flatMap(e => (e.type === 'notice' ? [e] : []));
	return {
		model,
		workspace,
		events,
		options,
		delays,
		notices,
		run: (prompt = 'go') => runTurn(options, [], prompt, 't1', new AbortController().signal),
	};
}

const http = (status: number, body: string, headers?: Record<string, string>) =>
	new AgentError('modelHttp', `HTTP ${status}`, { status, body, headers });

describe('runTurn recovery', () => {
	it('R1: backs off on 429 honouring Retry-After, says so, and finishes', async () => {
		const t = setup([http(429, '{}', { 'retry-after': '4' }), http(503, '{}'), textStep('done')]);
		const outcome = await t.run();
		assert.strictEqual(outcome.reason, 'completed');
		assert.deepStrictEqual(t.delays, [4000, 2000]);
		assert.deepStrictEqual(
			t.notices().map(n => n.text),
			['Model busy (429), retrying in 4 s — 1/6', 'Model overloaded (503), retrying in 2 s — 2/6'],
		);
	});

	it('R1: caps Retry-After and gives up when the per-turn budget is spent', async () => {
		const t = setup([http(429, '{}', { 'retry-after': '90' }), http(503, '{}'), http(503, '{}')], {
			recovery: { maxRetriesPerTurn: 2 },
		});
		const outcome = await t.run();
		assert.strictEqual(outcome.reason, 'failed');
		assert.strictEqual(t.delays[0], 60_000);
		assert.match(outcome.error!.message, /Gave up after 2 retries this turn/);
	});

	it('R1: a wait longer than the retry budget could outlast is not waited for: the turn stops and names the time', async () => {
		const t = setup([
			http(429, '{"error":{"message":"Too many requests"}}', { 'retry-after': '3600' }),
			textStep('never'),
		]);
		const outcome = await t.run();
		assert.strictEqual(outcome.reason, 'failed');
		assert.strictEqual(t.model.requests.length, 1);
		assert.deepStrictEqual(t.delays, []);
		assert.match(outcome.error!.message, /Too many requests.*wait until \d\d:\d\d \(in about 1 h\)/);
	});

	it("R1: an error nobody recognises is sent again at most twice, then shown in the server's words", async () => {
		const odd = () => http(400, '{"error":{"message":"Something odd (E-7731)"}}');
		const t = setup([odd(), odd(), odd(), textStep('never')]);
		const outcome = await t.run();
		assert.strictEqual(outcome.reason, 'failed');
		assert.strictEqual(t.model.requests.length, 3);
		assert.match(outcome.error!.message, /Something odd \(E-7731\).*server's own words/);
	});

	it('R1: never retries 401 or 400', async () => {
		const t = setup([new AgentError('modelAuth', 'Run "Keel: Set API Key"', { status: 401 }), textStep('never')]);
		const outcome = await t.run();
		assert.strictEqual(outcome.reason, 'failed');
		assert.strictEqual(t.model.requests.length, 1);
	});

	it('R2: retries a broken stream, retracts its partial text, and keeps the text once', async () => {
		const t = setup([
			{ events: [{ type: 'text', text: 'Half an ans' }], error: new AgentError('modelStream', 'broke') },
			textStep('A whole answer'),
		]);
		const outcome = await t.run();
		assert.strictEqual(outcome.reason, 'completed');
		assert.ok(t.events.some(e => e.type === 'textRetracted' && e.reason === 'retry'));
		assert.deepStrictEqual(
			outcome.messages.filter(m => m.kind === 'assistant').map(m => m.content),
			['A whole answer'],
		);
		assert.match(t.notices()[0].text, /partial answer discarded/);
	});

	it('R2: a side effect that already ran is not repeated when the next request breaks', async () => {
		const t = setup([
			callStep({ name: 'append_line', args: { line: 'one' }, id: 'w' }),
			{ events: [{ type: 'text', text: 'Do' }], error: new AgentError('modelStream', 'x') },
			textStep('Done'),
		]);
		await t.run();
		assert.strictEqual(Buffer.from(t.workspace.files.get('log.txt')!).toString(), 'one\n');
	});

	it('R3: repairs malformed arguments before validation', async () => {
		const t = setup([callStep({ name: 'read_file', args: "{'path': 'README.md',}" }), textStep('ok')]);
		await t.run();
		const result = t.model.requests[1].messages.find(m => m.kind === 'tool_result');
		assert.ok(result?.kind === 'tool_result' && result.data.ok);
		assert.match(t.notices()[0].text, /Repaired malformed arguments for read_file/);
	});

	it('R3: matches a mis-cased tool name', async () => {
		const t = setup([callStep({ name: 'Read-File', args: { path: 'README.md' } }), textStep('ok')]);
		await t.run();
		const result = t.model.requests[1].messages.find(m => m.kind === 'tool_result');
		assert.ok(result?.kind === 'tool_result' && result.data.ok && result.data.name === 'read_file');
	});

	it('R3: runs a call written as text and retracts the raw text', async () => {
		const t = setup([
			textStep('Reading.\n<tool_call>{"name":"read_file","arguments":{"path":"README.md"}}</tool_call>'),
			textStep('It says Keel fixture'),
		]);
		const outcome = await t.run();
		assert.deepStrictEqual(
			outcome.messages.map(m => m.kind),
			['user', 'assistant', 'tool_call', 'tool_result', 'assistant'],
		);
		assert.strictEqual(outcome.messages[1].content, 'Reading.');
		assert.ok(t.events.some(e => e.type === 'textRetracted' && e.reason === 'recovered'));
	});

	it('R3: recovers a call from an Ollama 500 parse error body', async () => {
		const body = JSON.stringify({
			error: `error parsing tool call: raw='{"path": "README.md",}', err=invalid character '}'`,
		});
		const t = setup([http(500, body), textStep('ok')]);
		const outcome = await t.run();
		assert.strictEqual(outcome.reason, 'completed');
		const call = outcome.messages.find(m => m.kind === 'tool_call');
		assert.ok(call?.kind === 'tool_call' && call.data.name === 'read_file');
	});

	it('R3: reflects an unrecoverable parse error to the model, within budget', async () => {
		const body = JSON.stringify({ error: "error parsing tool call: raw='ls -R\n', err=invalid character 'l'" });
		const t = setup([http(500, body), http(500, body), http(500, body)], { recovery: { toolMode: 'native' } });
		const outcome = await t.run();
		assert.strictEqual(outcome.reason, 'failed');
		assert.strictEqual(t.model.requests.length, 3);
		const reflection = t.model.requests[1].messages[t.model.requests[1].messages.length - 1];
		assert.match(reflection.content, /You wrote: ls -R[\s\S]*Example: \{"name":/);
		assert.deepStrictEqual(t.delays, [500, 500]);
	});

	it('R3: schema errors go back with the expected shape; a failing write gets one retry', async () => {
		const bad = () => callStep({ name: 'append_line', args: { text: 'x' } });
		const t = setup([bad(), bad(), bad(), textStep('giving up')]);
		await t.run();
		const results = t.model.requests[3].messages.filter(m => m.kind === 'tool_result');
		assert.match(results[0].content, /Expected arguments: \{line: string\}/);
		assert.match(results[2].content, /will not run again/);
	});

	it('auto tool mode switches a model to text after repeated native failures and remembers it', async () => {
		const memory = new InMemoryToolModeMemory();
		const garbage = () => callStep({ name: 'read_file', args: 'ls -R' });
		const t = setup(
			[
				garbage(),
				garbage(),
				textStep('<tool_call>{"name":"read_file","arguments":{"path":"README.md"}}</tool_call>'),
				textStep('ok'),
			],
			{ toolModeMemory: memory },
		);
		await t.run();
		assert.strictEqual(memory.get('scripted'), 'text');
		assert.deepStrictEqual(t.model.requests[2].toolNames, [], 'no native tools in text mode');
		assert.match(t.model.requests[2].messages[0].content, /<tool_call>/);
		assert.ok(t.notices().some(n => n.code === 'textMode'));
	});

	it('guards: warns on a doom loop once, then stops', async () => {
		const same = () => callStep({ name: 'read_file', args: { path: 'README.md' } });
		const t = setup(Array.from({ length: 10 }, same));
		const outcome = await t.run();
		assert.strictEqual(outcome.reason, 'failed');
		assert.strictEqual(outcome.error?.code, 'loopDetected');
		assert.strictEqual(t.model.requests.length, 6);
		assert.deepStrictEqual(
			t.notices().map(n => n.code),
			['loopWarning', 'loopStopped'],
		);
		assert.ok(t.notices()[1].notify);
	});

	it('guards: the step cap asks Continue / Stop and fails closed to Stop', async () => {
		const step = (i: number) => callStep({ name: 'read_file', args: { path: 'README.md', offset: 1, limit: i } });
		const gate = new ContinueGate();
		const t = setup([step(1), step(2), step(3), step(4), textStep('done')], { maxSteps: 2, continueDecider: gate });
		const turn = t.run();
		await waitFor(() => gate.pendingIds().length === 1);
		const first = gate.pendingIds()[0];
		assert.ok(gate.decide(first, true));
		await waitFor(() => gate.pendingIds().length === 1 && gate.pendingIds()[0] !== first);
		assert.ok(gate.decide(gate.pendingIds()[0], false));
		const outcome = await turn;
		assert.strictEqual(outcome.reason, 'stepLimit');
		assert.deepStrictEqual(
			t.events.flatMap(e => (e.type === 'continueDecided' ? [e.proceed] : [])),
			[true, false],
		);

		const none = setup([step(1), step(2)], { maxSteps: 1 });
		assert.strictEqual((await none.run()).reason, 'stepLimit');
	});

	it('guards: warns when the server read far fewer prompt tokens than sent (Ollama truncation)', async () => {
		const big = 'x'.repeat(20_000);
		const events: ModelEvent[] = [
			{ type: 'text', text: 'hm' },
			{ type: 'finish', reason: 'stop', usage: { promptTokens: 2048 } },
		];
		const t = setup([events]);
		await runTurn(t.options, [{ kind: 'user', content: big }], 'go', 't1', new AbortController().signal);
		const warning = t.notices().find(n => n.code === 'truncated');
		assert.ok(warning?.notify);
		assert.match(warning!.text, /read only 2048 prompt tokens/);
	});

	it('R1: stopping during a backoff wait sends no further request', async () => {
		const abort = new AbortController();
		const t = setup([http(429, '{}', { 'retry-after': '30' }), textStep('never')], {
			clock: { now: () => 0, sleep: async () => abort.abort() },
		});
		const outcome = await runTurn(t.options, [], 'go', 't1', abort.signal);
		assert.strictEqual(outcome.reason, 'cancelled');
		assert.strictEqual(t.model.requests.length, 1);
		assert.ok(t.notices()[0].notify, 'a 30 s wait is a notification');
	});

	it('with recovery off (the naive loop) a 429 ends the turn', async () => {
		const t = setup([http(429, '{}'), textStep('done')], { recovery: { enabled: false } });
		assert.strictEqual((await t.run()).reason, 'failed');
	});
});

async function waitFor(predicate: () => boolean): Promise<void> {
	for (let i = 0; i < 200 && !predicate(); i++) {
		await new Promise(resolve => setTimeout(resolve, 2));
	}
	assert.ok(predicate(), 'condition not reached');
}
