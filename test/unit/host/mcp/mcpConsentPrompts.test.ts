import * as assert from 'assert';
import { McpConsentPrompts, describeRun } from '../../../../src/host/mcp/mcpConsentPrompts';
import { WebviewChannel } from '../../../../src/host/chat/webviewChannel';
import type { McpServerConfig } from '../../../../src/core/tools/sources/mcpConfig';
import {
	PROTOCOL_VERSION,
	parseHostMessage,
	parseWebviewMessage,
	type HostToWebview,
	type McpConsentView,
} from '../../../../src/shared/protocol';

const repo: McpServerConfig = {
	name: 'repo',
	scope: 'workspace',
	type: 'stdio',
	command: 'node',
	args: ['server.js', '--name', 'my repo'],
};

function setup() {
	const posted: HostToWebview[] = [];
	const channel = new WebviewChannel();
	let shown = 0;
	const prompts = new McpConsentPrompts(channel, () => shown++);
	channel.open(
		m => void (m.type !== 'didRefuseProtocol' && posted.push(m)),
		PROTOCOL_VERSION,
		() => ({
			type: 'didSnapshot',
			state: { sessionId: 's', busy: false, items: [], olderCount: 0, modelLabel: 'm' },
		}),
	);
	const cards = (): McpConsentView[] => {
		const last = posted.filter(m => m.type === 'didSetMcpConsents').at(-1);
		return last?.type === 'didSetMcpConsents' ? last.consents : [];
	};
	return { posted, channel, prompts, cards, shown: () => shown };
}

describe('McpConsentPrompts (the in-chat card that asks to start a workspace MCP server)', () => {
	it("shows a pending card with the command line, and resolves with the user's Allow", async () => {
		const { prompts, cards } = setup();
		const answer = prompts.ask(repo, '.vscode/mcp.json', false);
		assert.deepStrictEqual(
			cards().map(c => [c.server, c.source, c.runs, c.state]),
			[['repo', '.vscode/mcp.json', "node server.js --name 'my repo'", 'pending']],
		);
		prompts.decide(cards()[0].id, true);
		assert.strictEqual(await answer, true);
		assert.strictEqual(cards()[0].state, 'allowed');
	});

	it('Deny resolves false; a second click or an unknown id changes nothing', async () => {
		const { prompts, cards } = setup();
		const answer = prompts.ask(repo, '.vscode/mcp.json', false);
		const id = cards()[0].id;
		prompts.decide(id, false);
		prompts.decide(id, true);
		prompts.decide('mcp-consent-999', true);
		assert.strictEqual(await answer, false);
		assert.strictEqual(cards()[0].state, 'denied');
	});

	it('asking again while a card is open reuses it; the chat is brought forward only when the user started it', async () => {
		const { prompts, cards, shown } = setup();
		const first = prompts.ask(repo, '.vscode/mcp.json', false);
		const second = prompts.ask(repo, '.vscode/mcp.json', true);
		assert.strictEqual(cards().length, 1);
		assert.strictEqual(shown(), 0);
		prompts.decide(cards()[0].id, true);
		assert.deepStrictEqual(await Promise.all([first, second]), [true, true]);
		void prompts.ask({ ...repo, name: 'other' }, '.vscode/mcp.json', true);
		assert.strictEqual(shown(), 1);
	});

	it('a reloaded chat gets the pending cards again and no longer the answered ones', () => {
		const { prompts, channel, cards } = setup();
		void prompts.ask(repo, '.vscode/mcp.json', false);
		void prompts.ask({ ...repo, name: 'other' }, '.vscode/mcp.json', false);
		prompts.decide(cards()[0].id, true);
		channel.reset({
			type: 'didSnapshot',
			state: { sessionId: 's2', busy: false, items: [], olderCount: 0, modelLabel: 'm' },
		});
		assert.deepStrictEqual(
			cards().map(c => [c.server, c.state]),
			[['other', 'pending']],
		);
	});

	it("the messages both ways pass the protocol's validation", () => {
		const { posted, prompts, cards } = setup();
		void prompts.ask(
			{ name: 'remote', scope: 'workspace', type: 'http', url: 'https://example.test/mcp' },
			'.vscode/mcp.json',
			false,
		);
		assert.ok(parseHostMessage(posted.at(-1)));
		assert.strictEqual(cards()[0].runs, 'connect to https://example.test/mcp');
		assert.ok(parseWebviewMessage({ type: 'decideMcpConsent', id: cards()[0].id, allow: true }));
		assert.strictEqual(
			parseWebviewMessage({ type: 'decideMcpConsent', id: cards()[0].id, allow: 'yes' }),
			undefined,
		);
	});

	it('quotes arguments with spaces or quotes so the command line reads as typed', () => {
		assert.strictEqual(
			describeRun({ ...repo, command: '/usr/bin/node', args: ["it's", 'a b', '--x=1'] }),
			`/usr/bin/node 'it'\\''s' 'a b' --x=1`,
		);
	});
});
