import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as z from 'zod';
import { ChatSession } from '../../src/core/session/chatSession';
import type { ChatModel } from '../../src/core/llm/chatModel';
import { AnthropicChatModel } from '../../src/core/llm/wires/anthropic/anthropicChatModel';
import { OllamaChatModel } from '../../src/core/llm/wires/ollama/ollamaChatModel';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import { defineTool, ok } from '../../src/core/tools/defineTool';
import { ToolRegistry } from '../../src/core/tools/registry';
import { SessionStore } from '../../src/core/store/sessionStore';
import { SessionRecorder } from '../../src/core/store/sessionRecorder';
import { interruptedResults } from '../../src/core/store/interrupted';
import { nullLogger, type Workspace } from '../../src/core/ports';
import type { CanonicalMessage } from '../../src/core/llm/canonical';
import { InMemoryWorkspace } from '../fakes/inMemoryWorkspace';
import { startModelDouble, text, toolCall, type ModelDouble } from '../support/modelDouble';

/** A read tool that records each run, so a test can prove a call ran exactly as often as expected. */
function lookupTool(runs: string[]) {
	return defineTool({
		name: 'lookup',
		description: 'Looks up a word.',
		input: z.object({ word: z.string() }),
		effect: 'read',
		describe: input => `Look up ${input.word}`,
		async execute(input) {
			runs.push(input.word);
			return ok(`${input.word}: a ${input.word.length}-letter word`);
		},
	});
}

function session(model: () => ChatModel, runs: string[], history: CanonicalMessage[] = [], sessionId = 's1') {
	return new ChatSession({
		sessionId,
		history,
		createModel: async () => model(),
		modelLabel: () => 'double',
		registry: new ToolRegistry([lookupTool(runs)]),
		workspace: new InMemoryWorkspace({}) as unknown as Workspace,
		approvalSettings: () => ({ autoApprove: { read: true } }),
		maxSteps: () => 5,
		systemPrompt: () => 'You are Keel.',
	});
}

describe('providers on their real wire formats (model double)', () => {
	let double: ModelDouble;
	before(async () => {
		double = await startModelDouble({ models: ['qwen3:8b', 'claude-x'], contextLength: 40960 });
	});
	beforeEach(() => double.reset());
	after(() => double.close());

	const openai = () => new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'qwen3:8b' });
	const ollama = () =>
		new OllamaChatModel({ baseUrl: `${double.url}/v1`, model: 'qwen3:8b', contextWindow: 16384, keepAlive: '30m' });
	const anthropic = () => new AnthropicChatModel({ baseUrl: double.url, model: 'claude-x', apiKey: 'sk-test' });

	it('OpenAI: the result answers its call by tool_call_id', async () => {
		const runs: string[] = [];
		double.script(toolCall('lookup', { word: 'keel' }, { split: 4 }), text('Keel has four letters.'));
		const outcome = await session(openai, runs).send('look up keel');
		assert.strictEqual(outcome.reason, 'completed');
		assert.deepStrictEqual(runs, ['keel']);
		const second = double.modelRequests[1].body.messages;
		const call = second.find((m: any) => m.tool_calls)?.tool_calls[0];
		assert.strictEqual(second[second.length - 1].role, 'tool');
		assert.strictEqual(second[second.length - 1].tool_call_id, call.id);
		assert.strictEqual(call.function.arguments, '{"word":"keel"}');
	});

	it('Ollama: native /api/chat with num_ctx, num_predict within it, and keep_alive; arguments replayed as objects', async () => {
		const runs: string[] = [];
		double.script(toolCall('lookup', { word: 'mast' }), text('Mast has four letters.'));
		const chat = session(ollama, runs);
		const outcome = await chat.send('look up mast');
		assert.strictEqual(outcome.reason, 'completed');
		assert.deepStrictEqual(runs, ['mast']);
		const [first, second] = double.modelRequests;
		assert.strictEqual(first.path, '/api/chat');
		assert.strictEqual(first.body.options.num_ctx, 16384);
		assert.ok(
			first.body.options.num_predict > 0 && first.body.options.num_predict <= 16384,
			'the answer fits the window',
		);
		assert.strictEqual(first.body.keep_alive, '30m');
		const assistant = second.body.messages.find((m: any) => m.tool_calls);
		assert.deepStrictEqual(assistant.tool_calls[0].function.arguments, { word: 'mast' });
		// Answered by name (a local Ollama) and by the id of the call the server made (Ollama Cloud checks it).
		assert.deepStrictEqual(second.body.messages[second.body.messages.length - 1], {
			role: 'tool',
			content: 'mast: a 4-letter word',
			tool_name: 'lookup',
			tool_call_id: assistant.tool_calls[0].id,
		});
		assert.ok(assistant.tool_calls[0].id);
		assert.strictEqual(chat.history[chat.history.length - 1].content, 'Mast has four letters.');
	});

	it('Anthropic: system apart, tool_use / tool_result blocks, input_json_delta accumulated', async () => {
		const runs: string[] = [];
		double.script(toolCall('lookup', { word: 'hull' }, { split: 5 }), text('Hull has four letters.'));
		const chat = session(anthropic, runs);
		const outcome = await chat.send('look up hull');
		assert.strictEqual(outcome.reason, 'completed');
		assert.deepStrictEqual(runs, ['hull'], 'arguments streamed in five fragments were reassembled');
		const second = double.modelRequests[1].body;
		// The stable prefix carries cache breakpoints (system, last tool, newest message).
		assert.deepStrictEqual(second.system, [
			{ type: 'text', text: 'You are Keel.', cache_control: { type: 'ephemeral' } },
		]);
		assert.ok(second.messages.every((m: any) => m.role !== 'system'));
		const use = second.messages[1].content.find((b: any) => b.type === 'tool_use');
		assert.deepStrictEqual(use.input, { word: 'hull' });
		const result = second.messages[2].content[0];
		assert.strictEqual(result.type, 'tool_result');
		assert.strictEqual(result.tool_use_id, use.id);
		const auth = double.modelRequests[0].headers;
		assert.ok(
			auth['x-api-key'] === 'sk-test' || auth.authorization === 'Bearer sk-test',
			'the key set for this endpoint is sent',
		);
	});

	it('one session moves Ollama → Anthropic → OpenAI through the store, history intact', async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-providers-'));
		const runs: string[] = [];
		try {
			const store = SessionStore.open(path.join(dir, 'sessions.db'));
			const record = (chat: ChatSession, provider: string) => {
				const recorder = new SessionRecorder({
					store,
					sessionId: 'mixed',
					provider: () => ({ provider, model: 'm' }),
					logger: nullLogger,
				});
				chat.onDidEvent(event => recorder.handle(event));
			};
			double.script(toolCall('lookup', { word: 'bow' }), text('Bow: three letters.'));
			const first = session(ollama, runs, [], 'mixed');
			record(first, 'ollama');
			await first.send('look up bow');
			store.close();

			const reopened = SessionStore.open(path.join(dir, 'sessions.db'));
			const history = reopened.load('mixed');
			assert.deepStrictEqual(
				history,
				JSON.parse(JSON.stringify(first.history)),
				'the stored history is exactly the live one',
			);
			reopened.close();

			double.script(toolCall('lookup', { word: 'stern' }), text('Stern: five letters.'));
			const second = session(anthropic, runs, history, 'mixed');
			await second.send('and stern?');
			const anthropicBody = double.modelRequests[2].body;
			const ollamaCall = history.find(m => m.kind === 'tool_call');
			const blocks = anthropicBody.messages.flatMap((m: any) => m.content);
			assert.ok(
				blocks.some((b: any) => b.type === 'tool_use' && b.id === (ollamaCall as any).data.id),
				'the Ollama call is replayed as tool_use',
			);
			assert.ok(
				blocks.some((b: any) => b.type === 'tool_result' && b.tool_use_id === (ollamaCall as any).data.id),
			);

			double.script(text('Bow and stern: done.'));
			const third = session(openai, runs, second.history, 'mixed');
			const outcome = await third.send('summarise');
			assert.strictEqual(outcome.reason, 'completed');
			const openaiMessages = double.modelRequests[4].body.messages;
			assert.strictEqual(openaiMessages.filter((m: any) => m.role === 'tool').length, 2);
			assert.deepStrictEqual(runs, ['bow', 'stern'], 'no call ran again after a provider switch');
			assert.strictEqual(meta(path.join(dir, 'sessions.db')).provider, 'ollama');
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	it('an interrupted call is answered "interrupted" on resume, on every wire, and never re-run', async () => {
		const runs: string[] = [];
		const call: CanonicalMessage = {
			kind: 'tool_call',
			content: 'lookup({"word":"rudder"})',
			data: { id: 'call_cut', name: 'lookup', arguments: { word: 'rudder' }, rawArguments: '{"word":"rudder"}' },
		};
		const cut: CanonicalMessage[] = [{ kind: 'user', content: 'look up rudder' }, call];
		const history = [...cut, ...interruptedResults(cut)];
		for (const model of [anthropic, openai, ollama]) {
			double.reset();
			double.script(text('It was interrupted; I will not repeat it.'));
			const outcome = await session(model, runs, history).send('what happened?');
			assert.strictEqual(outcome.reason, 'completed', `${model().id}: ${outcome.error?.message}`);
			const body = JSON.stringify(double.modelRequests[0].body);
			assert.ok(body.includes('interrupted'), `${model().id} received the interrupted result`);
		}
		assert.deepStrictEqual(runs, []);
	});

	it('Stop mid-stream keeps the partial answer in the stored history, on every wire', async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-cancel-'));
		try {
			const store = SessionStore.open(path.join(dir, 'sessions.db'));
			for (const model of [openai, ollama, anthropic]) {
				double.reset();
				double.script(text('one two three four five six seven eight nine ten', { chunks: 10, delayMs: 40 }));
				const sessionId = model().id.split(':')[0];
				const chat = session(model, [], [], sessionId);
				const recorder = new SessionRecorder({
					store,
					sessionId,
					provider: () => ({ provider: sessionId, model: 'm' }),
					logger: nullLogger,
				});
				let streamed = '';
				chat.onDidEvent(event => {
					recorder.handle(event);
					if (event.type === 'textDelta') {
						streamed += event.text;
						if (streamed.split(' ').length >= 3) {
							chat.cancel();
						}
					}
				});
				const outcome = await chat.send('count');
				assert.strictEqual(outcome.reason, 'cancelled', sessionId);
				const saved = store.load(sessionId);
				assert.deepStrictEqual(
					saved.map(m => m.kind),
					['user', 'assistant'],
					sessionId,
				);
				assert.strictEqual(saved[1].content, streamed, `${sessionId}: exactly what the user saw`);
				assert.ok(streamed.length > 0 && !streamed.includes('ten'), `${sessionId}: stopped part-way`);
			}
			store.close();
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	it("maps each wire's auth error to modelAuth and a dead server to modelUnreachable", async () => {
		for (const model of [openai, ollama, anthropic]) {
			double.reset();
			double.script({ kind: 'wireError', status: 401, message: 'invalid api key', type: 'authentication_error' });
			const outcome = await session(model, []).send('hi');
			assert.strictEqual(outcome.error?.code, 'modelAuth', `${model().id}: ${outcome.error?.message}`);
		}
		// Straight at the adapter: the loop above it retries unreachable servers with backoff.
		const dead = new OllamaChatModel({ baseUrl: 'http://127.0.0.1:9', model: 'qwen3:8b' });
		await assert.rejects(
			async () => {
				for await (const _ of dead.stream({ messages: [{ kind: 'user', content: 'hi' }], tools: [] })) {
					// nothing arrives
				}
			},
			(error: { code?: string; message: string }) =>
				// Ollama's own wire is spoken only by Ollama: its advice, whatever the port, with the URL tried.
				error.code === 'modelUnreachable' &&
				/start Ollama with `ollama serve`/.test(error.message) &&
				/127\.0\.0\.1:9/.test(error.message),
		);
	});
});

function meta(file: string) {
	const store = SessionStore.open(file);
	try {
		return store.get('mixed')!;
	} finally {
		store.close();
	}
}
