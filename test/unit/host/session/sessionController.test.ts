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
import type { SessionView } from '../../../../src/shared/views';
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

/** The same, which also reads the newest part of the last conversation alone, as the store does. */
class TailingPersistence extends RecordingPersistence {
	readonly tails: number[] = [];
	constructor(
		private readonly _conversations: Record<string, CanonicalMessage[]>,
		private readonly _lastId: string,
	) {
		super(_conversations, _lastId);
	}
	lastSessionTail(limit: number) {
		this.tails.push(limit);
		const history = this._conversations[this._lastId];
		const cut = Math.max(0, history.length - limit);
		const before: Partial<Record<CanonicalMessage['kind'], number>> = {};
		history.slice(0, cut).forEach(m => (before[m.kind] = (before[m.kind] ?? 0) + 1));
		return { sessionId: this._lastId, messages: history.slice(cut), before };
	}
}

/** A long stored conversation: a prompt, then rounds of an answer, a file read and its output. */
function longConversation(rounds: number): CanonicalMessage[] {
	const messages: CanonicalMessage[] = [{ kind: 'user', content: 'Go through every round.' }];
	for (let round = 1; round <= rounds; round++) {
		const id = `call_${round}`;
		const raw = JSON.stringify({ path: 'README.md' });
		messages.push(
			{ kind: 'assistant', content: `Round ${round}` },
			{
				kind: 'tool_call',
				content: `read_file(${raw})`,
				data: { id, name: 'read_file', arguments: {}, rawArguments: raw },
			},
			{
				kind: 'tool_result',
				content: 'text',
				data: { toolCallId: id, name: 'read_file', output: 'text', ok: true },
			},
		);
	}
	return messages;
}

const snapshots = (posted: unknown[]) =>
	posted.flatMap(m => ((m as { type: string }).type === 'didSnapshot' ? [(m as { state: SessionView }).state] : []));

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

	it('opens a long conversation with its newest page read from its newest part; the whole is read once it starts, and the page stays', () => {
		const persistence = new TailingPersistence({ long: longConversation(1_700) }, 'long');
		const { instance, posted, ready } = controller(persistence);
		ready();
		assert.deepStrictEqual(persistence.loads, [], 'the first page needs no whole read');
		assert.strictEqual(instance.started, false);
		const [first] = snapshots(posted);
		assert.strictEqual(first.items.at(-1)?.kind, 'tool', 'the newest item is on the first page');
		assert.strictEqual(first.olderCount + first.items.length, 1 + 1_700 * 2, 'every older item is counted');

		instance.prepare();
		assert.deepStrictEqual(persistence.loads, ['long']);
		assert.deepStrictEqual(
			snapshots(posted),
			[first],
			'the started conversation has the same page: not sent again',
		);
		assert.deepStrictEqual(instance.page(), first);
		// Scrolling up pages in from the whole conversation, right before the first page's items.
		instance.loadOlder(first.items[0].id);
		const older = posted.at(-1) as { type: string; items: Array<{ id: string }> };
		const ids = instance.snapshot().items.map(item => item.id);
		assert.strictEqual(older.type, 'didPrependItems');
		assert.deepStrictEqual(
			[...older.items, ...first.items].map(item => item.id),
			ids.slice(ids.length - older.items.length - first.items.length),
		);
		instance.dispose();
	});

	it('a conversation written to between its first page and its start is sent again as it started', () => {
		const conversations = { long: longConversation(300) };
		const persistence = new TailingPersistence(conversations, 'long');
		const { instance, posted, ready } = controller(persistence);
		ready();
		conversations.long.push({ kind: 'assistant', content: 'written by another window meanwhile' });
		instance.prepare();
		const [first, again] = snapshots(posted);
		assert.ok(first && again, 'a second snapshot follows the start');
		assert.strictEqual(again.items.at(-1)?.kind, 'assistant');
		assert.strictEqual(again.olderCount, first.olderCount + 1);
		instance.dispose();
	});

	it('New Chat after the first page, before the stored conversation started: the new chat shows, the stored one is never read whole', () => {
		const persistence = new TailingPersistence({ long: longConversation(300) }, 'long');
		const { instance, posted, ready } = controller(persistence);
		ready();
		instance.newChat();
		instance.prepare();
		const [, fresh, ...more] = snapshots(posted);
		assert.deepStrictEqual([fresh.items, more], [[], []], 'one snapshot of the new, empty chat follows');
		assert.notStrictEqual(instance.sessionId, 'long');
		assert.deepStrictEqual(persistence.loads, []);
		instance.dispose();
	});

	it('reads longer tails while the newest one holds too little of the first page, then the whole', () => {
		// Results draw no item of their own: a tail of outputs alone shows nothing.
		const history: CanonicalMessage[] = [{ kind: 'user', content: 'start' }];
		for (let i = 0; i < 2_000; i++) {
			history.push({
				kind: 'tool_result',
				content: 'late output',
				data: { toolCallId: `gone_${i}`, name: 'read_file', output: 'late output', ok: true },
			});
		}
		const persistence = new TailingPersistence({ quiet: history }, 'quiet');
		const { instance, ready } = controller(persistence);
		ready();
		assert.deepStrictEqual(persistence.tails, [128, 512, 2_048], 'each tail four times longer');
		assert.deepStrictEqual(persistence.loads, [], 'the third tail held the whole conversation');
		assert.deepStrictEqual(
			instance.page().items.map(item => item.kind),
			['user'],
		);
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
