// The forced call as the last recovery step, through the real loop, the real adapters and HTTP
// to the model double taught what servers do with `tool_choice` (modelDouble/behaviour/
// toolChoice.ts, with the public reports beside each behaviour): sent only after Keel's
// re-asks, only where it is not known to be ignored or refused, and what each server did is
// remembered so it is never sent where it did not help.

import * as assert from 'node:assert/strict';
import { InMemoryForcingMemory } from '../../src/core/agent/recovery/forcingMemory';
import { AnthropicChatModel } from '../../src/core/llm/wires/anthropic/anthropicChatModel';
import { OllamaChatModel } from '../../src/core/llm/wires/ollama/ollamaChatModel';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import {
	startModelDouble,
	text,
	toolCall,
	type ModelDouble,
	type RecordedRequest,
	type ServerBehaviour,
} from '../support/modelDouble';
import { harness } from '../support/resilience/harness';
import { readConversation } from '../support/resilience/conversation';

/** A model that never issues the call: an empty reply, whatever it is told, until the server holds it to one. */
function stubborn(answer = 'It says alpha.') {
	let calledAlready = false;
	return (req: RecordedRequest) => {
		if (req.constrained && !calledAlready) {
			calledAlready = true;
			return toolCall('read_file', { path: 'notes/a.txt' });
		}
		return readConversation(req).results.length > 0 ? text(answer) : text('');
	};
}

const forcedOf = (r: RecordedRequest) => r.body?.tool_choice;

describe('a forced call as the last recovery step, only where it is honoured', function () {
	this.timeout(30_000);
	let double: ModelDouble;
	const start = async (server?: ServerBehaviour) => (double = await startModelDouble({ server }));
	afterEach(() => double?.close());

	it('an enforcing server (vLLM, SGLang, the cloud APIs): after two re-asks, one request with tool_choice "required" and strict schemas; the call runs and the turn completes', async () => {
		await start({ toolChoice: 'enforce' });
		double.script(...Array.from({ length: 6 }, () => stubborn()));
		const memory = new InMemoryForcingMemory();
		const t = harness(double, 'openai', { forcingMemory: memory });
		const outcome = await t.run('What does notes/a.txt say?');
		assert.equal(outcome.reason, 'completed', outcome.error?.message);
		const requests = double.modelRequests;
		assert.deepEqual(requests.map(forcedOf), [undefined, undefined, undefined, 'required', undefined]);
		const forced = requests[3].body;
		assert.ok(
			forced.tools.some((t: any) => t.function.name === 'final_answer'),
			'a way to answer is offered',
		);
		assert.ok(
			forced.tools.every((t: any) => t.function.strict === true),
			'every tool goes strict where its schema allows',
		);
		assert.ok(!requests[4].body.tool_choice, 'only that one request is forced');
		assert.equal(memory.get(t.model.id, 'required'), 'honoured');
		assert.ok(t.notices().some(n => n.code === 'forcedCall' && /holding the model to a tool call/.test(n.text)));
		assert.match(String(outcome.messages.at(-1)?.content), /alpha/);
	});

	it('a model that meant to answer answers through final_answer: shown as the answer, no tool runs', async () => {
		await start({ toolChoice: 'enforce' });
		const brain = (req: RecordedRequest) =>
			req.constrained ? toolCall('final_answer', { text: 'Nothing to read: the answer is 42.' }) : text('');
		double.script(brain, brain, brain, brain);
		const t = harness(double, 'openai');
		const outcome = await t.run('What is six times seven?');
		assert.equal(outcome.reason, 'completed', outcome.error?.message);
		assert.equal(outcome.messages.filter(m => m.kind === 'tool_result').length, 0);
		assert.equal(outcome.messages.at(-1)?.content, 'Nothing to read: the answer is 42.');
		assert.match(t.shown(), /the answer is 42/);
	});

	it('a server that accepts tool_choice and ignores it (Ollama /v1, LM Studio): tried once, remembered, never sent again', async () => {
		await start({ toolChoice: 'ignore' });
		double.script(...Array.from({ length: 8 }, () => text('')));
		const memory = new InMemoryForcingMemory();
		const t = harness(double, 'openai', { forcingMemory: memory });
		const first = await t.run('What does notes/a.txt say?');
		assert.equal(first.reason, 'failed');
		assert.match(first.error!.message, /two different corrections and a forced call/);
		assert.equal(memory.get(t.model.id, 'required'), 'ignored');
		assert.ok(t.notices().some(n => /does not enforce tool_choice.*will not ask it again/.test(n.text)));
		const before = double.modelRequests.length;
		const second = await harness(double, 'openai', { forcingMemory: memory }).run('Again?');
		assert.equal(second.reason, 'failed');
		assert.deepEqual(
			double.modelRequests.slice(before).map(forcedOf),
			[undefined, undefined, undefined],
			'three requests, none forced',
		);
	});

	it('a server that refuses a forced call (400): remembered as refused, the turn ends saying so, never sent again', async () => {
		await start({ toolChoice: 'refuse' });
		double.script(...Array.from({ length: 8 }, () => text('')));
		const memory = new InMemoryForcingMemory();
		const t = harness(double, 'anthropic', { forcingMemory: memory });
		const outcome = await t.run();
		assert.equal(outcome.reason, 'failed');
		assert.equal(double.modelRequests.length, 4);
		assert.deepEqual(double.modelRequests[3].body.tool_choice, { type: 'any' });
		assert.equal(double.modelRequests[3].response?.status, 400);
		assert.match(outcome.error!.message, /refused a forced tool call.*tool_choice forces tool use/);
		assert.equal(memory.get(t.model.id, 'required'), 'refused');
		const before = double.modelRequests.length;
		await harness(double, 'anthropic', { forcingMemory: memory }).run();
		assert.ok(double.modelRequests.slice(before).every(r => !r.body.tool_choice));
	});

	it('never sent where the server is known to ignore it: Ollama (no field at all), LM Studio "required", llama.cpp named', async () => {
		await start({ toolChoice: 'enforce' });
		const cases = [
			new OllamaChatModel({ baseUrl: double.url, model: 'qwen3:8b' }),
			new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'qwen3', provider: 'lmstudio' }),
		];
		for (const model of cases) {
			double.reset();
			double.script(...Array.from({ length: 4 }, () => text('')));
			const outcome = await harness(double, 'openai', { model }).run();
			assert.equal(outcome.reason, 'failed');
			assert.equal(double.modelRequests.length, 3, model.id);
			assert.ok(
				double.modelRequests.every(
					r => !r.body.tool_choice && !JSON.stringify(r.body).includes('final_answer'),
				),
			);
		}
	});

	it('llama.cpp: a call with no arguments names its tool, but a named choice is downgraded there, so "required" goes instead', async () => {
		await start({ toolChoice: 'llamacpp' });
		const model = new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'qwen3', provider: 'llamacpp' });
		const brain = (req: RecordedRequest) =>
			req.constrained
				? toolCall('read_file', { path: 'notes/a.txt' })
				: (req.body.messages ?? []).some((m: { role: string }) => m.role === 'tool')
					? text('It says alpha.')
					: toolCall('read_file', {});
		double.script(brain, brain, brain, brain, brain);
		const outcome = await harness(double, 'openai', { model }).run();
		assert.equal(outcome.reason, 'completed', outcome.error?.message);
		assert.equal(double.modelRequests[3].body.tool_choice, 'required');
	});

	it('a server that honours a named choice gets the named tool for a call that named it', async () => {
		await start({ toolChoice: 'enforce' });
		const model = new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'gpt', provider: 'openai' });
		const brain = (req: RecordedRequest) =>
			req.constrained
				? toolCall('read_file', { path: 'notes/a.txt' })
				: (req.body.messages ?? []).some((m: { role: string }) => m.role === 'tool')
					? text('It says alpha.')
					: toolCall('read_file', {});
		double.script(brain, brain, brain, brain, brain);
		const outcome = await harness(double, 'openai', { model }).run();
		assert.equal(outcome.reason, 'completed', outcome.error?.message);
		assert.deepEqual(double.modelRequests[3].body.tool_choice, {
			type: 'function',
			function: { name: 'read_file' },
		});
		assert.ok(!double.modelRequests[3].body.tools.some((t: any) => t.function.name === 'final_answer'));
	});

	it('the Anthropic wire asks with {type: "any"} and an enforcing server completes the turn', async () => {
		await start({ toolChoice: 'enforce' });
		double.script(...Array.from({ length: 6 }, () => stubborn()));
		const model = new AnthropicChatModel({ baseUrl: double.url, model: 'claude-double' });
		const outcome = await harness(double, 'anthropic', { model }).run('What does notes/a.txt say?');
		assert.equal(outcome.reason, 'completed', outcome.error?.message);
		assert.deepEqual(double.modelRequests[3].body.tool_choice, { type: 'any' });
	});
});
