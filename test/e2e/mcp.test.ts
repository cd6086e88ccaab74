// MCP as a user meets it in real VS Code: servers of our own in the workspace's .vscode/mcp.json
// (stdio, Streamable HTTP, and one with 60 tools), allowed on their cards in the chat, listed in
// "Keel: MCP Servers", their tools called by the model double, approved on the card, results in
// the answer; a server crashing mid-call; an 8k window showing which tools were offered.
import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Frame, Page } from 'playwright-core';
import { runCommand } from '../support/browser';
import { REPO_ROOT } from '../support/codeServer';
import { text, toolCalls } from '../support/modelDouble';
import { ask, freshChat, testId, useKeel, useModelDouble } from './harness';

const FIXTURE = path.join(REPO_ROOT, 'out/test/fixtures/mcp/fixtureServer.js');

function startHttpFixture(): Promise<{ child: ChildProcess; port: number }> {
	const child = spawn(process.execPath, [FIXTURE, '--http', '0', '--name', 'remote'], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	return new Promise((resolve, reject) => {
		child.stdout!.on('data', (chunk: Buffer) => {
			const match = /listening (\d+)/.exec(chunk.toString());
			if (match) resolve({ child, port: Number(match[1]) });
		});
		child.on('exit', code => reject(new Error(`HTTP fixture exited ${code}`)));
	});
}

/** The in-chat card: "Server X from .vscode/mcp.json wants to run: <command line>", Allow / Deny. */
async function allow(chat: Frame, server: string, runs: RegExp): Promise<void> {
	const card = chat.locator(`${testId('mcp-consent')}[data-server="${server}"]`).first();
	await card.waitFor({ timeout: 60_000 });
	assert.match(await card.innerText(), /from \.vscode\/mcp\.json wants to run/);
	assert.match(await card.locator(testId('mcp-consent-runs')).innerText(), runs);
	// A program's card shows the rest of its plan: the folder it runs in, at least.
	if (!runs.source.startsWith('^connect')) {
		assert.match(await card.locator(testId('mcp-consent-details')).innerText(), /\bin \//);
	}
	await card.locator(testId('mcp-allow')).click();
	// Answered, the card leaves the composer's area and the answer stays in the conversation.
	await card.waitFor({ state: 'detached' });
	await chat.locator(testId('notice'), { hasText: `Allowed the MCP server ${server} to start` }).waitFor();
}

async function serverRow(page: Page, server: string, state: string): Promise<void> {
	for (let attempt = 0; attempt < 30; attempt++) {
		await runCommand(page, 'Keel: MCP Servers');
		const row = page.locator('.quick-input-list .monaco-list-row', { hasText: server }).first();
		await row.waitFor();
		const label = await row.innerText();
		await page.keyboard.press('Escape');
		if (label.includes(state)) return;
		await page.waitForTimeout(500);
	}
	throw new Error(`${server} never reached "${state}"`);
}

async function approveCard(chat: Frame, tool: string): Promise<void> {
	const card = chat.locator(`${testId('tool-card')}[data-tool-name="${tool}"]`).last();
	await card.locator(testId('tool-approve')).waitFor({ timeout: 30_000 });
	await card.locator(testId('tool-approve')).click();
}

describe('Keel with MCP servers (e2e)', function () {
	this.timeout(240_000);
	const double = useModelDouble();
	let http: { child: ChildProcess; port: number } | undefined;
	let workspace = '';
	before(async () => {
		http = await startHttpFixture();
		workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-mcp-ws-'));
		fs.cpSync(path.join(REPO_ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
		fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
		fs.writeFileSync(
			path.join(workspace, '.vscode/mcp.json'),
			JSON.stringify(
				{
					servers: {
						shop: { type: 'stdio', command: process.execPath, args: [FIXTURE, '--name', 'shop'] },
						remote: { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` },
						big: { command: process.execPath, args: [FIXTURE, '--fillers', '60'] },
					},
				},
				null,
				2,
			),
		);
	});
	after(() => {
		http?.child.kill();
		fs.rmSync(workspace, { recursive: true, force: true });
	});
	const keel = useKeel(() => ({
		workspace,
		settings: { 'keel.model.baseUrl': double().openaiBaseUrl, 'keel.model.contextWindow': 8192 },
	}));

	it('allowed once, its stdio and HTTP tools are called by the model, approved on the card, and answered from', async () => {
		const chat = await keel.openKeel();
		await allow(chat, 'shop', /fixtureServer\.js --name shop$/);
		await keel.screenshot('mcp-consent-card');
		await allow(chat, 'remote', /^connect to http:\/\/127\.0\.0\.1:\d+\/mcp$/);
		await allow(chat, 'big', /fixtureServer\.js --fillers 60$/);
		await serverRow(keel.page, 'shop', 'running');
		await serverRow(keel.page, 'remote', 'running');
		await serverRow(keel.page, 'big', 'running');
		await keel.screenshot('mcp-servers');

		double().script(
			toolCalls([{ name: 'mcp_shop_lookup_order', arguments: { orderId: 'A-1001' } }]),
			toolCalls([{ name: 'mcp_remote_lookup_order', arguments: { orderId: 'B-7' } }]),
			text('Both: {{lastToolResult}}'),
		);
		await ask(chat, 'Where are my orders A-1001 and B-7? Look up each order.');
		await approveCard(chat, 'mcp_shop_lookup_order');
		await keel.screenshot('mcp-card-approved');
		await approveCard(chat, 'mcp_remote_lookup_order');
		await chat
			.locator(testId('message-assistant'))
			.filter({ hasText: 'Both: Order B-7: shipped in 3 parcels' })
			.waitFor();
		const statuses = await chat
			.locator(testId('tool-card'))
			.evaluateAll(cards => cards.map(c => c.getAttribute('data-status')));
		assert.deepStrictEqual(statuses, ['succeeded', 'succeeded']);
		const [first] = double().modelRequests;
		// 8k window, ~80 tools: the built-ins fill the budget, so the order tools are named first in request_tools' catalog.
		const tools = first.body.tools as Array<{ function: { name: string; description: string } }>;
		const catalog = tools.find(t => t.function.name === 'request_tools')!.function.description;
		// Every fixture server has a lookup_order tool: those three are the most relevant, so each is
		// either offered (when the budget has room for it) or leads request_tools' catalog.
		const offeredMcp = tools.map(t => t.function.name).filter(name => name.startsWith('mcp_'));
		const leading = catalog
			.split('most relevant first: ')[1]
			.split(', ')
			.slice(0, 3 - offeredMcp.length);
		assert.deepStrictEqual(
			[...offeredMcp, ...leading].sort(),
			['mcp_big_lookup_order', 'mcp_remote_lookup_order', 'mcp_shop_lookup_order'],
			catalog,
		);
	});

	it('with 60 more tools and an 8k window, only the relevant ones are sent and the chat says which', async () => {
		const chat = await freshChat(keel);
		double().script(text('ok'));
		await ask(chat, 'What is the flight status of LH 400?');
		const notice = chat.locator(`${testId('notice')}[data-code="toolsOffered"]`).last();
		await notice.waitFor();
		assert.match(
			await notice.innerText(),
			/^Tools offered: \d+ of \d+ — 15 built-in( \+ \d+ by relevance \(mcp_big_flight_status(?:_\d+)?[^)]*\))? \+ request_tools\. \d+ more listed by name for request_tools\. Budget: 40 tools, 2,048 tokens/,
		);
		await keel.screenshot('mcp-tools-offered');
		const offered: string[] = double()
			.modelRequests.at(-1)!
			.body.tools.map((t: { function: { name: string } }) => t.function.name);
		assert.ok(offered.length < 40, `a filtered set: ${offered.length}`);
		assert.ok(offered.includes('request_tools'));
		assert.ok(offered.includes('read_file'));
		assert.ok(
			offered.filter(n => n.startsWith('mcp_')).every(n => n.startsWith('mcp_big_flight_status')),
			offered.join(', '),
		);
	});

	it('a server that crashes mid-call fails that card and the turn goes on', async () => {
		const chat = await freshChat(keel);
		double().script(toolCalls([{ name: 'mcp_shop_crash', arguments: {} }]), text('It broke: {{lastToolResult}}'));
		await ask(chat, 'crash the shop server');
		await approveCard(chat, 'mcp_shop_crash');
		await chat.locator(`${testId('tool-card')}[data-tool-name="mcp_shop_crash"][data-status="failed"]`).waitFor();
		await chat
			.locator(testId('message-assistant'))
			.filter({ hasText: /It broke:[\s\S]*mcp_shop_crash failed/ })
			.waitFor();
		await keel.page.locator('.notification-toast', { hasText: 'stopped unexpectedly' }).first().waitFor();
	});

	it('a tool a workspace server adds after it was allowed is held back until the user allows it on its card in the chat', async () => {
		await serverRow(keel.page, 'shop', 'running');
		const chat = await freshChat(keel);
		double().script(toolCalls([{ name: 'mcp_shop_add_tool', arguments: {} }]), text('added'));
		await ask(chat, 'use add_tool of the shop');
		await approveCard(chat, 'mcp_shop_add_tool');
		await chat.locator(testId('message-assistant')).filter({ hasText: 'added' }).waitFor();
		// The change is approved in the chat, on a card naming what changed (no VS Code notification).
		const card = chat.locator(`${testId('mcp-consent')}[data-server="shop"][data-kind="tools"]`).first();
		await card.waitFor({ timeout: 60_000 });
		assert.match(await card.innerText(), /changed its tools since you allowed it: extra_tool/);
		await keel.screenshot('mcp-tools-changed-card');
		// In the request at all: offered, or named in request_tools' catalog.
		const offeredFor = async (prompt: string) => {
			double().script(text('ok'));
			await ask(await freshChat(keel), prompt);
			await chat.locator(testId('message-assistant')).filter({ hasText: 'ok' }).waitFor();
			const tools = double().modelRequests.at(-1)!.body.tools as Array<{
				function: { name: string; description: string };
			}>;
			return tools.flatMap(t => [
				t.function.name,
				...(t.function.name === 'request_tools' ? t.function.description.split(/[ ,:]+/) : []),
			]);
		};
		assert.ok(
			!(await offeredFor('shop extra_tool please')).includes('mcp_shop_extra_tool'),
			'held back before the user allows it',
		);
		await card.locator(testId('mcp-allow')).click();
		for (let i = 0; i < 20 && !(await offeredFor('shop extra_tool please')).includes('mcp_shop_extra_tool'); i++) {
			await keel.page.waitForTimeout(250);
		}
		assert.ok((await offeredFor('shop extra_tool please')).includes('mcp_shop_extra_tool'), 'offered once allowed');
	});
});
