import * as assert from 'assert';
import { defaultApprovalSettings } from '../../../../src/core/agent/approval/approvalPolicy';
import { ChatSession } from '../../../../src/core/session/chatSession';
import { fileTools } from '../../../fakes/readTools';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { ChatView } from '../../../../src/host/view/chatView';
import { chatViewFromHistory } from '../../../../src/host/view/fromHistory';
import type { HostUpdate } from '../../../../src/shared/protocol';
import { InMemoryWorkspace } from '../../../fakes/inMemoryWorkspace';
import { ScriptedChatModel, callStep, textStep } from '../../../fakes/scriptedChatModel';

function session(model: ScriptedChatModel) {
	const updates: HostUpdate[] = [];
	const chat = new ChatSession({
		sessionId: 's1',
		createModel: async () => model,
		modelLabel: () => 'scripted',
		registry: new ToolRegistry(fileTools),
		workspace: new InMemoryWorkspace({ 'README.md': 'hello' }),
		approvalSettings: () => defaultApprovalSettings,
		maxSteps: () => 25,
		systemPrompt: () => 'sys',
	});
	// The host projects the session's events into its view; the session knows nothing of it.
	const view = new ChatView('s1', 'scripted');
	chat.onDidEvent(event => updates.push(...view.apply(event)));
	return { chat, updates, view };
}

describe('ChatSession', () => {
	it('keeps history across turns and projects the turn into the view', async () => {
		const model = new ScriptedChatModel([
			callStep({ name: 'read_file', args: { path: 'README.md' }, id: 'r1' }),
			textStep('It says hello.'),
			textStep('Second answer'),
		]);
		const { chat, updates, view } = session(model);
		await chat.send('read it');
		await chat.send('again');
		assert.deepStrictEqual(
			chat.history.map(m => m.kind),
			['user', 'tool_call', 'tool_result', 'assistant', 'user', 'assistant'],
		);
		assert.ok(
			model.requests[2].messages.some(m => m.kind === 'tool_result'),
			'the second turn sees the first turn',
		);
		const kinds = view.items.map(item => item.kind);
		assert.deepStrictEqual(kinds, ['user', 'tool', 'assistant', 'user', 'assistant']);
		const tool = view.items[1];
		assert.ok(tool.kind === 'tool' && tool.call.status === 'succeeded' && tool.call.title === 'Read README.md');
		assert.strictEqual(view.view.busy, false);
		assert.ok(updates.some(u => u.type === 'didSetStatus' && u.busy));
	});

	it('draws a resumed session with the cards as they were, an unanswered call as interrupted', () => {
		const chat = new ChatSession({
			sessionId: 's2',
			createModel: async () => new ScriptedChatModel([]),
			modelLabel: () => 'scripted',
			registry: new ToolRegistry(fileTools),
			workspace: new InMemoryWorkspace(),
			approvalSettings: () => defaultApprovalSettings,
			maxSteps: () => 25,
			systemPrompt: () => 'sys',
			history: [
				{ kind: 'user', content: 'look' },
				{
					kind: 'tool_call',
					content: '',
					data: {
						id: 'a',
						name: 'read_file',
						rawArguments: '{"path":"README.md"}',
						arguments: { path: 'README.md' },
					},
				},
				{
					kind: 'tool_result',
					content: 'hello',
					data: { toolCallId: 'a', name: 'read_file', output: 'hello', ok: true },
				},
				{
					kind: 'tool_call',
					content: '',
					data: {
						id: 'b',
						name: 'list_directory',
						rawArguments: '{"path":"src"}',
						arguments: { path: 'src' },
					},
				},
			],
		});
		const registry = new ToolRegistry(fileTools);
		const restored = chatViewFromHistory('s2', chat.history, {
			modelLabel: 'scripted',
			titleFor: (name, raw) => registry.titleFor(name, raw),
		});
		const cards = restored.items.flatMap(item => (item.kind === 'tool' ? [item.call] : []));
		assert.deepStrictEqual(
			cards.map(card => [card.title, card.status, card.output]),
			[
				['Read README.md', 'succeeded', 'hello'],
				['List src', 'interrupted', undefined],
			],
		);
	});

	it('refuses a second prompt while a turn runs', async () => {
		const model = new ScriptedChatModel([
			callStep({ name: 'list_directory', args: { path: '.' } }),
			textStep('ok'),
		]);
		const { chat } = session(model);
		const first = chat.send('one');
		await assert.rejects(chat.send('two'), /already running/);
		await first;
	});

	it('shows a failed turn with the error in the view', async () => {
		const { chat, view } = session(new ScriptedChatModel([new Error('kaput')]));
		const outcome = await chat.send('hi');
		assert.strictEqual(outcome.reason, 'failed');
		assert.deepStrictEqual(view.view.error, {
			code: 'internal',
			message: 'kaput',
			actions: [{ action: 'retryTurn', label: 'Retry' }],
		});
	});
});
