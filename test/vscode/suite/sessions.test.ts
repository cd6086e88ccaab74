// Sessions and providers inside the real extension host: the bundled SQLite store keeps a
// session that can be resumed after New Chat, and one session moves between the OpenAI,
// Ollama-native and Anthropic wires by changing keel.model.provider.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { text, toolCalls } from '../../support/modelDouble';
import { useKeelSuite } from '../keelSuite';

describe('Keel sessions and providers in the extension host', function () {
	this.timeout(30_000);
	const keel = useKeelSuite({ double: { models: ['qwen3:8b'] } });
	const api = () => keel.api;
	const double = () => keel.double;

	it('registers the history and model commands', async () => {
		const commands = await vscode.commands.getCommands(true);
		for (const command of ['keel.showHistory', 'keel.selectModel', 'keel.probeModel']) {
			assert.ok(commands.includes(command), command);
		}
	});

	it('keeps a finished session in the store and resumes it after New Chat', async () => {
		double().script(text('Stored answer.'));
		const outcome = await api().runTurn('Remember this');
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		const id = api().sessionId();
		const before = api().transcript();
		api().newChat();
		assert.deepStrictEqual(api().transcript(), []);
		assert.strictEqual(api().resumeSession(id), true, 'the session is in the database');
		assert.deepStrictEqual(api().transcript(), before);
	});

	it('continues one session on Ollama native, then Anthropic, with the history translated', async () => {
		double().script(toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]), text('Read it.'));
		await keel.set('model.provider', 'ollama');
		await keel.set('model.baseUrl', double().url);
		const first = await api().runTurn('Read the README');
		assert.strictEqual(first.reason, 'completed', first.error?.message);
		assert.strictEqual(double().modelRequests[0].path, '/api/chat');
		assert.ok(double().modelRequests[0].body.options?.num_ctx > 0, 'num_ctx is sent');

		double().script(text('Still here on Anthropic.'));
		await keel.set('model.provider', 'anthropic');
		const second = await api().runTurn('And now?');
		assert.strictEqual(second.reason, 'completed', second.error?.message);
		const request = double().modelRequests[2];
		assert.strictEqual(request.path, '/v1/messages');
		const blocks = request.body.messages.flatMap((m: { content: Array<{ type: string }> | string }) =>
			Array.isArray(m.content) ? m.content : [],
		);
		assert.ok(
			blocks.some((b: { type: string }) => b.type === 'tool_use'),
			'the Ollama tool call is replayed as tool_use',
		);
		assert.ok(blocks.some((b: { type: string }) => b.type === 'tool_result'));
		assert.strictEqual(api().transcript().at(-1)!.content, 'Still here on Anthropic.');
	});
});
