// Every secret Keel itself holds is cut wherever it comes back: the provider's key when a server
// echoes it in an error (Check Model's report.json, its Markdown, the terminal), a value Keel
// resolved for an MCP server (`${env:…}`, env entries, input answers) when the server prints it
// back (our own server over stdio, through the real tool shaping), the key in a file or a
// command's output, and the log. Keys are generated in shapes no rule knows (only holding them
// can cut them) and in providers' shapes. An attempt gets through when the secret is visible.
import * as path from 'path';
import { reportMarkdown } from '../../src/core/checkModel/markdown';
import { runCheckModel } from '../../src/core/checkModel/runCheckModel';
import { CHECK_TASKS } from '../../src/core/checkModel/suite';
import { holdSecret } from '../../src/core/gate/redact/redact';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import type { ToolDefinition } from '../../src/core/tools/defineTool';
import { McpConnection } from '../../src/core/tools/sources/mcpConnection';
import { planLaunch, withInputs } from '../../src/core/tools/sources/mcpLaunch';
import { mcpToolDefinition } from '../../src/core/tools/sources/mcpTools';
import { defaultToolDeps } from '../../src/core/tools/toolDeps';
import { shapeOutput } from '../../src/core/tools/toolset';
import { createOutputLogger } from '../../src/host/notifications/outputLogger';
import { scratchParent } from '../support/checkModel/runAgainst';
import { fastRecovery } from '../support/resilience/runScenario';
import { startModelDouble, toolCalls, type ModelDouble } from '../support/modelDouble';
import type { RecordedRequest } from '../support/modelDouble/types';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness } from '../support/toolHarness';
import { seeded } from './support/seeded';
import { attack } from './tally';

const KLASS = 'secrets Keel holds, wherever they come back';
const FIXTURE = path.resolve(__dirname, '../fixtures/mcp/fixtureServer.js');
const rnd = seeded(Number(process.env.KEEL_SEED ?? 7_411));
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const body = (n: number) => Array.from({ length: n }, () => ALNUM[rnd.int(ALNUM.length)]).join('');

/** Keys in shapes no rule knows (a self-hosted proxy's), and in providers' own shapes. */
function generatedKeys(): string[] {
	return [
		`kx-${body(32)}`,
		`${body(20)}.${body(12)}`,
		body(40),
		`sk-or-v1-${body(64).toLowerCase()}`,
		`sk-proj-${body(48)}T3BlbkFJ${body(20)}`,
		`zai_${body(36)}`,
	];
}

describe(`security: ${KLASS}`, function () {
	this.timeout(180_000);

	describe("the provider's key in Check Model's report", () => {
		let double: ModelDouble;
		before(async () => (double = await startModelDouble({ models: ['double'] })));
		after(() => double.close());

		for (const key of generatedKeys()) {
			it(`a server that echoes the key in an error body: ${key.slice(0, 6)}…`, () =>
				attack(
					`check model report echoes ${key.slice(0, 6)}`,
					async () => {
						double.reset();
						// The probe gets its call; then every request is refused with the key it sent, as a
						// server that reflects credentials does (Unstructured-IO/unstructured-api#578:
						// `API key {api_key} is invalid`; zeroclaw-labs/zeroclaw#6).
						let first = true;
						double.script(
							...Array.from({ length: 60 }, () => (req: RecordedRequest) => {
								if (first) {
									first = false;
									return toolCalls([{ name: 'read_file', arguments: { path: 'a.txt' } }]);
								}
								const sent = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
								return {
									kind: 'httpError' as const,
									status: 500,
									body: {
										error: {
											message: `API key ${sent} is invalid for this upstream`,
											type: 'server_error',
										},
									},
								};
							}),
						);
						const report = await runCheckModel({
							model: new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'double', apiKey: key }),
							endpoint: { provider: 'openai', baseUrl: double.openaiBaseUrl, model: 'double' },
							current: { toolMode: 'auto', contextWindow: 32_768, maxOutputTokens: 0 },
							recovery: fastRecovery,
							tasks: CHECK_TASKS.filter(task => task.id === 'search-read'),
							trials: 1,
							modes: ['native'],
							tmpDir: scratchParent(),
						});
						const echoed = double.requests.some(r => String(r.headers.authorization ?? '').includes(key));
						const shown = [JSON.stringify(report), reportMarkdown(report)].join('\n');
						return !echoed
							? 'the double did not echo the key (the attempt proves nothing)'
							: shown.includes(key)
								? `the report shows the key: ${shown.slice(shown.indexOf(key) - 60, shown.indexOf(key) + 20)}`
								: undefined;
					},
					KLASS,
				));
		}
	});

	describe('values Keel resolved for an MCP server, printed back by it', () => {
		let tree: TempTree;
		before(() => {
			tree = tempTree('keel-held-mcp-');
			tree.add({ 'ws/README': 'x' });
		});
		after(() => tree.cleanup());

		const routes: Array<
			[string, (value: string) => { env: Record<string, string>; yours: Record<string, string> }]
		> = [
			[
				'${env:…} under a credential name',
				v => ({ env: { API_TOKEN: '${env:SERVICE_TOKEN}' }, yours: { SERVICE_TOKEN: v } }),
			],
			[
				'${env:…} under an innocent name',
				v => ({ env: { LANG_HINT: '${env:DEPLOY_SECRET}' }, yours: { DEPLOY_SECRET: v } }),
			],
			['a literal env value that looks like a key', v => ({ env: { SETTING_A: v }, yours: {} })],
			['an env value named as a password', v => ({ env: { DB_PASSWORD: v.slice(0, 12) }, yours: {} })],
		];
		for (const [label, route] of routes) {
			it(`is cut from the server's results: ${label}`, () =>
				attack(
					`mcp held value ${label}`,
					async () => {
						const value = `${body(10)}${body(14)}`;
						const { env, yours } = route(value);
						const plan = await planLaunch(
							{
								name: 'srv',
								scope: 'user',
								type: 'stdio',
								command: process.execPath,
								args: [FIXTURE],
								env,
							},
							{
								identity: 'user:srv',
								folder: path.join(tree.base, 'ws'),
								userHome: tree.base,
								env: { PATH: process.env.PATH, ...yours },
							},
						);
						const started = await withInputs(plan, async () => undefined);
						const connection = new McpConnection(
							started.config,
							{
								callTimeoutMs: 10_000,
								connectTimeoutMs: 20_000,
								maxReconnects: 0,
								reconnectBaseMs: 100,
								clientVersion: 't',
								env: started.env,
							},
							() => undefined,
						);
						await connection.start();
						try {
							const deps = defaultToolDeps();
							const tools: ToolDefinition<any>[] = connection.tools
								.filter(t => t.name === 'whoami')
								.map(t =>
									mcpToolDefinition('srv', t, connection, (result, context) =>
										shapeOutput(result, deps, context),
									),
								);
							const harness = toolHarness(path.join(tree.base, 'ws'), { extra: tools });
							const result = await harness.run('mcp_srv_whoami', {});
							const secret = env.DB_PASSWORD ?? value;
							const raw = JSON.stringify(
								(await connection.call('whoami', {}, new AbortController().signal)).content,
							);
							return !raw.includes(secret)
								? 'the server did not receive the value (the attempt proves nothing)'
								: [result.output, result.card.output].join('\n').includes(secret)
									? `the result shows ${secret}`
									: undefined;
						} finally {
							await connection.stop();
						}
					},
					KLASS,
				));
		}
	});

	describe('the key in a file, a command and the log', () => {
		let tree: TempTree;
		before(() => {
			tree = tempTree('keel-held-files-');
			tree.add({ 'ws/README': 'x' });
		});
		after(() => tree.cleanup());

		for (const key of generatedKeys()) {
			it(`is cut from a read and from the log: ${key.slice(0, 6)}…`, () =>
				attack(
					`held key read and logged ${key.slice(0, 6)}`,
					async () => {
						holdSecret(key, 'API key', 4);
						tree.add({
							[`ws/notes-${key.length}.txt`]: `endpoint: https://proxy.local\nkey used: ${key}\n`,
						});
						const harness = toolHarness(path.join(tree.base, 'ws'));
						const read = await harness.run('read_file', { path: `notes-${key.length}.txt` });
						const lines: string[] = [];
						const channel = {
							info: (l: string) => lines.push(l),
							warn: (l: string) => lines.push(l),
							error: (l: string) => lines.push(l),
						};
						const logger = createOutputLogger(channel as never);
						logger.error('model request failed', new Error(`401 {"detail":"API key ${key} is invalid"}`));
						logger.info(`[mcp srv] using ${encodeURIComponent(key)}`);
						const seen = [read.output, read.card.output, ...lines].join('\n');
						return seen.includes(key) || seen.includes(encodeURIComponent(key))
							? `visible: ${seen.slice(0, 160)}`
							: undefined;
					},
					KLASS,
				));
		}
	});
});
