import { NothingToDo } from '../../../../src/core/errors';
import * as assert from 'assert';
import type { AgentEvent } from '../../../../src/core/agent/events';
import type { RestoreOutcome } from '../../../../src/core/checkpoints/checkpoints';
import { Emitter } from '../../../../src/core/util/emitter';
import type { TurnInfo } from '../../../../src/host/common/keelApi';
import { TurnControls, pairTurns, typedPrompt } from '../../../../src/host/chat/turnControls';
import { WebviewChannel } from '../../../../src/host/view/webviewChannel';
import { PROTOCOL_VERSION, type HostToWebview } from '../../../../src/shared/protocol';
import type { ChatItem } from '../../../../src/shared/views';

const user = (id: string): ChatItem => ({ kind: 'user', id, text: id });
const answer = (id: string): ChatItem => ({ kind: 'assistant', id, text: id, streaming: false });
const turn = (turnId: string, files = 0): TurnInfo => ({
	turnId,
	prompt: `prompt of ${turnId}`,
	changes: files
		? Array.from({ length: files }, (_, i) => ({ path: `f${i}`, change: 'modified' }) as never)
		: undefined,
});
const settle = () => new Promise(resolve => setTimeout(resolve, 0));
const logger = { warn() {}, error() {}, info() {}, debug() {} } as never;

interface Fakes {
	turns?: () => Promise<TurnInfo[]>;
	restore?: (turnId: string) => Promise<RestoreOutcome>;
	undoRestore?: () => Promise<RestoreOutcome>;
	diff?: (turnId: string) => Promise<never>;
	rewindTo?: (turnId: string) => Promise<{ prompt: string; removedMessages: number }>;
}

function setup(fakes: Fakes, items: ChatItem[] = []) {
	const posted: HostToWebview[] = [];
	const notices: Array<{ level: string; code: string; text: string }> = [];
	const events = new Emitter<AgentEvent>();
	const checkpointsChanged = new Emitter<void>();
	const channel = new WebviewChannel();
	const controls = new TurnControls(
		{
			turns: fakes.turns ?? (async () => []),
			diff: fakes.diff ?? (async () => ({ title: '', files: [] }) as never),
			restore: fakes.restore ?? (async () => ({ message: 'restored' }) as RestoreOutcome),
			undoRestore: fakes.undoRestore ?? (async () => ({ message: 'undone' }) as RestoreOutcome),
		},
		{ rewindTo: fakes.rewindTo ?? (async () => ({ prompt: '', removedMessages: 0 })) },
		{
			onDidEvent: events.event,
			snapshot: () => ({ sessionId: 's', busy: false, items, olderCount: 0, modelLabel: 'm' }),
			showNotice: n => notices.push(n),
		},
		channel,
		logger,
		checkpointsChanged.event,
	);
	channel.open(
		m => posted.push(m as HostToWebview),
		PROTOCOL_VERSION,
		() => ({ type: 'didSnapshot', state: { sessionId: 's', busy: false, items, olderCount: 0, modelLabel: 'm' } }),
	);
	const lastTurns = () => {
		const last = posted.filter(m => m.type === 'didSetTurns').at(-1);
		return last?.type === 'didSetTurns' ? last.turns : undefined;
	};
	return { posted, notices, controls, events, checkpointsChanged, lastTurns };
}

describe("TurnControls (each turn's diff, restore and rewind in the chat)", () => {
	it('pairs the loaded user messages with the stored turns from the newest back, counting changed files', () => {
		const items = [user('h0'), answer('h1'), user('h2'), answer('h3')];
		assert.deepStrictEqual(pairTurns(items, [turn('t0'), turn('t1', 2)]), [
			{ itemId: 'h0', turnId: 't0', filesChanged: undefined },
			{ itemId: 'h2', turnId: 't1', filesChanged: 2 },
		]);
		// An older page not loaded: only the newest turns have an item to sit under.
		assert.deepStrictEqual(
			pairTurns([user('h9')], [turn('t0'), turn('t1')]).map(p => p.turnId),
			['t1'],
		);
	});

	it('follows every snapshot with the per-turn controls, and again when the checkpoints change', async () => {
		let stored = [turn('t0', 1)];
		const { lastTurns, checkpointsChanged } = setup({ turns: async () => stored }, [user('u0')]);
		await settle();
		assert.deepStrictEqual(lastTurns(), [{ itemId: 'u0', turnId: 't0', filesChanged: 1 }]);
		stored = [turn('t0', 3)];
		checkpointsChanged.fire();
		await settle();
		assert.deepStrictEqual(lastTurns(), [{ itemId: 'u0', turnId: 't0', filesChanged: 3 }]);
	});

	it("rewinds and puts the turn's prompt back in the composer; a refused restore shows why", async () => {
		const { controls, posted, notices } = setup({
			rewindTo: async turnId => ({ prompt: `prompt of ${turnId}`, removedMessages: 3 }),
			restore: async () => {
				throw new Error('A turn is running. Stop it before restoring files.');
			},
		});
		controls.rewindTo('t3');
		controls.restore('t3');
		await settle();
		const fill = posted.find(m => m.type === 'didFillComposer');
		assert.strictEqual(fill && fill.type === 'didFillComposer' && fill.text, 'prompt of t3');
		assert.deepStrictEqual(
			notices.map(n => `${n.level} ${n.code}: ${n.text}`),
			[
				'info rewound: Rewound the conversation: 3 messages, from your prompt on, left the chat and what the model sees; files are unchanged. The prompt is back in the box to edit and resend.',
				'error restore: A turn is running. Stop it before restoring files.',
			],
		);
	});

	it('"nothing to restore" is information, not an error', async () => {
		const { controls, notices } = setup({
			undoRestore: async () => {
				throw new NothingToDo('There is no restore to undo in this session.');
			},
		});
		controls.undoRestore();
		await settle();
		assert.deepStrictEqual(
			notices.map(n => n.level),
			['info'],
		);
	});

	it('says what a restore did, warns when it was cancelled, and offers "Undo restore" on the restored turn', async () => {
		const { controls, notices, lastTurns } = setup(
			{
				restore: async () => ({ message: 'Restored 2 files.' }) as RestoreOutcome,
				undoRestore: async () => ({ cancelled: true, message: 'Nothing restored.' }) as RestoreOutcome,
				turns: async () => [turn('t1', 2), { ...turn('t2', 1), restored: true }],
			},
			[user('t1-user'), user('t2-user')],
		);
		controls.restore('t1');
		controls.undoRestore();
		await settle();
		assert.deepStrictEqual(
			notices.map(n => [n.level, n.code, n.text]),
			[
				['info', 'restore', 'Restored 2 files.'],
				['warning', 'restore', 'Nothing restored.'],
			],
		);
		assert.deepStrictEqual(
			lastTurns()?.map(t => t.undoRestore),
			[undefined, true],
		);
	});

	it("refills the composer with what was typed, not the mentions' content appended at send", () => {
		const sent =
			'Explain @src/app.ts please\n\nAttached file src/app.ts (47 tokens):\n```\nexport function greet() {}\n```';
		assert.strictEqual(typedPrompt(sent), 'Explain @src/app.ts please');
		assert.strictEqual(typedPrompt('Plain words\n\nAttached is my idea'), 'Plain words\n\nAttached is my idea');
	});

	it('offers rewind on a turn as soon as it finishes, before the checkpoint store answers', async () => {
		const { events, lastTurns } = setup({ turns: () => new Promise(() => undefined) }, [
			user('t7-user'),
			answer('t7-a1'),
		]);
		events.fire({ type: 'turnFinished', turnId: 't7' } as AgentEvent);
		assert.deepStrictEqual(lastTurns(), [{ itemId: 't7-user', turnId: 't7', filesChanged: undefined }]);
	});

	it("keeps every finished turn's controls, under its own message, while the store lags behind", async () => {
		// The store knows only the first turn so far: the second still gets its controls, and neither is shifted onto the other's message.
		const { events, lastTurns } = setup({ turns: async () => [turn('t1', 1)] }, [
			user('t1-user'),
			answer('a1'),
			user('t2-user'),
			answer('a2'),
		]);
		events.fire({ type: 'turnFinished', turnId: 't2' } as AgentEvent);
		await settle();
		assert.deepStrictEqual(lastTurns(), [
			{ itemId: 't1-user', turnId: 't1', filesChanged: 1 },
			{ itemId: 't2-user', turnId: 't2', filesChanged: undefined },
		]);
	});

	it("pairs a resumed conversation's messages with the stored turns left after those run in this window", () => {
		const items = [user('h0'), answer('h1'), user('t9-user')];
		assert.deepStrictEqual(pairTurns(items, [turn('t0', 3), turn('t9')]), [
			{ itemId: 'h0', turnId: 't0', filesChanged: 3 },
			{ itemId: 't9-user', turnId: 't9', filesChanged: undefined },
		]);
	});
});
