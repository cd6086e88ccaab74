import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';
import { ApprovalGate } from '../../src/core/agent/approval/approvalGate';
import { defaultApprovalSettings } from '../../src/core/agent/approval/approvalPolicy';
import type { AgentEvent } from '../../src/core/agent/events';
import { runTurn } from '../../src/core/agent/loop/runAgent';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import type { ToolResult } from '../../src/core/tools/defineTool';
import { ToolRegistry } from '../../src/core/tools/registry';
import { McpConnection, type McpConnectionEvent } from '../../src/core/tools/sources/mcpConnection';
import type { McpServerConfig } from '../../src/core/tools/sources/mcpConfig';
import { mcpToolDefinition } from '../../src/core/tools/sources/mcpTools';
import { InMemoryWorkspace } from '../fakes/inMemoryWorkspace';
import { startModelDouble, text, toolCalls, type ModelDouble } from '../support/modelDouble';

const FIXTURE = path.resolve(__dirname, '../fixtures/mcp/fixtureServer.js');
const options = {
	callTimeoutMs: 1500,
	connectTimeoutMs: 10_000,
	maxReconnects: 1,
	reconnectBaseMs: 50,
	clientVersion: 'test',
};
const stdio = (extra: string[] = []): McpServerConfig => ({
	name: 'shop',
	scope: 'workspace',
	type: 'stdio',
	command: process.execPath,
	args: [FIXTURE, ...extra],
});
const signal = () => new AbortController().signal;

function startHttpFixture(flag: '--http' | '--sse-only'): Promise<{ child: ChildProcess; port: number }> {
	const child = spawn(process.execPath, [FIXTURE, flag, '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
	return new Promise((resolve, reject) => {
		child.stdout!.on('data', (chunk: Buffer) => {
			const match = /listening (\d+)/.exec(chunk.toString());
			if (match) {
				resolve({ child, port: Number(match[1]) });
			}
		});
		child.on('exit', code => reject(new Error(`fixture exited ${code}`)));
	});
}

describe('MCP client against our own fixture server (official SDK on both sides)', function () {
	this.timeout(30_000);
	const open: McpConnection[] = [];
	const connect = async (config: McpServerConfig, events: McpConnectionEvent[] = []) => {
		const connection = new McpConnection(config, options, event => events.push(event));
		open.push(connection);
		await connection.start();
		return connection;
	};
	afterEach(async () => {
		await Promise.all(open.splice(0).map(c => c.stop()));
	});

	it('starts a stdio server, lists its tools, calls one and reads text and structured content; stderr is reported', async () => {
		const events: McpConnectionEvent[] = [];
		const connection = await connect(stdio(), events);
		assert.strictEqual(connection.state, 'running');
		assert.ok(connection.tools.some(t => t.name === 'lookup_order'));
		const result = await connection.call('lookup_order', { orderId: 'A-1001' }, signal());
		assert.match(JSON.stringify(result.content), /Order A-1001: shipped/);
		assert.deepStrictEqual(result.structuredContent, { orderId: 'A-1001', status: 'shipped', parcels: 3 });
		assert.ok(
			events.some(e => e.kind === 'stderr' && /fixture: starting/.test(e.text)),
			'server stderr reaches the log',
		);
	});

	it('speaks Streamable HTTP, and falls back to SSE for a server that only has the old transport', async () => {
		const streamable = await startHttpFixture('--http');
		const sseOnly = await startHttpFixture('--sse-only');
		try {
			const a = await connect({
				name: 'remote',
				scope: 'user',
				type: 'http',
				url: `http://127.0.0.1:${streamable.port}/mcp`,
			});
			assert.strictEqual(a.transport, 'streamable-http');
			assert.match(
				JSON.stringify((await a.call('lookup_order', { orderId: 'B-7' }, signal())).content),
				/Order B-7/,
			);
			const b = await connect({
				name: 'legacy',
				scope: 'user',
				type: 'http',
				url: `http://127.0.0.1:${sseOnly.port}/sse`,
			});
			assert.strictEqual(b.transport, 'sse');
			assert.match(
				JSON.stringify((await b.call('lookup_order', { orderId: 'C-9' }, signal())).content),
				/Order C-9/,
			);
		} finally {
			streamable.child.kill();
			sseOnly.child.kill();
		}
	});

	it('a server that crashes mid-call fails that call, is reported, and reconnects', async () => {
		const events: McpConnectionEvent[] = [];
		const connection = await connect(stdio(), events);
		await assert.rejects(connection.call('crash', {}, signal()), /closed|exited|Connection/i);
		assert.ok(events.some(e => e.kind === 'crashed' && e.willRetry));
		for (let i = 0; i < 100 && connection.state !== 'running'; i++) {
			await new Promise(r => setTimeout(r, 100));
		}
		assert.strictEqual(connection.state, 'running', 'reconnected after the crash');
		assert.match(
			JSON.stringify((await connection.call('lookup_order', { orderId: 'D-1' }, signal())).content),
			/Order D-1/,
		);
	});

	it('a hung call times out with a message naming the setting', async () => {
		const connection = await connect(stdio());
		await assert.rejects(
			connection.call('hang', {}, signal()),
			/did not answer within 2 s \(keel\.mcp\.callTimeoutSeconds\)/,
		);
	});

	it('follows tools/list_changed', async () => {
		const connection = await connect(stdio());
		await connection.call('add_tool', {}, signal());
		for (let i = 0; i < 50 && !connection.tools.some(t => t.name === 'extra_tool'); i++) {
			await new Promise(r => setTimeout(r, 50));
		}
		assert.ok(connection.tools.some(t => t.name === 'extra_tool'));
	});

	it('a configuration that cannot start says why', async () => {
		await assert.rejects(
			connect({ name: 'nope', scope: 'user', type: 'stdio', command: '/nonexistent/mcp-server' }),
			/ENOENT|spawn/,
		);
	});

	describe('through the agent loop (model double over HTTP)', () => {
		let double: ModelDouble;
		before(async () => (double = await startModelDouble()));
		after(() => double.close());
		beforeEach(() => double.reset());

		async function turn(connection: McpConnection, decide: (gate: ApprovalGate, id: string) => void) {
			const shape = async (result: ToolResult) => result;
			const registry = new ToolRegistry(
				connection.tools.map(tool => mcpToolDefinition('shop', tool, connection, shape)),
			);
			const gate = new ApprovalGate();
			const events: AgentEvent[] = [];
			const outcome = await runTurn(
				{
					model: new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'glm-4.7-flash' }),
					registry,
					approvals: gate,
					approvalSettings: defaultApprovalSettings,
					workspace: new InMemoryWorkspace({}),
					systemPrompt: 'You are Keel.',
					maxSteps: 5,
					emit: event => {
						events.push(event);
						if (event.type === 'toolCallUpdated' && event.call.status === 'awaitingApproval') {
							decide(gate, event.call.id);
						}
					},
					recovery: { backoffBaseMs: 1, backoffMaxMs: 10 },
				},
				[],
				'Where is order A-1001?',
				't1',
				new AbortController().signal,
			);
			return { outcome, events };
		}

		it('the model calls the namespaced tool, the user approves it on its card, the result reaches the final answer', async () => {
			const connection = await connect(stdio());
			// "true" for a boolean: Keel's coercion (from the server's own schema) repairs it before Ajv validates.
			double.script(
				toolCalls([{ name: 'mcp_shop_lookup_order', arguments: { orderId: 'A-1001', verbose: 'true' } }]),
				text('Answer: {{lastToolResult}}'),
			);
			const { outcome, events } = await turn(connection, (gate, id) => gate.decide(id, { approved: true }));
			assert.strictEqual(
				outcome.reason,
				'completed',
				JSON.stringify([outcome.error, events.filter(e => e.type !== 'textDelta')]).slice(0, 3000),
			);
			const offered = double.modelRequests[0].body.tools.map(
				(t: { function: { name: string } }) => t.function.name,
			);
			assert.ok(offered.includes('mcp_shop_lookup_order'));
			const cards = events.flatMap(e => (e.type === 'toolCallUpdated' ? [e.call] : []));
			assert.ok(
				cards.some(c => c.status === 'awaitingApproval'),
				'MCP tools ask by default',
			);
			assert.strictEqual(cards[cards.length - 1].status, 'succeeded');
			const answer = outcome.messages[outcome.messages.length - 1];
			assert.match(answer.content, /Answer: Order A-1001: shipped in 3 parcels/);
		});

		it('a denied call does not reach the server, and invalid arguments are reported from the JSON Schema', async () => {
			const connection = await connect(stdio());
			double.script(toolCalls([{ name: 'mcp_shop_lookup_order', arguments: { verbose: true } }]), text('ok'));
			const { events } = await turn(connection, gate => assert.fail(`asked for an invalid call ${gate}`));
			const card = events.flatMap(e => (e.type === 'toolCallUpdated' ? [e.call] : [])).pop()!;
			assert.strictEqual(card.status, 'failed');
			assert.match(
				card.output ?? '',
				/Invalid arguments for mcp_shop_lookup_order: .*must have required property 'orderId'/,
			);
		});

		it('a crash mid-call becomes a failed card the model reads, not a stuck turn', async () => {
			const connection = await connect(stdio());
			double.script(toolCalls([{ name: 'mcp_shop_crash', arguments: {} }]), text('It broke: {{lastToolResult}}'));
			const { outcome } = await turn(connection, (gate, id) => gate.decide(id, { approved: true }));
			assert.strictEqual(outcome.reason, 'completed');
			assert.match(
				outcome.messages[outcome.messages.length - 1].content,
				/It broke:[\s\S]*mcp_shop_crash failed/i,
			);
		});
	});
});
