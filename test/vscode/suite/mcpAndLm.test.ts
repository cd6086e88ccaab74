// MCP servers and VS Code's language-model ecosystem inside the real extension host: a stdio
// MCP server of our own from the user's keel.mcp.config, a workspace server from
// .vscode/mcp.json or .mcp.json that must not start without consent, Copilot's user file, the test extension's Language Model
// Tool offered to Keel's model, Keel's own read tool lent to VS Code, and (VS Code 1.104+) a
// chat model another extension registers, driven through Keel.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { text, toolCalls } from '../../support/modelDouble';
import { lmToolExclusion } from '../../../src/core/tools/sources/lmToolExclusions';
import { lmToolName } from '../../../src/host/tools/lmTools';
import { testConfig } from '../context';
import { useKeelSuite } from '../keelSuite';

const fixture = () => path.join(testConfig().repoRoot, 'out/test/fixtures/mcp/fixtureServer.js');

async function until<T>(
	probe: () => Promise<T | undefined> | T | undefined,
	what: string,
	timeoutMs = 15_000,
): Promise<T> {
	for (const started = Date.now(); Date.now() - started < timeoutMs;) {
		const value = await probe();
		if (value !== undefined) {
			return value;
		}
		await new Promise(resolve => setTimeout(resolve, 100));
	}
	throw new Error(`timed out waiting for ${what}`);
}

describe('MCP and vscode.lm in the extension host', function () {
	this.timeout(60_000);
	const keel = useKeelSuite();

	it('starts a user-configured stdio MCP server; its tool asks, runs once approved, and its result reaches the answer', async () => {
		await keel.set('mcp.config', {
			servers: { shop: { type: 'stdio', command: process.execPath, args: [fixture()] } },
		});
		const server = await until(
			async () => (await keel.api.mcpServers()).find(s => s.name === 'shop' && s.status === 'running'),
			'the shop server',
		);
		assert.ok(server.tools.includes('mcp_shop_lookup_order'), server.tools.join(', '));
		keel.double.script(
			toolCalls([{ name: 'mcp_shop_lookup_order', arguments: { orderId: 'A-1001' } }]),
			text('Answer: {{lastToolResult}}'),
		);
		const turn = keel.api.runTurn('Where is order A-1001?');
		const pending = await keel.pendingApprovals();
		assert.strictEqual(pending.length, 1, 'MCP tools ask by default');
		assert.strictEqual(keel.toolCards()[0].title, 'shop: lookup_order (orderId: A-1001)');
		assert.ok(keel.api.decideToolCall(pending[0], true));
		const outcome = await turn;
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		assert.strictEqual(keel.last().content, 'Answer: Order A-1001: shipped in 3 parcels, arriving Thursday.');
		assert.strictEqual(keel.toolCards()[0].status, 'succeeded');
	});

	it('a server crashing mid-call fails that card with a message, and the server comes back', async () => {
		await until(
			async () => (await keel.api.mcpServers()).find(s => s.name === 'shop' && s.status === 'running'),
			'the shop server',
		);
		keel.double.script(toolCalls([{ name: 'mcp_shop_crash', arguments: {} }]), text('{{lastToolResult}}'));
		const turn = keel.api.runTurn('crash it');
		const pending = await keel.pendingApprovals();
		keel.api.decideToolCall(pending[0], true);
		const outcome = await turn;
		assert.strictEqual(outcome.reason, 'completed');
		assert.strictEqual(keel.toolCards()[0].status, 'failed');
		assert.match(keel.last().content, /mcp_shop_crash failed: .*(closed|exited)/i);
		await until(
			async () => (await keel.api.mcpServers()).find(s => s.name === 'shop' && s.status === 'running'),
			'the reconnect',
			20_000,
		);
	});

	it("a workspace server from .vscode/mcp.json waits for the user's permission and does not start on its own", async () => {
		const root = vscode.workspace.workspaceFolders![0].uri;
		const file = vscode.Uri.joinPath(root, '.vscode', 'mcp.json');
		await vscode.workspace.fs.writeFile(
			file,
			Buffer.from(
				JSON.stringify({
					servers: { repo: { command: process.execPath, args: [fixture(), '--name', 'repo'] } },
				}),
			),
		);
		try {
			const server = await until(
				async () => (await keel.api.mcpServers()).find(s => s.name === 'repo'),
				'the workspace server entry',
			);
			assert.strictEqual(server.status, 'needsConsent');
			assert.deepStrictEqual(server.tools, []);
		} finally {
			await vscode.workspace.fs.delete(file);
		}
	});

	// VS Code 1.140 declares servers in a workspace-root .mcp.json (`mcpServers`, stdio also named
	// `local`) and in $COPILOT_HOME/mcp-config.json, default ~/.copilot/mcp-config.json:
	// https://code.visualstudio.com/docs/agents/reference/mcp-configuration
	it("a workspace server from .mcp.json (mcpServers) waits for the user's permission like one from .vscode/mcp.json; a name declared in both starts once", async () => {
		const root = vscode.workspace.workspaceFolders![0].uri;
		const portable = vscode.Uri.joinPath(root, '.mcp.json');
		const legacy = vscode.Uri.joinPath(root, '.vscode', 'mcp.json');
		const stdio = (name: string) => ({ command: process.execPath, args: [fixture(), '--name', name] });
		await vscode.workspace.fs.writeFile(
			portable,
			Buffer.from(
				JSON.stringify({
					mcpServers: { portable: { type: 'local', ...stdio('portable') }, twice: stdio('twice') },
				}),
			),
		);
		await vscode.workspace.fs.writeFile(
			legacy,
			Buffer.from(JSON.stringify({ servers: { twice: stdio('twice-old') } })),
		);
		try {
			const servers = await until(async () => {
				const all = await keel.api.mcpServers();
				return all.some(s => s.name === 'portable') && all.some(s => s.name === 'twice') ? all : undefined;
			}, 'the servers of .mcp.json');
			for (const name of ['portable', 'twice']) {
				const server = servers.find(s => s.name === name)!;
				assert.strictEqual(server.status, 'needsConsent', name);
				assert.deepStrictEqual(server.tools, [], `${name} lists no tools before the user allows it`);
			}
			assert.strictEqual(
				servers.filter(s => s.name === 'twice').length,
				1,
				'one server for a name declared twice',
			);
		} finally {
			await vscode.workspace.fs.delete(portable);
			await vscode.workspace.fs.delete(legacy);
		}
		await until(
			async () => ((await keel.api.mcpServers()).some(s => s.name === 'portable') ? undefined : true),
			'the servers to go with the files',
		);
	});

	it("starts a server from Copilot's user file ($COPILOT_HOME/mcp-config.json) without asking, as a user server; its tool still asks before it runs", async function () {
		const copilotHome = testConfig().copilotHome;
		if (!copilotHome) {
			this.skip();
		}
		const file = vscode.Uri.file(path.join(copilotHome!, 'mcp-config.json'));
		await vscode.workspace.fs.writeFile(
			file,
			Buffer.from(
				JSON.stringify({
					mcpServers: {
						copilotuser: {
							type: 'local',
							command: process.execPath,
							args: [fixture(), '--name', 'copilotuser'],
							tools: ['*'],
						},
					},
				}),
			),
		);
		try {
			const server = await until(
				async () => (await keel.api.mcpServers()).find(s => s.name === 'copilotuser' && s.status === 'running'),
				"the server from Copilot's user file",
				30_000,
			);
			assert.ok(server.tools.includes('mcp_copilotuser_lookup_order'), server.tools.join(', '));
			keel.double.script(
				toolCalls([{ name: 'mcp_copilotuser_lookup_order', arguments: { orderId: 'A-1001' } }]),
				text('Answer: {{lastToolResult}}'),
			);
			const turn = keel.api.runTurn('Where is order A-1001?');
			const pending = await keel.pendingApprovals();
			assert.strictEqual(pending.length, 1, 'its tools go through the same gate');
			assert.ok(keel.api.decideToolCall(pending[0], true));
			const outcome = await turn;
			assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
			assert.match(keel.last().content, /Order A-1001: shipped/);
		} finally {
			await vscode.workspace.fs.delete(file);
		}
		await until(
			async () => ((await keel.api.mcpServers()).some(s => s.name === 'copilotuser') ? undefined : true),
			'the server to go with the file',
			30_000,
		);
	});

	it("starts a server added the VS Code way to the user's mcp.json (MCP: Add Server → Global) without asking, and drops it when removed", async function () {
		const userDataDir = testConfig().userDataDir;
		if (!userDataDir) {
			this.skip();
		}
		const file = vscode.Uri.file(path.join(userDataDir!, 'User', 'mcp.json'));
		await vscode.workspace.fs.writeFile(
			file,
			Buffer.from(
				JSON.stringify({
					servers: {
						vsuser: { type: 'stdio', command: process.execPath, args: [fixture(), '--name', 'vsuser'] },
					},
				}),
			),
		);
		try {
			const server = await until(
				async () => (await keel.api.mcpServers()).find(s => s.name === 'vsuser' && s.status === 'running'),
				"the server from the user's mcp.json",
				30_000,
			);
			assert.ok(server.tools.includes('mcp_vsuser_lookup_order'), server.tools.join(', '));
		} finally {
			await vscode.workspace.fs.delete(file);
		}
		await until(
			async () => ((await keel.api.mcpServers()).some(s => s.name === 'vsuser') ? undefined : true),
			'the server to go with the file',
			30_000,
		);
	});

	it('offers the tools other extensions registered (vscode.lm.tools) through the approval gate and runs them with invokeTool', async function () {
		if (!vscode.lm?.tools?.some(t => t.name === 'keeltest_weather')) {
			this.skip();
		}
		keel.double.script(
			toolCalls([{ name: 'lm_keeltest_weather', arguments: { city: 'Lyon' } }]),
			text('{{lastToolResult}}'),
		);
		const turn = keel.api.runTurn('Weather in Lyon?');
		const pending = await keel.pendingApprovals();
		assert.strictEqual(pending.length, 1);
		keel.api.decideToolCall(pending[0], true);
		const outcome = await turn;
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		assert.strictEqual(keel.last().content, 'Weather in Lyon: 21 °C and sunny.');
		const offered = keel.double.modelRequests[0].body.tools.map(
			(t: { function: { name: string } }) => t.function.name,
		);
		assert.ok(
			!offered.some((n: string) => n.startsWith('lm_keel_')),
			"Keel's own lent tools are not offered back to it",
		);
		// VS Code's own file, edit and terminal tools (present on a current VS Code) are left out; other extensions' are not.
		const all = vscode.lm.tools.map(t => t.name);
		const left = all.filter(n => lmToolExclusion(n)).map(lmToolName);
		assert.deepStrictEqual(
			offered.filter((n: string) => left.includes(n)),
			[],
			`VS Code's tools: ${all.join(', ')}`,
		);
	});

	it('lends its guarded read tool to VS Code: vscode.lm.invokeTool reads the workspace, and refuses outside it', async () => {
		assert.ok(vscode.lm.tools.some(t => t.name === 'keel_read_file'));
		const token = new vscode.CancellationTokenSource().token;
		const result = await vscode.lm.invokeTool(
			'keel_read_file',
			{ input: { path: 'README.md' }, toolInvocationToken: undefined },
			token,
		);
		assert.match((result.content[0] as vscode.LanguageModelTextPart).value, /# Fixture workspace/);
		const outside = await vscode.lm.invokeTool(
			'keel_read_file',
			{ input: { path: '../../etc/passwd' }, toolInvocationToken: undefined },
			token,
		);
		assert.match((outside.content[0] as vscode.LanguageModelTextPart).value, /leaves the workspace|outside/i);
	});

	it("a lent tool obeys the user's deny rules, for the file itself and in searches, and says so", async () => {
		const token = new vscode.CancellationTokenSource().token;
		const call = async (name: string, input: object) =>
			(
				(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token))
					.content[0] as vscode.LanguageModelTextPart
			).value;
		assert.match(await call('keel_read_file', { path: 'README.md' }), /# Fixture workspace/);
		await keel.set('permissions.rules', [{ tool: '*', match: 'README*', action: 'deny' }]);
		assert.match(
			await call('keel_read_file', { path: 'README.md' }),
			/not allowed: refused by the permission rule/,
		);
		assert.match(await call('keel_read_file', { path: './readme.MD/../README.md' }), /not allowed/);
		assert.doesNotMatch(await call('keel_find_path', { glob: '**/*.md' }), /README/);
		assert.doesNotMatch(await call('keel_grep', { pattern: 'Fixture workspace' }), /README/);
		await keel.set('permissions.rules', undefined);
	});

	it('talks to a chat model another extension registered in VS Code (1.104+), with tool calls and results', async function () {
		const [major, minor] = vscode.version.split('.').map(Number);
		if (major === 1 && minor < 104) {
			// VS Code before 1.104 has no API for an extension to register a chat model (the smoke run on the oldest VS Code).
			this.skip();
		}
		const models = await until(
			async () => ((await vscode.lm.selectChatModels({ vendor: 'keel-test' })).length > 0 ? true : undefined),
			"the test extension's chat model",
		);
		assert.ok(models);
		await keel.set('model.provider', 'vscode-lm');
		await keel.set('model.name', 'keel-test/scripted');
		const outcome = await keel.api.runTurn('What does the README say?');
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		assert.strictEqual(keel.toolCards()[0].name, 'read_file');
		assert.match(keel.last().content, /^The VS Code model read: .*# Fixture workspace/);
		await keel.set('model.provider', undefined);
		await keel.set('model.name', undefined);
	});
});
