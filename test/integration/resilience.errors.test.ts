// Permanent errors, streams and guards through the real loop, OpenAIChatModel and the double:
// what is never retried, what the user reads, and what the view shows.

import * as assert from 'node:assert/strict';
import { ContinueGate } from '../../src/core/agent/guards/continueGate';
import type { AgentEvent } from '../../src/core/agent/events';
import { runTurn, type AgentOptions } from '../../src/core/agent/loop/runAgent';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import { ChatView } from '../../src/host/view/chatView';
import { ToolRegistry } from '../../src/core/tools/registry';
import { presets, startModelDouble, text, toolCall, withFaults, type ModelDouble } from '../support/modelDouble';
import { fastRecovery } from '../support/resilience/runScenario';
import { TaskFiles } from '../support/resilience/taskTools';

describe('resilience — permanent errors, streams and guards over HTTP', function () {
	this.timeout(20_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	afterEach(() => double.reset());
	after(() => double.close());

	function setup(overrides: Partial<AgentOptions> = {}, baseUrl = double.openaiBaseUrl) {
		const files = new TaskFiles({ 'notes/a.txt': 'alpha' });
		const events: AgentEvent[] = [];
		const view = new ChatView('s', 'm');
		const options: AgentOptions = {
			model: new OpenAIChatModel({ baseUrl, model: 'qwen3:8b' }),
			registry: new ToolRegistry(files.tools()),
			approvals: undefined,
			approvalSettings: { autoApprove: { read: true, write: true } },
			workspace: files.workspace,
			systemPrompt: 'sys',
			maxSteps: 10,
			emit: event => {
				events.push(event);
				view.apply(event);
			},
			recovery: fastRecovery,
			...overrides,
		};
		const notices = () => events.flatMap(e => (e.type === 'notice' ? [e] : []));
		return {
			files,
			events,
			view,
			notices,
			run: (prompt = 'go') => runTurn(options, [], prompt, `t${Date.now()}`, new AbortController().signal),
		};
	}

	it('401 is not retried and says how to set the key', async () => {
		double.script(presets.openaiInvalidApiKey(), text('never'));
		const outcome = await setup().run();
		assert.equal(outcome.reason, 'failed');
		assert.match(outcome.error!.message, /Keel: Set API Key/);
		assert.equal(double.modelRequests.length, 1);
	});

	it('404 model not found names the model, and 429 insufficient_quota is not retried', async () => {
		double.script(presets.ollamaV1ModelNotFound('qwen3:8b'));
		const first = await setup().run();
		assert.match(first.error!.message, /Model "qwen3:8b" was not found/);
		double.reset();
		double.script(presets.openaiInsufficientQuota(), text('never'));
		await setup().run();
		assert.equal(double.modelRequests.length, 1);
	});

	it('an unreachable server is retried 3 times quickly, then explained with how to start it', async () => {
		const t = setup({}, 'http://127.0.0.1:9/v1');
		const outcome = await t.run();
		assert.equal(outcome.error?.code, 'modelUnreachable');
		assert.match(
			outcome.error!.message,
			/No model server answered at http:\/\/127\.0\.0\.1:9\/v1.*Gave up after 3 retries this turn: the server is not answering\./s,
		);
		assert.deepEqual(
			t.notices().map(n => n.text.replace(/retrying.*—/, 'retrying —')),
			[
				// The counter names the limit that ends them: three tries for a server that does not answer.
				'Model server unreachable, retrying — 1/3',
				'Model server unreachable, retrying — 2/3',
				'Model server unreachable, retrying — 3/3',
			],
		);
	});

	it('a stream that drops mid-answer is retried; the failed text is marked, never shown twice', async () => {
		double.script(
			withFaults(text('The answer is forty two, as everyone knows', { chunks: 8 }), { dropAfter: 4 }),
			text('The answer is 42.'),
		);
		const t = setup();
		const outcome = await t.run();
		assert.equal(outcome.reason, 'completed');
		assert.deepEqual(
			outcome.messages.filter(m => m.kind === 'assistant').map(m => m.content),
			['The answer is 42.'],
		);
		const assistants = t.view.view.items.filter(i => i.kind === 'assistant');
		assert.equal(assistants.length, 2);
		assert.equal(assistants[0].kind === 'assistant' && assistants[0].retracted, 'retry');
		assert.equal(assistants[1].kind === 'assistant' && assistants[1].retracted, undefined);
		assert.match(t.notices()[0].text, /Model stream broke \(partial answer discarded\), retrying now — 1\/6/);
	});

	it('warns when the server read far fewer prompt tokens than were sent (Ollama truncation)', async () => {
		double.script(toolCall('read_file', { path: 'notes/a.txt' }), text('ok', { usage: { promptTokens: 2048 } }));
		const t = setup({ systemPrompt: 'You are careful. '.repeat(2000) });
		await t.run();
		const warning = t.notices().find(n => n.code === 'truncated');
		assert.ok(warning?.notify, 'a notification, not only a line');
	});

	it('the step cap asks Continue / Stop through the decision port and the view', async () => {
		const gate = new ContinueGate();
		double.script(
			toolCall('read_file', { path: 'notes/a.txt' }),
			toolCall('list_directory', { path: 'notes' }),
			text('Finished.'),
		);
		const t = setup({ maxSteps: 2, continueDecider: gate });
		const turn = t.run();
		while (gate.pendingIds().length === 0) {
			await new Promise(resolve => setTimeout(resolve, 10));
		}
		const prompt = t.view.view.items.find(i => i.kind === 'continue');
		assert.ok(prompt?.kind === 'continue' && prompt.state === 'pending');
		gate.decide(gate.pendingIds()[0], true);
		const outcome = await turn;
		assert.equal(outcome.reason, 'completed');
		const decided = t.view.view.items.find(i => i.kind === 'continue');
		assert.ok(decided?.kind === 'continue' && decided.state === 'continued');
	});
});
