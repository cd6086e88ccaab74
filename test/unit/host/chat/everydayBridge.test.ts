import * as assert from 'assert';
import type { AgentEvent } from '../../../../src/core/agent/events';
import { Emitter } from '../../../../src/core/util/emitter';
import type { EverydayApi, TurnInfo } from '../../../../src/host/everydayApi';
import type { SessionController } from '../../../../src/host/session/sessionController';
import { ImagesRefused } from '../../../../src/core/llm/imageParts';
import { EverydayBridge, pairTurns, typedPrompt } from '../../../../src/host/chat/everydayBridge';
import { WebviewChannel } from '../../../../src/host/chat/webviewChannel';
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

function setup(api: Partial<EverydayApi>, items: ChatItem[] = []) {
	const posted: HostToWebview[] = [];
	const notices: Array<{ level: string; code: string; text: string }> = [];
	const events = new Emitter<AgentEvent>();
	const channel = new WebviewChannel();
	const controller = {
		onDidEvent: events.event,
		snapshot: () => ({ items }),
		showNotice: (n: never) => notices.push(n),
	} as unknown as SessionController;
	const full: EverydayApi = {
		mode: () => ({ id: 'act', name: 'Act' }),
		modes: () => [
			{ id: 'act', name: 'Act', description: 'every tool' },
			{ id: 'plan', name: 'Plan', description: 'read-only' },
		],
		turns: async () => [],
		onDidChangeState: () => ({ dispose() {} }),
		...api,
	} as EverydayApi;
	const bridge = new EverydayBridge(full, controller, channel, {
		warn() {},
		error() {},
		info() {},
		debug() {},
	} as never);
	channel.open(
		m => posted.push(m as HostToWebview),
		PROTOCOL_VERSION,
		() => ({ type: 'didSnapshot', state: { sessionId: 's', busy: false, items, olderCount: 0, modelLabel: 'm' } }),
	);
	return { posted, notices, bridge, events };
}

describe("EverydayBridge (the chat's everyday controls)", () => {
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

	it('follows every snapshot with the mode and the per-turn controls', async () => {
		const { posted } = setup({ turns: async () => [turn('t0', 1)] }, [user('u0')]);
		await settle();
		const mode = posted.find(m => m.type === 'didSetMode');
		assert.deepStrictEqual(mode && mode.type === 'didSetMode' && mode.modes.map(m => m.id), ['act', 'plan']);
		const turns = posted.filter(m => m.type === 'didSetTurns').at(-1);
		assert.deepStrictEqual(turns && turns.type === 'didSetTurns' && turns.turns, [
			{ itemId: 'u0', turnId: 't0', filesChanged: 1 },
		]);
	});

	it("sends through the command path: a command's answer becomes a notice, an unknown command an error notice", async () => {
		const sent: string[] = [];
		const { bridge, notices } = setup({
			submit: async text => {
				sent.push(text);
				if (text === '/nope') {
					throw new Error('There is no command /nope.');
				}
				return { kind: 'command', command: 'compact', message: 'Compacted 4 messages.' };
			},
		});
		bridge.handle({ type: 'submit', text: '/compact' });
		bridge.handle({ type: 'submit', text: '/nope' });
		await settle();
		assert.deepStrictEqual(sent, ['/compact', '/nope']);
		assert.deepStrictEqual(
			notices.map(n => [n.level, n.text]),
			[
				['info', 'Compacted 4 messages.'],
				['error', 'There is no command /nope.'],
			],
		);
	});

	it("rewinds and puts the turn's prompt back in the composer; a refused restore shows why", async () => {
		const { bridge, posted, notices } = setup({
			rewindTo: async turnId => ({ prompt: `prompt of ${turnId}` }),
			restoreCheckpoint: async () => {
				throw new Error('A turn is running. Stop it before restoring files.');
			},
		});
		bridge.handle({ type: 'rewindTo', turnId: 't3' });
		bridge.handle({ type: 'restoreCheckpoint', turnId: 't3' });
		await settle();
		const fill = posted.find(m => m.type === 'didFillComposer');
		assert.strictEqual(fill && fill.type === 'didFillComposer' && fill.text, 'prompt of t3');
		assert.deepStrictEqual(
			notices.map(n => n.level + ': ' + n.text),
			['error: A turn is running. Stop it before restoring files.'],
		);
	});

	it('a send refused for its images says why and puts the text and the images back; a stored restore offers "Undo restore"', async () => {
		const image = { name: 'shot.png', data: 'iVBORw0KGgo=' };
		const { bridge, posted, notices } = setup(
			{
				submit: async () => {
					throw new ImagesRefused('m is not known to accept images, so the image was not sent.');
				},
				turns: async () => [turn('t1', 2), { ...turn('t2', 1), restored: true }],
			},
			[user('t1-user'), user('t2-user')],
		);
		bridge.handle({ type: 'submit', text: 'What is this?', images: [image] });
		await settle();
		assert.deepStrictEqual(
			notices.map(n => [n.level, n.code]),
			[['error', 'images']],
		);
		const fill = posted.filter(m => m.type === 'didFillComposer').at(-1);
		assert.deepStrictEqual(fill && fill.type === 'didFillComposer' && [fill.text, fill.images], [
			'What is this?',
			[image],
		]);
		const turns = posted.filter(m => m.type === 'didSetTurns').at(-1);
		assert.deepStrictEqual(turns && turns.type === 'didSetTurns' && turns.turns.map(t => t.undoRestore), [
			undefined,
			true,
		]);
	});

	it('a drop from the Explorer adds the mentions to the composer and names what was refused', async () => {
		const { bridge, posted, notices } = setup({
			mentionsForUris: async () => ({
				values: ['src/app.ts', 'docs/'],
				refused: ['/etc/hostname (outside the workspace)'],
			}),
		});
		bridge.handle({ type: 'dropUris', uris: ['file:///w/src/app.ts', 'file:///w/docs', 'file:///etc/hostname'] });
		await settle();
		const added = posted.find(m => m.type === 'didAddMentions');
		assert.deepStrictEqual(added && added.type === 'didAddMentions' && added.values, ['src/app.ts', 'docs/']);
		assert.deepStrictEqual(
			notices.map(n => n.text),
			['Not attached: /etc/hostname (outside the workspace).'],
		);
	});

	it('answers completion requests with their id, and measures a mention as sending would', async () => {
		const { bridge, posted } = setup({
			slashCompletions: async prefix => [{ name: `${prefix}lan`, description: 'Plan mode', source: 'builtin' }],
			resolveMentions: async () => ({
				prompt: '',
				attachments: [
					{
						kind: 'file',
						label: '.env',
						tokens: 0,
						content: '',
						error: 'denied by keel.permissions.denyRead',
					},
				],
			}),
		});
		bridge.handle({ type: 'complete', requestId: 7, kind: 'slash', query: 'p' });
		bridge.handle({ type: 'measureMention', value: '.env' });
		await settle();
		const done = posted.find(m => m.type === 'didComplete');
		assert.deepStrictEqual(done && done.type === 'didComplete' && [done.requestId, done.items.map(i => i.label)], [
			7,
			['/plan'],
		]);
		const cost = posted.find(m => m.type === 'didMeasureMention');
		assert.deepStrictEqual(cost && cost.type === 'didMeasureMention' && [cost.tokens, cost.error], [
			0,
			'denied by keel.permissions.denyRead',
		]);
	});

	it("refills the composer with what was typed, not the mentions' content appended at send", () => {
		const sent =
			'Explain @src/app.ts please\n\nAttached file src/app.ts (47 tokens):\n```\nexport function greet() {}\n```';
		assert.strictEqual(typedPrompt(sent), 'Explain @src/app.ts please');
		assert.strictEqual(typedPrompt('Plain words\n\nAttached is my idea'), 'Plain words\n\nAttached is my idea');
	});

	it('offers rewind on a turn as soon as it finishes, before the checkpoint store answers', async () => {
		const { posted, events } = setup({ turns: () => new Promise(() => undefined) }, [
			user('t7-user'),
			answer('t7-a1'),
		]);
		events.fire({ type: 'turnFinished', turnId: 't7' } as AgentEvent);
		const turns = posted.filter(m => m.type === 'didSetTurns').at(-1);
		assert.deepStrictEqual(turns && turns.type === 'didSetTurns' && turns.turns, [
			{ itemId: 't7-user', turnId: 't7', filesChanged: undefined },
		]);
	});

	it("keeps every finished turn's controls, under its own message, while the store lags behind", async () => {
		// The store knows only the first turn so far: the second still gets its controls, and neither is shifted onto the other's message.
		const { posted, events } = setup({ turns: async () => [turn('t1', 1)] }, [
			user('t1-user'),
			answer('a1'),
			user('t2-user'),
			answer('a2'),
		]);
		events.fire({ type: 'turnFinished', turnId: 't2' } as AgentEvent);
		await settle();
		const turns = posted.filter(m => m.type === 'didSetTurns').at(-1);
		assert.deepStrictEqual(turns && turns.type === 'didSetTurns' && turns.turns, [
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
