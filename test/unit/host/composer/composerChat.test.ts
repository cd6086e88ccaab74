import * as assert from 'assert';
import { ImagesRefused } from '../../../../src/core/llm/imageParts';
import type { Attachment } from '../../../../src/core/mentions/mentions';
import { WebviewChannel } from '../../../../src/host/view/webviewChannel';
import type { Composer, MentionSource } from '../../../../src/host/composer/composer';
import { ComposerChat } from '../../../../src/host/composer/composerChat';
import { PROTOCOL_VERSION, type HostToWebview } from '../../../../src/shared/protocol';

const logger = { warn() {}, error() {}, info() {}, debug() {} } as never;

function setup(composer: Partial<Pick<Composer, 'submit' | 'completions'>>, mentions: Partial<MentionSource> = {}) {
	const posted: HostToWebview[] = [];
	const notices: Array<{ level: string; code: string; text: string }> = [];
	const channel = new WebviewChannel();
	const chat = new ComposerChat(
		{
			submit: composer.submit ?? (async () => ({ kind: 'command', command: 'new', message: '' })),
			completions: composer.completions ?? (async () => []),
		},
		{
			resolve: mentions.resolve ?? (async text => ({ prompt: text, attachments: [] })),
			candidates: mentions.candidates ?? (async () => []),
			mentionsForUris: mentions.mentionsForUris ?? (async () => ({ values: [], refused: [] })),
		},
		{ showNotice: n => notices.push(n) },
		channel,
		logger,
	);
	channel.open(
		m => posted.push(m as HostToWebview),
		PROTOCOL_VERSION,
		() => ({
			type: 'didSnapshot',
			state: { sessionId: 's', busy: false, items: [], olderCount: 0, modelLabel: 'm' },
		}),
	);
	return { chat, posted, notices };
}

describe("ComposerChat (the chat's composer over the host)", () => {
	it("sends through the command path: a command's answer becomes a notice, an unknown command an error notice", async () => {
		const sent: string[] = [];
		const { chat, notices } = setup({
			submit: async text => {
				sent.push(text);
				if (text === '/nope') {
					throw new Error('There is no command /nope.');
				}
				return { kind: 'command', command: 'compact', message: 'Compacted 4 messages.' };
			},
		});
		await chat.submit('/compact');
		await chat.submit('/nope');
		assert.deepStrictEqual(sent, ['/compact', '/nope']);
		assert.deepStrictEqual(
			notices.map(n => [n.level, n.text]),
			[
				['info', 'Compacted 4 messages.'],
				['error', 'There is no command /nope.'],
			],
		);
	});

	it('says nothing for a command whose effect shows by itself, and only logs a failed prompt (the turn shows it)', async () => {
		const { chat, notices } = setup({
			submit: async text => {
				if (text === 'hello') {
					throw new Error('model unreachable');
				}
				return { kind: 'command', command: 'plan', message: 'Mode: Plan.' };
			},
		});
		await chat.submit('/plan');
		await chat.submit('hello');
		assert.deepStrictEqual(notices, []);
	});

	it('a send refused for its images says why and puts the text and the images back', async () => {
		const image = { name: 'shot.png', data: 'iVBORw0KGgo=' };
		const { chat, posted, notices } = setup({
			submit: async () => {
				throw new ImagesRefused('m is not known to accept images, so the image was not sent.');
			},
		});
		await chat.submit('What is this?', [image]);
		assert.deepStrictEqual(
			notices.map(n => [n.level, n.code]),
			[['error', 'images']],
		);
		const fill = posted.filter(m => m.type === 'didFillComposer').at(-1);
		assert.deepStrictEqual(fill && fill.type === 'didFillComposer' && [fill.text, fill.images], [
			'What is this?',
			[image],
		]);
	});

	it('a drop from the Explorer adds the mentions to the composer and names what was refused', async () => {
		const { chat, posted, notices } = setup(
			{},
			{
				mentionsForUris: async () => ({
					values: ['src/app.ts', 'docs/'],
					refused: ['/etc/hostname (outside the workspace)'],
				}),
			},
		);
		await chat.drop(['file:///w/src/app.ts', 'file:///w/docs', 'file:///etc/hostname']);
		const added = posted.find(m => m.type === 'didAddMentions');
		assert.deepStrictEqual(added && added.type === 'didAddMentions' && added.values, ['src/app.ts', 'docs/']);
		assert.deepStrictEqual(
			notices.map(n => n.text),
			['Not attached: /etc/hostname (outside the workspace).'],
		);
	});

	it('answers completion requests with their id, and measures a mention as sending would', async () => {
		const denied: Attachment = {
			kind: 'file',
			label: '.env',
			tokens: 0,
			content: '',
			error: 'denied by keel.permissions.denyRead',
		};
		const { chat, posted } = setup(
			{ completions: async prefix => [{ name: `${prefix}lan`, description: 'Plan mode', source: 'builtin' }] },
			{ resolve: async () => ({ prompt: '', attachments: [denied] }) },
		);
		await chat.complete(7, 'slash', 'p');
		await chat.measure('.env');
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

	it('answers a completion request that failed with an empty list, so the composer never waits', async () => {
		const { chat, posted } = setup(
			{},
			{
				candidates: async () => {
					throw new Error('workspace gone');
				},
			},
		);
		await chat.complete(3, 'mention', 'src');
		const done = posted.find(m => m.type === 'didComplete');
		assert.deepStrictEqual(done && done.type === 'didComplete' && [done.requestId, done.items], [3, []]);
	});
});
