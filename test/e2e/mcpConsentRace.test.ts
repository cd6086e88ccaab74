// A workspace MCP server as a new user meets it: its consent card is up when the chat opens,
// before any prompt. Whatever the order of clicks (Start in "Keel: MCP Servers" while the card
// waits, then Allow; Start twice), one server is one process; Start says what it did; and a
// prompt sent while the card waits says what it waits for and runs with the server's tools.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Frame, Page } from 'playwright-core';
import { runCommand } from '../support/browser';
import { REPO_ROOT } from '../support/codeServer';
import { text } from '../support/modelDouble';
import { ask, testId, useKeel, useModelDouble } from './harness';

const FIXTURE = path.join(REPO_ROOT, 'out/test/fixtures/mcp/fixtureServer.js');

/** "Keel: MCP Servers" → the server → one of its actions, as a user clicks through them. */
async function serverAction(page: Page, server: string, action: string): Promise<void> {
	await runCommand(page, 'Keel: MCP Servers');
	await page.locator('.quick-input-list .monaco-list-row:visible', { hasText: server }).first().click();
	// The server's own list (its title names it), and the action by its whole label: "Start", not "Restart".
	await page.locator('.quick-input-title', { hasText: `Keel: MCP server ${server}` }).waitFor();
	const label = new RegExp(`^\\s*${action}\\s*$`);
	await page
		.locator('.quick-input-list .monaco-list-row:visible .label-name')
		.filter({ hasText: label })
		.first()
		.click();
	await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

async function serverState(page: Page, server: string): Promise<string> {
	await runCommand(page, 'Keel: MCP Servers');
	const row = page.locator('.quick-input-list .monaco-list-row:visible', { hasText: server }).first();
	const label = await row.innerText();
	await page.keyboard.press('Escape');
	await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
	return label;
}

async function toast(page: Page, text: string | RegExp): Promise<void> {
	await page.locator('.notification-toast', { hasText: text }).first().waitFor({ timeout: 30_000 });
}

async function untilState(page: Page, server: string, state: RegExp): Promise<void> {
	for (let i = 0; i < 60 && !state.test(await serverState(page, server)); i++) {
		await page.waitForTimeout(500);
	}
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

describe('MCP consent: one server, one process, whatever the clicks (e2e)', function () {
	this.timeout(300_000);
	const double = useModelDouble();
	let workspace = '';
	let starts = '';
	before(() => {
		workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-mcp-race-'));
		starts = path.join(workspace, '..', `${path.basename(workspace)}-starts.txt`);
		fs.cpSync(path.join(REPO_ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
		fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
		fs.writeFileSync(
			path.join(workspace, '.vscode/mcp.json'),
			JSON.stringify({
				servers: { solo: { command: process.execPath, args: [FIXTURE, '--name', 'solo', '--starts', starts] } },
			}),
		);
	});
	after(() => {
		for (const pid of pids()) {
			if (alive(pid)) process.kill(pid);
		}
		fs.rmSync(workspace, { recursive: true, force: true });
		fs.rmSync(starts, { force: true });
	});
	const keel = useKeel(() => ({ workspace, settings: { 'keel.model.baseUrl': double().openaiBaseUrl } }));
	const pids = () =>
		fs.existsSync(starts) ? fs.readFileSync(starts, 'utf8').split('\n').filter(Boolean).map(Number) : [];
	const card = (chat: Frame) => chat.locator(`${testId('mcp-consent')}[data-server="solo"]`);

	/** One process runs and it is the last one started: nothing was left behind. */
	async function oneProcess(page: Page): Promise<void> {
		await untilState(page, 'solo', /running/);
		await page.waitForTimeout(2_000); // a second process would have started by now
		const live = pids().filter(alive);
		assert.strictEqual(live.length, 1, `processes alive: ${live.join(', ')} of ${pids().join(', ')}`);
		assert.strictEqual(live[0], pids().at(-1));
	}

	it('asks when the chat opens; Start in the quick pick while the card waits says so, and Allow starts one process', async () => {
		const chat = await keel.openKeel();
		await card(chat).waitFor({ timeout: 60_000 });
		assert.strictEqual(pids().length, 0, 'nothing runs before the answer');
		await serverAction(keel.page, 'solo', 'Start');
		await toast(keel.page, /"solo" waits for your permission: answer Allow or Deny on its card in the Keel chat/);
		await card(chat).locator(testId('mcp-allow')).click();
		await card(chat).waitFor({ state: 'detached' });
		await chat
			.locator(`${testId('notice')}[data-code="mcp"]`, { hasText: 'Allowed the MCP server solo' })
			.waitFor();
		await oneProcess(keel.page);
	});

	it('Start twice while the card waits, then Allow: still one process, and Start says it is running', async () => {
		await serverAction(keel.page, 'solo', 'Revoke permission to start');
		await untilState(keel.page, 'solo', /needsConsent/);
		await serverAction(keel.page, 'solo', 'Start');
		const chat = await keel.webview();
		await card(chat).waitFor({ timeout: 30_000 });
		await serverAction(keel.page, 'solo', 'Start');
		await toast(keel.page, /"solo" waits for your permission/);
		await card(chat).locator(testId('mcp-allow')).click();
		await oneProcess(keel.page);
		await serverAction(keel.page, 'solo', 'Restart');
		await toast(keel.page, /the MCP server "solo" is running with \d+ tools/);
		await oneProcess(keel.page);
	});

	it('a prompt sent while the card waits says what it waits for, and runs with the server once allowed', async () => {
		await serverAction(keel.page, 'solo', 'Revoke permission to start');
		await untilState(keel.page, 'solo', /needsConsent/);
		await serverAction(keel.page, 'solo', 'Start');
		const chat = await keel.webview();
		await card(chat).waitFor({ timeout: 30_000 });
		const before = double().modelRequests.length;
		double().script(text('Checked.'));
		await ask(chat, 'Is order A-1001 shipped?');
		const waiting = chat.locator(`${testId('notice')}[data-code="waiting"]`);
		await waiting.waitFor();
		assert.match(await waiting.innerText(), /Waiting for your answer: may Keel start the MCP server solo\?/);
		await keel.page.waitForTimeout(1_500);
		assert.strictEqual(double().modelRequests.length, before, 'no request while the consent waits');
		await card(chat).locator(testId('mcp-allow')).click();
		await chat.locator(testId('message-assistant')).filter({ hasText: 'Checked.' }).waitFor({ timeout: 60_000 });
		const request = JSON.stringify(double().modelRequests.at(-1)!.body.tools);
		assert.match(request, /mcp_solo_lookup_order/, 'the server it waited for is in the request');
		await oneProcess(keel.page);
	});
});
