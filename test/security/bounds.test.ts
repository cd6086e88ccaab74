// Bounds on everything a model can make large, through the real paths: a write of a file with
// every line different (the card says the diff is too large and how large, the write happens),
// a call whose arguments are 50 MB (streamed by the model double into the agent loop: not run,
// the model told why, the history and the next request stay small), commands that print one
// 100 MB line or 200 MB (real Docker sandbox: the result is bounded and a secret at its end is
// still cut), an MCP result of 9.5 MB (our own server), and lines that used to overflow the
// redactor's stack, a 50 MB text answer (stopped at the bound, with a notice). The longest task
// of the event loop is printed for each. Times are figures in `npm run bench -- bounds`, never verdicts here.
import * as fs from 'fs';
import * as path from 'path';
import { runTurn } from '../../src/core/agent/loop/runAgent';
import { MAX_ANSWER_CHARS, MAX_ARGUMENT_CHARS } from '../../src/core/agent/loop/callBounds';
import { DockerRunner } from '../../src/core/exec/dockerRunner';
import { defaultLimits } from '../../src/core/exec/sandbox/sandboxSpec';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { redactDeep, redactSecrets } from '../../src/core/gate/redact/redact';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import type { ToolDefinition } from '../../src/core/tools/defineTool';
import { NodeWorkspace } from '../../src/core/tools/files/nodeWorkspace';
import { ToolRegistry } from '../../src/core/tools/registry';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { McpConnection } from '../../src/core/tools/sources/mcpConnection';
import { mcpToolDefinition } from '../../src/core/tools/sources/mcpTools';
import { defaultToolDeps } from '../../src/core/tools/toolDeps';
import { createToolset, KEPT_OUTPUT_CHARS, shapeOutput } from '../../src/core/tools/toolset';
import { toToolCallView } from '../../src/host/view/toolCallView';
import { DOCKERFILE_DIR, requireDocker } from '../support/dockerEngine';
import { startModelDouble, text, toolCalls, type ModelDouble } from '../support/modelDouble';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness } from '../support/toolHarness';
import { doubleProcess, longestTask, LONGEST_TASK_MS } from './support/loopWatch';
import { attack } from './tally';

const KLASS = 'bounds on what a model can make large';
const FIXTURE = path.resolve(__dirname, '../fixtures/mcp/fixtureServer.js');
const TOKEN = `ghp_${'Zx9k2LmQ7rT4vW8yB3nC6dF1gH5jK0pS2uX4'}`;

function randomLines(bytes: number): string {
	const lines: string[] = [];
	for (let size = 0, i = 0; size < bytes; i++) {
		const line = `line ${i} ${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
		lines.push(line);
		size += line.length + 1;
	}
	return lines.join('\n');
}

describe(`security: ${KLASS}`, function () {
	this.timeout(600_000);
	let tree: TempTree;
	let ws: string;
	before(() => {
		tree = tempTree('keel-bounds-');
		tree.add({ 'ws/README': 'x' });
		ws = fs.realpathSync(path.join(tree.base, 'ws'));
	});
	after(() => tree.cleanup());

	for (const bytes of [400_000, 1_500_000]) {
		it(`a write of ${bytes / 1e6} MB with every line different: written, the card says how large the change is`, () =>
			attack(
				`bounds write ${bytes}`,
				async () => {
					const file = `big-${bytes}.txt`;
					fs.writeFileSync(path.join(ws, file), randomLines(bytes));
					const content = randomLines(bytes);
					const harness = toolHarness(ws);
					const result = await harness.run('write_file', { path: file, content });
					const card = toToolCallView(result.card);
					const notice = card.diffs?.[0]?.notice ?? '';
					return fs.readFileSync(path.join(ws, file), 'utf8') !== content
						? `the file was not written: ${result.output}`
						: !/^diff too large to show: \d+(\.\d)? [KM]B, [\d,]+ changed lines — Open diff shows it in the editor$/.test(
									notice,
							  )
							? `the card's notice is ${JSON.stringify(notice)}`
							: result.card.diffs?.[0]?.after !== content
								? '"Open diff" would not have the new content'
								: !/^Wrote .* \(\+\d+ −\d+ lines\)\.$/.test(result.output)
									? `the result is ${result.output}`
									: undefined;
				},
				KLASS,
			));
	}

	describe('a call whose arguments are 50 MB', () => {
		let double: ModelDouble;
		before(async () => (double = await startModelDouble()));
		after(() => double.close());

		it('is not run, the model is told why, and the next request is small', () =>
			attack(
				'bounds 50 MB argument',
				async () => {
					const content = 'x'.repeat(50 * 1024 * 1024);
					double.script(
						toolCalls([{ name: 'write_file', arguments: { path: 'huge.txt', content } }], { split: 2000 }),
						text('done'),
					);
					const cards: string[] = [];
					const outcome = await runTurn(
						{
							model: new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'm' }),
							registry: new ToolRegistry(createToolset(defaultToolDeps())),
							approvals: undefined,
							approvalSettings: { autoApprove: { read: true, write: true, exec: false, network: false } },
							workspace: new NodeWorkspace(ws),
							systemPrompt: 'sys',
							maxSteps: 4,
							emit: event => {
								if (event.type === 'toolCallUpdated')
									cards.push(toToolCallView(event.call).argumentsText);
							},
						},
						[],
						'write it',
						't1',
						new AbortController().signal,
					);
					const result = outcome.messages.find(m => m.kind === 'tool_result');
					const next = double.requests[double.requests.length - 1];
					const nextSize = JSON.stringify(next.body).length;
					return fs.existsSync(path.join(ws, 'huge.txt'))
						? 'the file was written'
						: !JSON.stringify(result).includes('it was not run')
							? `the model was told: ${JSON.stringify(result).slice(0, 200)}`
							: double.requests.length < 2 || nextSize > 1_000_000
								? `the next request is ${nextSize} characters`
								: Math.max(...cards.map(c => c.length)) > 64 * 1024
									? `a card carried ${Math.max(...cards.map(c => c.length))} characters of arguments`
									: undefined;
				},
				KLASS,
			));
	});

	describe("a model that streams a lot (the model double in its own process, so the figures are the host's own)", () => {
		/** One turn against a double serving `steps`: what the chat was sent, the history, and the longest task. */
		async function turn(steps: unknown[]) {
			const double = await doubleProcess(steps);
			try {
				let shownChars = 0;
				let cardChars = 0;
				const { result: outcome, longestMs } = await longestTask(() =>
					runTurn(
						{
							model: new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'm' }),
							registry: new ToolRegistry(createToolset(defaultToolDeps())),
							approvals: undefined,
							approvalSettings: { autoApprove: { read: true, write: true, exec: false, network: false } },
							workspace: new NodeWorkspace(ws),
							systemPrompt: 'sys',
							maxSteps: 3,
							emit: event => {
								if (event.type === 'textDelta') shownChars += event.text.length;
								if (event.type === 'toolCallUpdated')
									cardChars = Math.max(cardChars, toToolCallView(event.call).argumentsText.length);
							},
						},
						[],
						'go',
						't1',
						new AbortController().signal,
					),
				);
				return { outcome, longestMs, shownChars, cardChars };
			} finally {
				double.stop();
			}
		}

		it('a 50 MB text answer: stopped at the bound with a plain notice', () =>
			attack(
				'bounds 50 MB text answer',
				async () => {
					const answer = randomLines(50 * 1024 * 1024);
					const { outcome, longestMs, shownChars } = await turn([
						text(answer, { chunks: Math.ceil(answer.length / 4096) }),
						text('again'),
					]);
					console.log(
						`    50 MB text answer: longest task ${longestMs} ms (budget ${LONGEST_TASK_MS} ms), ${shownChars} characters shown`,
					);
					const said = JSON.stringify(outcome.messages);
					return shownChars > MAX_ANSWER_CHARS + 4096
						? `the chat was sent ${shownChars} characters`
						: said.length > MAX_ANSWER_CHARS * 1.2
							? `the history holds ${said.length} characters`
							: !said.includes('Keel stopped this answer')
								? 'no notice says the answer was stopped'
								: undefined;
				},
				KLASS,
			));

		it('a 50 MB tool argument: the card stays small', () =>
			attack(
				'bounds 50 MB argument, responsive',
				async () => {
					const content = 'x'.repeat(50 * 1024 * 1024);
					const { longestMs, cardChars } = await turn([
						toolCalls([{ name: 'write_file', arguments: { path: 'huge2.txt', content } }], {
							split: 12_800,
						}),
						text('done'),
					]);
					console.log(`    50 MB argument: longest task ${longestMs} ms (budget ${LONGEST_TASK_MS} ms)`);
					return cardChars > 64 * 1024 ? `a card carried ${cardChars} characters` : undefined;
				},
				KLASS,
			));
	});

	describe('commands that print a lot (real Docker sandbox)', () => {
		let runner: DockerRunner;
		let shell: ToolDefinition<any>[];
		before(requireDocker());
		before(() => {
			runner = new DockerRunner({
				workspaceRoot: ws,
				settings: () => ({ image: { kind: 'managed', dockerfileDir: DOCKERFILE_DIR }, limits: defaultLimits }),
			});
			shell = createShellTools({
				selector: new ShellBackendSelector(() => 'docker', runner, undefined),
				settings: () => ({ timeoutSeconds: 300, outputLimitBytes: 1 << 20, memoryMb: 512, pids: 256 }),
			});
		});
		after(() => runner?.disposeAsync());

		for (const [label, command] of [
			['one 100 MB line', `head -c 100000000 /dev/zero | tr '\\0' a; echo; echo "${TOKEN}"`],
			['200 MB of output', `yes "a line of output" | head -c 200000000; echo "${TOKEN}"`],
		] as const) {
			it(`${label}: the result is bounded, and a secret at its end is still cut`, () =>
				attack(
					`bounds command ${label}`,
					async () => {
						const harness = toolHarness(ws, { extra: shell });
						const { result, longestMs } = await longestTask(() => harness.run('run_command', { command }));
						// A figure, not a verdict (npm run bench -- bounds prints it beside the budget).
						console.log(`    ${label}: longest task ${longestMs} ms (budget ${LONGEST_TASK_MS} ms)`);
						const shown = [result.output, result.card.output ?? '', result.card.progress ?? ''].join('\n');
						return shown.includes(TOKEN.slice(4))
							? 'the token at the end is visible'
							: !shown.includes('[REDACTED')
								? 'the token at the end was dropped, not cut: the tail was not kept'
								: result.output.length > 4 * 1024 * 1024
									? `the result holds ${result.output.length} characters`
									: undefined;
					},
					KLASS,
				));
		}
	});

	it('an MCP result of 9.5 MB is kept up to the bound, its end included', () =>
		attack(
			'bounds MCP 9.5 MB',
			async () => {
				const connection = new McpConnection(
					{ name: 'big', scope: 'user', type: 'stdio', command: process.execPath, args: [FIXTURE] },
					{
						callTimeoutMs: 120_000,
						connectTimeoutMs: 20_000,
						maxReconnects: 0,
						reconnectBaseMs: 100,
						clientVersion: 't',
					},
					() => undefined,
				);
				await connection.start();
				try {
					const deps = defaultToolDeps();
					let stored = 0;
					deps.outputs.put = async (_session: string, text: string) => ((stored = text.length), 'out_x');
					const tools = connection.tools
						.filter(t => t.name === 'large')
						.map(t =>
							mcpToolDefinition('big', t, connection, (result, context) =>
								shapeOutput(result, deps, context),
							),
						);
					const harness = toolHarness(ws, { extra: tools, deps });
					// Past Keel's bound and under the SDK's own (its stdio reader refuses a message over 10 MiB).
					const result = await harness.run('mcp_big_large', { size: 9.5 * 1024 * 1024, tail: TOKEN });
					return stored === 0 || stored > KEPT_OUTPUT_CHARS + 4096
						? `${stored} characters were kept: ${result.output.slice(0, 600)}`
						: result.output.includes(TOKEN.slice(4))
							? 'the token at the end is visible'
							: undefined;
				} finally {
					await connection.stop();
				}
			},
			KLASS,
		));

	it('lines that overflowed the redactor are redacted, a secret at their end cut', () =>
		attack(
			'bounds redactor stack',
			async () => {
				const line = `${'a'.repeat(19 * 1024 * 1024)} ${TOKEN}`;
				const argument = JSON.stringify({
					path: 'x',
					content: `${'b'.repeat(MAX_ARGUMENT_CHARS * 6)} password: "${TOKEN}"`,
				});
				let nested: unknown = TOKEN;
				for (let i = 0; i < 500_000; i++) nested = { a: nested };
				const outs = [
					redactSecrets(line).text,
					redactSecrets(argument).text,
					JSON.stringify(redactDeep([nested]).hits),
				];
				return outs.slice(0, 2).some(out => out.includes(TOKEN.slice(4)))
					? 'a token at the end of a long line is visible'
					: outs[2] === '[]'
						? 'the token deep in structured content was not found'
						: undefined;
			},
			KLASS,
		));
});
