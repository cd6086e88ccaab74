// Ollama's native /api/chat through the real loop and OllamaChatModel: its own parse-error
// bodies, its prompt_eval_count (silent truncation), and an overloaded runner.

import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/core/agent/events';
import { runTurn } from '../../src/core/agent/loop/runAgent';
import { OllamaChatModel } from '../../src/core/llm/wires/ollama/ollamaChatModel';
import { ToolRegistry } from '../../src/core/tools/registry';
import { presets, startModelDouble, text, toolCall, type ModelDouble } from '../support/modelDouble';
import { fastRecovery } from '../support/resilience/runScenario';
import { TaskFiles } from '../support/resilience/taskTools';

describe('resilience — Ollama native API over HTTP', function () {
	this.timeout(20_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	afterEach(() => double.reset());
	after(() => double.close());

	async function run(systemPrompt = 'sys') {
		const files = new TaskFiles({ 'notes/a.txt': 'alpha', 'notes/b.txt': 'beta' });
		const events: AgentEvent[] = [];
		const outcome = await runTurn(
			{
				model: new OllamaChatModel({ baseUrl: double.url, model: 'gpt-oss:20b' }),
				registry: new ToolRegistry(files.tools()),
				approvals: undefined,
				approvalSettings: { autoApprove: { read: true, write: true } },
				workspace: files.workspace,
				systemPrompt,
				maxSteps: 10,
				emit: event => events.push(event),
				recovery: fastRecovery,
			},
			[],
			'copy notes/a.txt to out/a.txt',
			't1',
			new AbortController().signal,
		);
		return { files, events, outcome, notices: events.flatMap(e => (e.type === 'notice' ? [e] : [])) };
	}

	it('recovers the call from Ollama\'s 500 "error parsing tool call: raw=…" and finishes the task', async () => {
		double.script(
			toolCall('read_file', { path: 'notes/a.txt' }),
			presets.ollamaToolParse500(
				'{"path": "out/a.txt", "content": "alpha",}',
				"invalid character '}' looking for beginning of object key string",
			),
			text('Copied.'),
		);
		const { files, outcome, notices } = await run();
		assert.equal(outcome.reason, 'completed');
		assert.equal(files.files.get('out/a.txt'), 'alpha');
		assert.ok(notices.some(n => n.code === 'recoveredFromError'));
		assert.equal(double.modelRequests.length, 3, 'no extra request: recovered from the error body');
	});

	it('reflects an Ollama parse error that holds no usable call (gpt-oss writing a shell command)', async () => {
		double.script(
			presets.ollamaToolParseNotJson(),
			toolCall('read_file', { path: 'notes/a.txt' }),
			toolCall('write_file', { path: 'out/a.txt', content: 'alpha' }),
			text('Copied.'),
		);
		const { files, outcome, notices } = await run();
		assert.equal(outcome.reason, 'completed');
		assert.equal(files.files.get('out/a.txt'), 'alpha');
		assert.ok(notices.some(n => n.code === 'reflection'));
		const correction = double.modelRequests[1].body.messages.at(-1);
		assert.match(correction.content, /could not be parsed[\s\S]*You wrote: ls -R/);
	});

	it('retries a killed runner (500 without a parse error) as a transient failure', async () => {
		double.script(presets.ollamaRunnerTerminated(), text('Back.'));
		const { outcome, notices } = await run();
		assert.equal(outcome.reason, 'completed');
		assert.match(notices[0].text, /Server error \(500\), retrying/);
	});

	it('warns when prompt_eval_count shows Ollama cut the prompt', async () => {
		double.script(text('Hm.', { usage: { promptTokens: 2048 } }));
		const { notices } = await run('Be careful. '.repeat(3000));
		const warning = notices.find(n => n.code === 'truncated');
		assert.ok(warning?.notify);
		assert.match(warning!.text, /read only 2048 prompt tokens/);
	});
});
