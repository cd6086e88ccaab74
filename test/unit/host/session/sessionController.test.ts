import * as assert from 'assert';
import type { CanonicalMessage } from '../../../../src/core/llm/canonical';
import type { ChatSession } from '../../../../src/core/session/chatSession';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { Workspace } from '../../../../src/core/ports';
import { nullLogger } from '../../../../src/core/ports';
import { SessionController, type SessionPersistencePort } from '../../../../src/host/session/sessionController';
import { WebviewChannel } from '../../../../src/host/view/webviewChannel';
import { FIRST_PAGE_SIZE, PAGE_SIZE } from '../../../../src/host/view/chatView';
import { PROTOCOL_VERSION } from '../../../../src/shared/protocol';
import { InMemoryWorkspace } from '../../../fakes/inMemoryWorkspace';
import { ScriptedChatModel, textStep } from '../../../fakes/scriptedChatModel';

/** A persistence fake that records what the controller asked of it. */
class RecordingPersistence implements SessionPersistencePort {
	readonly attached: string[] = [];
	readonly detached: string[] = [];
	readonly loads: string[] = [];
	constructor(
		private readonly _stored: Record<string, CanonicalMessage[]>,
		private readonly _last?: string,
	) {}
	lastSession() {
		return this._last ? this.load(this._last) : undefined;
	}
	load(sessionId: string) {
		this.loads.push(sessionId);
		const history = this._stored[sessionId];
		return history ? { sessionId, history: [...history] } : undefined;
	}
	attach(_session: ChatSession, sessionId: string) {
		this.attached.push(sessionId);
		return { dispose: () => this.detached.push(sessionId) };
	}
}

function controller(persistence: SessionPersistencePort, model = new ScriptedChatModel([textStep('ok')])) {
	const posted: unknown[] = [];
	const channel = new WebviewChannel();
	const instance = new SessionController(
		() => ({
			createModel: async () => model,
			modelLabel: () => 'scripted',
			registry: new ToolRegistry([]),
			workspace: new InMemoryWorkspace({}) as unknown as Workspace,
			approvalSettings: () => ({ autoApprove: {} }),
			maxSteps: () => 5,
			systemPrompt: () => 'sys',
		}),
		channel,
		nullLogger,
		persistence,
	);
	// The webview's `ready`: the only thing that opens the channel.
	const ready = () =>
		channel.open(
			message => posted.push(message),
			PROTOCOL_VERSION,
			() => ({ type: 'didSnapshot', state: instance.page() }),
		);
	return { instance, posted, model, ready };
}

const stored: Record<string, CanonicalMessage[]> = {
	old: [
		{ kind: 'user', content: 'earlier question' },
		{ kind: 'assistant', content: 'earlier answer' },
	],
	other: [{ kind: 'user', content: 'another one' }],
};

describe('SessionController with a session store', () => {
	it('reads nothing from the store until the conversation is needed, then restores the last one once', () => {
		const persistence = new RecordingPersistence(stored, 'old');
		const { instance, posted, ready } = controller(persistence);
		assert.deepStrictEqual(
			[persistence.loads, persistence.attached],
			[[], []],
			'building the controller opens nothing',
		);
		instance.stop();
		assert.strictEqual(instance.decide('t1', true), false, 'a decision with no conversation is refused');
		assert.deepStrictEqual(persistence.loads, [], 'stopping or deciding with no conversation loads none');
		ready();
		const snapshot = posted.find(
			(m): m is { type: 'didSnapshot'; state: { sessionId: string } } =>
				(m as { type: string }).type === 'didSnapshot',
		);
		assert.strictEqual(snapshot?.state.sessionId, 'old', "the webview's first snapshot is the last conversation");
		assert.strictEqual(instance.sessionId, 'old');
		assert.deepStrictEqual([persistence.loads, persistence.attached], [['old'], ['old']]);
		instance.dispose();
	});

	it('New Chat before anything was shown starts a fresh session without loading the last one', () => {
		const persistence = new RecordingPersistence(stored, 'old');
		const { instance } = controller(persistence);
		instance.newChat();
		assert.notStrictEqual(instance.sessionId, 'old');
		assert.deepStrictEqual(persistence.loads, []);
		instance.dispose();
	});

	it('restores the last session on startup, view and history, and records it', () => {
		const persistence = new RecordingPersistence(stored, 'old');
		const { instance } = controller(persistence);
		assert.strictEqual(instance.sessionId, 'old');
		assert.deepStrictEqual(instance.transcript(), stored.old);
		assert.deepStrictEqual(
			instance.snapshot().items.map(item => item.kind),
			['user', 'assistant'],
		);
		assert.deepStrictEqual(persistence.attached, ['old']);
		instance.dispose();
		assert.deepStrictEqual(
			persistence.detached,
			['old'],
			'the recorder is released (and flushes) when the host goes',
		);
	});

	it('a resumed session continues where it stopped: the model sees the stored history', async () => {
		const persistence = new RecordingPersistence(stored, 'old');
		const { instance, model } = controller(persistence);
		assert.strictEqual(instance.sessionId, 'old');
		assert.strictEqual(instance.resume('other'), true);
		assert.deepStrictEqual(persistence.detached, ['old']);
		await instance.send('follow-up');
		assert.deepStrictEqual(
			model.requests[0].messages.filter(m => m.kind === 'user').map(m => m.content),
			['another one', 'follow-up'],
		);
		assert.strictEqual(instance.resume('missing'), false);
		assert.strictEqual(instance.sessionId, 'other');
		instance.dispose();
	});

	it('New Chat starts an empty session with a fresh id and records it separately', () => {
		const persistence = new RecordingPersistence(stored, 'old');
		const { instance } = controller(persistence);
		assert.strictEqual(instance.sessionId, 'old');
		instance.newChat();
		assert.notStrictEqual(instance.sessionId, 'old');
		assert.deepStrictEqual(instance.transcript(), []);
		assert.deepStrictEqual(persistence.attached, ['old', instance.sessionId]);
		instance.dispose();
	});

	it('opens a long session on its newest page and sends older pages when asked', () => {
		const long: CanonicalMessage[] = Array.from({ length: 150 }, (_, i) => ({
			kind: 'user',
			content: `question ${i}`,
		}));
		const { instance, posted, ready } = controller(new RecordingPersistence({ long }, 'long'));
		const page = instance.page();
		assert.deepStrictEqual([page.items.length, page.olderCount], [FIRST_PAGE_SIZE, 150 - FIRST_PAGE_SIZE]);
		ready();
		instance.resume('long');
		instance.loadOlder(instance.page().items[0].id);
		const older = posted.find(
			(m): m is { type: 'didPrependItems'; items: Array<{ text: string }>; olderCount: number } =>
				(m as { type: string }).type === 'didPrependItems',
		);
		assert.ok(older, 'the older page was sent');
		const left = 150 - FIRST_PAGE_SIZE;
		assert.deepStrictEqual(
			[older.items.length, older.items.at(-1)?.text, older.olderCount],
			[Math.min(PAGE_SIZE, left), `question ${left - 1}`, Math.max(0, left - PAGE_SIZE)],
		);
		instance.dispose();
	});
});
