import * as assert from 'assert';
import * as fc from 'fast-check';
import { parseMcpConfigText } from '../../../../../src/core/tools/sources/mcpConfig';
import {
	inputIds,
	parseEnvFile,
	resolveServer,
	type VariableContext,
} from '../../../../../src/core/tools/sources/mcpVariables';
import { mcpToolDefinition, mcpToolName, toToolResult } from '../../../../../src/core/tools/sources/mcpTools';
import { ToolRegistry } from '../../../../../src/core/tools/registry';

describe('MCP configuration (VS Code mcp.json format)', () => {
	it('reads stdio and http servers with comments and trailing commas; type is inferred when left out', () => {
		const config = parseMcpConfigText(
			`{
				// VS Code's own format
				"inputs": [{ "type": "promptString", "id": "token", "description": "GitHub token", "password": true }],
				"servers": {
					"files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}"], "env": { "DEBUG": "1" }, "envFile": ".env" },
					"github": { "type": "http", "url": "https://api.example.com/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
					"old": { "type": "sse", "url": "http://127.0.0.1:9000/sse" },
				},
			}`,
			'workspace',
			'.vscode/mcp.json',
		);
		assert.deepStrictEqual(config.errors, []);
		assert.deepStrictEqual(
			config.servers.map(s => [s.name, s.type]),
			[
				['files', 'stdio'],
				['github', 'http'],
				['old', 'sse'],
			],
		);
		assert.strictEqual(config.servers[0].envFile, '.env');
		assert.deepStrictEqual(config.inputs, [
			{
				id: 'token',
				type: 'promptString',
				description: 'GitHub token',
				password: true,
				default: undefined,
				options: undefined,
			},
		]);
		assert.deepStrictEqual(inputIds(config.servers[1]), ['token']);
	});

	it('says what is wrong with each bad entry and keeps the good ones', () => {
		const config = parseMcpConfigText(
			'{"servers": {"a": {"type": "stdio"}, "b": {"url": "ftp://x"}, "c": {"type": "ws", "url": "http://x"}, "ok": {"command": "node"}}}',
			'workspace',
			'mcp.json',
		);
		assert.deepStrictEqual(
			config.servers.map(s => s.name),
			['ok'],
		);
		assert.deepStrictEqual(config.errors, [
			'mcp.json: server "a": a stdio server needs "command" (the program to run).',
			'mcp.json: server "b": a http server needs "url" (http:// or https://).',
			'mcp.json: server "c": unknown "type" "ws": use "stdio", "http" or "sse".',
		]);
		assert.match(
			parseMcpConfigText('{"servers": {', 'workspace', 'mcp.json').errors[0],
			/mcp\.json: .* at offset \d+\. Fix the JSON/,
		);
	});

	it('resolves ${input:…}, ${env:…}, ${workspaceFolder}; an unanswered input stops the start', async () => {
		const asked: string[] = [];
		const context: VariableContext = {
			workspaceFolder: '/ws',
			userHome: '/home/u',
			pathSeparator: '/',
			env: { HOME: '/home/u' },
			input: async id => (asked.push(id), id === 'token' ? 's3cret' : undefined),
		};
		const [server] = parseMcpConfigText(
			'{"servers": {"s": {"command": "${userHome}/bin/srv", "args": ["${workspaceFolder}/data", "--home=${env:HOME}"], "env": {"TOKEN": "${input:token}"}}}}',
			'user',
			'x',
		).servers;
		const resolved = await resolveServer(server, context);
		assert.strictEqual(resolved.command, '/home/u/bin/srv');
		assert.deepStrictEqual(resolved.args, ['/ws/data', '--home=/home/u']);
		assert.deepStrictEqual(resolved.env, { TOKEN: 's3cret' });
		const [other] = parseMcpConfigText(
			'{"servers": {"s": {"command": "x", "args": ["${input:missing}"]}}}',
			'user',
			'x',
		).servers;
		await assert.rejects(resolveServer(other, context), /the input "missing" was not given/);
		await assert.rejects(
			resolveServer({ ...other, args: ['${command:evil}'] }, context),
			/unsupported variable \$\{command:evil\}/,
		);
	});

	it('reads envFile lines', () => {
		assert.deepStrictEqual(parseEnvFile('# comment\nA=1\nexport B="two words"\n C = \'x\' \nnot a line'), {
			A: '1',
			B: 'two words',
			C: 'x',
		});
	});
});

// VS Code 1.140's portable files (workspace .mcp.json, ~/.copilot/mcp-config.json) key the same
// entries under "mcpServers" and also name stdio "local":
// https://code.visualstudio.com/docs/agents/reference/mcp-configuration
describe('MCP configuration (portable .mcp.json / mcp-config.json format)', () => {
	const name = fc.stringMatching(/^[\w.-]{1,20}$/);
	const text = fc.string({ maxLength: 12 });
	const entry = fc.oneof(
		fc.record(
			{
				type: fc.constantFrom('stdio', 'local', undefined),
				command: text,
				args: fc.array(text, { maxLength: 3 }),
				env: fc.dictionary(name, text, { maxKeys: 2 }),
				tools: fc.constant(['*']),
			},
			{ requiredKeys: ['command'] },
		),
		fc.record(
			{
				type: fc.constantFrom('http', 'sse', undefined),
				url: fc.oneof(fc.webUrl(), text),
				headers: fc.dictionary(name, text, { maxKeys: 2 }),
			},
			{ requiredKeys: ['url'] },
		),
		fc.anything(),
	);
	const servers = fc.dictionary(name, entry, { maxKeys: 5 });

	it('reads every entry under mcpServers exactly as VS Code reads it under servers, with "local" as stdio', () => {
		fc.assert(
			fc.property(servers, map => {
				const portable = parseMcpConfigText(
					JSON.stringify({ mcpServers: map }),
					'workspace',
					'.mcp.json',
					'portable',
				);
				const vscodeForm = Object.fromEntries(
					Object.entries(map).map(([k, v]) => [
						k,
						v && typeof v === 'object' && (v as { type?: unknown }).type === 'local'
							? { ...v, type: 'stdio' }
							: v,
					]),
				);
				const editor = parseMcpConfigText(JSON.stringify({ servers: vscodeForm }), 'workspace', '.mcp.json');
				assert.deepStrictEqual(portable, editor);
			}),
			{ numRuns: 300 },
		);
	});

	it('a portable file names the key it expects when it is wrong, and "servers" in it declares nothing', () => {
		const wrong = parseMcpConfigText('{ "mcpServers": [] }', 'user', 'mcp-config.json', 'portable');
		assert.deepStrictEqual(wrong.errors, ['mcp-config.json: "mcpServers" must be an object keyed by server name.']);
		const other = parseMcpConfigText(
			'{ "servers": { "a": { "command": "x" } } }',
			'workspace',
			'.mcp.json',
			'portable',
		);
		assert.deepStrictEqual(other, { servers: [], inputs: [], errors: [] });
		const local = parseMcpConfigText(
			'{ "mcpServers": { "serena": { "type": "local", "command": "uvx", "args": ["serena"], "tools": ["*"] } } }',
			'user',
			'mcp-config.json',
			'portable',
		);
		assert.deepStrictEqual(
			local.servers.map(s => [s.name, s.scope, s.type, s.command, s.args]),
			[['serena', 'user', 'stdio', 'uvx', ['serena']]],
		);
	});
});

describe('MCP tools as Keel tools', () => {
	it('names are namespaced, provider-safe, at most 64 characters, and never shared by two servers or tools', () => {
		assert.strictEqual(mcpToolName('git-hub', 'create_issue'), 'mcp_git-hub_create_issue');
		// "a_b" + "c" and "a" + "b_c" would both read mcp_a_b_c: the ambiguous one says which server it is.
		assert.match(mcpToolName('a_b', 'c'), /^mcpx_[0-9a-z]{12}_c$/);
		assert.strictEqual(mcpToolName('a', 'b_c'), 'mcp_a_b_c');
		assert.notStrictEqual(mcpToolName('git-hub', 'create.issue'), mcpToolName('git-hub', 'create_issue'));
		const long = mcpToolName('server', 'x'.repeat(100));
		assert.strictEqual(long.length, 64);
		assert.notStrictEqual(long, mcpToolName('server', `${'x'.repeat(99)}y`));
		// The same name declared in two folders: each gets its own.
		assert.notStrictEqual(mcpToolName('shop', 'x', 'folderA', false), mcpToolName('shop', 'x', 'folderB', false));
	});

	it("reads only when the server's readOnlyHint says so, and by nothing else (not a title, not destructiveHint: false)", () => {
		const define = (annotations: Record<string, unknown> | undefined, name = 'lookup') =>
			mcpToolDefinition(
				'shop',
				{ name, inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) },
				{ call: async () => ({ content: [] }) },
				async r => r,
			);
		assert.strictEqual(define({ readOnlyHint: true }).readsOnly?.({}), true);
		assert.strictEqual(define({ readOnlyHint: false }).readsOnly?.({}), false);
		assert.strictEqual(
			define({ destructiveHint: false, title: 'Read orders' }, 'read_orders').readsOnly?.({}),
			false,
		);
		assert.strictEqual(define(undefined, 'get_order').readsOnly?.({}), false);
		assert.strictEqual(define({ readOnlyHint: true }).effect, 'exec', 'it still asks as a command does');
	});

	it('validates arguments against the server JSON Schema with Ajv and offers it with its limits in words', () => {
		const tool = mcpToolDefinition(
			'shop',
			{
				name: 'order',
				description: 'Find an order',
				inputSchema: {
					type: 'object',
					properties: { id: { type: 'string', pattern: '^A-' }, n: { type: 'integer', minimum: 1 } },
					required: ['id'],
				},
			},
			{ call: async () => ({ content: [] }) },
			async r => r,
		);
		const registry = new ToolRegistry([tool]);
		assert.strictEqual(tool.effect, 'exec', 'asks by default, never offered in an untrusted workspace');
		// What a grammar converter may choke on goes as words; the schema as declared still decides.
		assert.deepStrictEqual(registry.specs()[0].parameters, {
			type: 'object',
			properties: {
				id: { type: 'string', description: 'Matching ^A-' },
				n: { type: 'integer', description: '≥ 1' },
			},
			required: ['id'],
		});
		assert.ok(registry.parse('mcp_shop_order', '{"id":"A-1","n":2}').ok);
		const bad = registry.parse('mcp_shop_order', '{"id":"B-1","n":0}');
		assert.ok(!bad.ok);
		assert.match(
			bad.message,
			/Invalid arguments for mcp_shop_order: id: must match pattern "\^A-"; n: must be >= 1/,
		);
	});

	it('shapes text, images, resources, links and structured content; isError is a failed result', () => {
		const result = toToolResult({
			content: [
				{ type: 'text', text: 'hello' },
				{ type: 'image', data: Buffer.from('12345678').toString('base64'), mimeType: 'image/png' },
				{ type: 'resource', resource: { uri: 'file:///a.txt', text: 'file body' } },
				{ type: 'resource_link', uri: 'https://x/y', name: 'y' },
			],
		});
		assert.strictEqual(result.ok, true);
		assert.strictEqual(
			result.display,
			'hello\n[image: image/png, 8 bytes — not shown to the model]\n[resource file:///a.txt]\nfile body\n[link https://x/y — y]',
		);
		assert.strictEqual(toToolResult({ content: [], structuredContent: { a: 1 } }).display, '{\n  "a": 1\n}');
		const failed = toToolResult({ content: [{ type: 'text', text: 'db offline' }], isError: true });
		assert.deepStrictEqual([failed.ok, failed.display], [false, 'The tool reported an error: db offline']);
	});
});
