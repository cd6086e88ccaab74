import * as assert from 'assert';
import { defaultApprovalSettings } from '../../src/core/agent/approval/approvalPolicy';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import { ChatSession } from '../../src/core/session/chatSession';
import { fileTools } from '../fakes/readTools';
import { ToolRegistry } from '../../src/core/tools/registry';
import { defineTool, ok } from '../../src/core/tools/defineTool';
import * as z from 'zod';
import { InMemoryWorkspace } from '../fakes/inMemoryWorkspace';
import {
	presets,
	startModelDouble,
	text,
	textThenTools,
	toolCalls,
	withFaults,
	type ModelDouble,
} from '../support/modelDouble';

const noteTool = defineTool({
	name: 'write_note',
	description: 'Write a note',
	input: z.object({ text: z.string() }),
	effect: 'write',
	describe: input => `Write note "${input.text}"`,
	execute: async (input, { workspace }) => {
		await workspace.writeFile('note.txt', Buffer.from(input.text));
		return ok('written');
	},
});

describe('agent loop over HTTP (OpenAI chat-completions SSE)', function () {
	let double: ModelDouble;
	let workspace: InMemoryWorkspace;

	before(async () => {
		double = await startModelDouble();
	});
	after(() => double.close());
	beforeEach(() => {
		double.reset();
		workspace = new InMemoryWorkspace({
			'README.md': '# Fixture\nThe answer is 42.',
			'src/app.ts': 'export const answer = 42;\n',
		});
	});

	function session(baseUrl = double.openaiBaseUrl, model = 'glm-4.7-flash', streamIdleTimeoutMs = 2000) {
		return new ChatSession({
			sessionId: 'it',
			createModel: async () => new OpenAIChatModel({ baseUrl, model }),
			modelLabel: () => model,
			registry: new ToolRegistry([...fileTools, noteTool]),
			workspace,
			approvalSettings: () => defaultApprovalSettings,
			maxSteps: () => 25,
			systemPrompt: () => 'You are Keel.',
			// Recovery retries unreachable servers with backoff; keep its waits short here.
			recovery: () => ({ backoffBaseMs: 1, backoffMaxMs: 10, streamIdleTimeoutMs }),
		});
	}

	it('runs several split tool calls from one response and answers from their results', async () => {
		double.script(
			toolCalls(
				[
					{ name: 'read_file', arguments: { path: 'README.md' }, id: 'call_a' },
					{ name: 'find_path', arguments: { glob: '**/*.ts' }, id: 'call_b' },
				],
				{ split: 4 },
			),
			text('From the tools: {{lastToolResult}}'),
		);
		const chat = session();
		const outcome = await chat.send('What is the answer?');
		assert.strictEqual(outcome.reason, 'completed');
		const [first, second] = double.modelRequests.map(r => r.body);
		assert.strictEqual(first.stream, true);
		assert.deepStrictEqual(
			first.tools.map((t: { function: { name: string } }) => t.function.name),
			['read_file', 'list_directory', 'find_path', 'write_note'],
		);
		assert.ok(second.tools?.length === 4, 'tools are sent on every request');
		const toolMessages = second.messages.filter((m: { role: string }) => m.role === 'tool');
		assert.deepStrictEqual(
			toolMessages.map((m: { tool_call_id: string }) => m.tool_call_id),
			['call_a', 'call_b'],
		);
		assert.match(toolMessages[0].content, /The answer is 42/);
		const assistant = second.messages.find((m: { role: string }) => m.role === 'assistant');
		assert.deepStrictEqual(
			assistant.tool_calls.map((c: { function: { arguments: string } }) => JSON.parse(c.function.arguments)),
			[{ path: 'README.md' }, { glob: '**/*.ts' }],
		);
		const answer = chat.history[chat.history.length - 1];
		assert.strictEqual(answer.kind, 'assistant');
		assert.match(answer.content, /From the tools: src\/app\.ts/);
	});

	it('streams arguments into the card before the call runs', async () => {
		double.script(
			textThenTools('Checking.', [{ name: 'read_file', arguments: { path: 'src/app.ts' } }], { split: 5 }),
			text('done'),
		);
		const chat = session();
		const streamed: string[] = [];
		chat.onDidEvent(event => {
			if (event.type === 'toolCallUpdated' && event.call.status === 'streaming') {
				streamed.push(event.call.argumentsText);
			}
		});
		await chat.send('read app');
		assert.ok(streamed.length >= 3, `argument fragments arrive one by one (${streamed.length})`);
		assert.ok(streamed[0].length < streamed[streamed.length - 1].length);
		assert.strictEqual(streamed[streamed.length - 1], '{"path":"src/app.ts"}');
	});

	it('tells the model a denied call did not run, and it answers accordingly', async () => {
		double.script(
			toolCalls([{ name: 'write_note', arguments: { text: 'hi' }, id: 'w' }]),
			text('Understood: {{lastToolResult}}'),
		);
		const chat = session();
		chat.onDidEvent(event => {
			if (event.type === 'toolCallUpdated' && event.call.status === 'awaitingApproval') {
				chat.decide(event.call.id, false, 'not in this repo');
			}
		});
		await chat.send('write a note');
		assert.strictEqual(workspace.writes.length, 0);
		const reply = chat.history[chat.history.length - 1];
		assert.match(reply.content, /Understood: The user denied this call; it did not run\. Reason: not in this repo/);
	});

	it('says how to start Ollama when nothing listens at the endpoint', async () => {
		const chat = session('http://127.0.0.1:9/v1');
		const outcome = await chat.send('hello');
		assert.strictEqual(outcome.reason, 'failed');
		assert.strictEqual(outcome.error?.code, 'modelUnreachable');
		assert.match(outcome.error!.message, /No model server answered at http:\/\/127\.0\.0\.1:9\/v1/);
	});

	it('names the model when the server does not have it', async () => {
		double.script(presets.ollamaV1ModelNotFound('glm-4.7-flash'));
		const outcome = await session().send('hello');
		assert.strictEqual(outcome.error?.code, 'modelNotFound');
		assert.match(outcome.error!.message, /Model "glm-4\.7-flash" was not found/);
	});

	it('stops a stalled stream and keeps the partial text', async () => {
		double.script(withFaults(text('one two three four five six', { chunks: 6 }), { stallAfter: 3 }));
		// The idle timeout is far beyond the test's own timeout, so only the stop can end this
		// stall; how quickly it does is a figure for `npm run bench -- cancel`.
		const chat = session(undefined, undefined, 3_600_000);
		let streamed = false;
		chat.onDidEvent(event => (streamed ||= event.type === 'textDelta'));
		const turn = chat.send('talk');
		while (!chat.history.some(m => m.kind === 'user') || !streamed) {
			await new Promise(resolve => setTimeout(resolve, 10));
		}
		chat.cancel();
		const outcome = await turn;
		assert.strictEqual(outcome.reason, 'cancelled');
		assert.strictEqual(double.modelRequests.length, 1, 'the stalled request was not replayed');
		const partial = chat.history.find(m => m.kind === 'assistant');
		assert.ok(partial && partial.content.startsWith('one'), 'the partial answer is kept');
	});
});
