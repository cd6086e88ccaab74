// The tool system through the real loop: a ChatSession talking HTTP to the model double,
// real files, real git run by a real shell, a real HTTPS server. Checks what the model is
// sent back (filters, [tool_error] blocks, cached results) and what the card shows.
import * as assert from 'assert';
import { execFile, execFileSync } from 'child_process';
import * as path from 'path';
import * as z from 'zod';
import type { AgentEvent, ToolCallState } from '../../src/core/agent/events';
import {
	defaultToolPolicySettings,
	ToolPolicy,
	type ToolPolicySettings,
} from '../../src/core/agent/toolPolicy/toolPolicy';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import { ChatSession } from '../../src/core/session/chatSession';
import { defineTool, fail, ok } from '../../src/core/tools/defineTool';
import { NodeWorkspace } from '../../src/core/tools/files/nodeWorkspace';
import { ToolRegistry } from '../../src/core/tools/registry';
import { defaultToolDeps, type ToolDeps } from '../../src/core/tools/toolDeps';
import { createToolset } from '../../src/core/tools/toolset';
import { startModelDouble, text, toolCalls, type ModelDouble } from '../support/modelDouble';
import { tempTree, type TempTree } from '../support/tempTree';
import { selfSignedCert, startTlsServer, type RecordingServer } from '../support/tlsServer';
import { loadBashParser } from '../../src/core/shell/bashParser';

/** run_command on the local shell: the same envelope shape as the sandbox's, a real process. */
function localShell(root: string) {
	return defineTool({
		name: 'run_command',
		description: 'Run a shell command',
		input: z.object({ command: z.string() }),
		effect: 'exec',
		describe: input => `Run \`${input.command}\``,
		subjects: input => [{ kind: 'command', values: [input.command] }],
		execute: input =>
			new Promise(resolve => {
				execFile('bash', ['-c', input.command], { cwd: root }, (error, stdout, stderr) => {
					const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
					const body = [stdout.trimEnd(), stderr.trim() ? `[stderr]\n${stderr.trim()}` : '']
						.filter(Boolean)
						.join('\n');
					resolve(
						code === 0
							? ok(body, { exitCode: 0 })
							: fail(`\`${input.command}\` failed with exit code ${code}.\n${body}`, { exitCode: code }),
					);
				});
			}),
	});
}

type ToolMessage = { role: string; content: string; tool_call_id: string };

describe('tool system through the loop (filters, cache, taxonomy, anomaly guard)', function () {
	this.timeout(30_000);
	let double: ModelDouble;
	let tree: TempTree;
	let web: RecordingServer;
	let webHits = 0;
	let deps: ToolDeps;
	let events: AgentEvent[];

	before(async () => {
		// Command decisions read bash's own parse; this test's shell tool does not load it itself.
		await loadBashParser();
		double = await startModelDouble();
		const tls = selfSignedCert(['docs.test']);
		web = await startTlsServer(tls, (req, res) => {
			if (req.path === '/flaky' && ++webHits <= 2) {
				res.statusCode = 503;
				return res.end('busy');
			}
			if (req.path === '/limited') {
				res.statusCode = 429;
				return res.end('slow down');
			}
			res.setHeader('content-type', 'text/plain');
			res.end('the docs');
		});
		tree = tempTree('keel-toolsystem-');
		tree.add({
			'ws/a.txt': 'first version\n',
			'ws/src/f1.ts': 'export const a = 1;\n',
			'ws/src/f2.ts': 'export const b = 2;\n',
		});
		const ws = path.join(tree.base, 'ws');
		execFileSync(
			'bash',
			[
				'-c',
				'git init -q && git config user.email t@example.com && git config user.name T && git add -A && git commit -qm init && for i in 1 2; do echo "// edit" >> src/f$i.ts; done && echo new > notes.md',
			],
			{ cwd: ws },
		);
		deps = defaultToolDeps({
			network: {
				ca: tls.ca,
				resolver: async () => [{ address: '93.184.216.34', family: 4 }],
				route: () => ({ host: '127.0.0.1', port: web.port }),
			},
		});
	});
	after(async () => {
		await double.close();
		await web.close();
		tree.cleanup();
	});
	beforeEach(() => {
		double.reset();
		events = [];
	});

	function session(
		id: string,
		policy: Partial<ToolPolicySettings> = {},
		extra: { textMode?: boolean; askCommands?: boolean } = {},
	) {
		const ws = path.join(tree.base, 'ws');
		const registry = new ToolRegistry(createToolset(deps, [localShell(ws)]));
		const toolPolicy = new ToolPolicy(() => ({ ...defaultToolPolicySettings, infraRetryDelayMs: 1, ...policy }));
		const chat = new ChatSession({
			sessionId: id,
			createModel: async () => new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'glm-4.7-flash' }),
			modelLabel: () => 'glm-4.7-flash',
			registry,
			toolPolicy,
			workspace: new NodeWorkspace(ws),
			approvalSettings: () => ({
				autoApprove: { read: true, write: true, exec: !extra.askCommands, network: true },
			}),
			maxSteps: () => 25,
			systemPrompt: () => 'You are Keel.',
			recovery: () => ({
				backoffBaseMs: 1,
				backoffMaxMs: 10,
				...(extra.textMode ? { toolMode: 'text' as const } : {}),
			}),
		});
		chat.onDidEvent(e => events.push(e));
		return chat;
	}

	const toolMessages = (): ToolMessage[] => {
		const last = double.modelRequests[double.modelRequests.length - 1].body;
		return last.messages.filter((m: ToolMessage) => m.role === 'tool');
	};
	const finalCard = (id: string): ToolCallState => {
		const cards = events.filter(
			(e): e is Extract<AgentEvent, { type: 'toolCallUpdated' }> =>
				e.type === 'toolCallUpdated' && e.call.id === id,
		);
		return cards[cards.length - 1].call;
	};

	it('filters real git output by rule, says so in the result and on the card, keeps the raw text, and warns about credentials in the raw output', async () => {
		double.script(
			toolCalls([{ name: 'run_command', arguments: { command: 'cd . && git status 2>&1' }, id: 'st' }]),
			toolCalls([
				{
					name: 'run_command',
					arguments: {
						command:
							'printf "building\\nGITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789AB\\ndone\\n"',
					},
					id: 'sec',
				},
			]),
			text('done'),
		);
		await session('filters').send('what changed?');
		const [status, secret] = toolMessages();
		assert.match(status.content, /^On branch \w+$/m);
		assert.match(status.content, /^unstaged \(2\): M src\/f1\.ts, M src\/f2\.ts$/m);
		assert.match(status.content, /^untracked \(1\): notes\.md$/m);
		assert.match(
			status.content,
			/\[Keel filtered this output: \d+ → \d+ lines \(\d+% filtered, full\), rule git-status\. Unfiltered: read_output \{"ref":"(out_[\w-]+)"\}\]/,
		);
		const ref = /"ref":"(out_[\w-]+)"/.exec(status.content)![1];
		assert.match(
			(await deps.outputs.get('filters', ref)) ?? '',
			/\(use "git add <file>\.\.\." to update what will be committed\)/,
		);
		const card = finalCard('st');
		assert.strictEqual(card.filterConfidence, 'full');
		assert.strictEqual(card.filterRule, 'git-status');
		assert.strictEqual(card.rawOutputRef, ref);
		assert.ok(card.filtered && card.filtered.to < card.filtered.from);
		assert.match(
			secret.content,
			// One secret, counted once, though both the token and the assignment shapes match it.
			/\[Keel security: the command's raw output contains 1 credential-shaped string \(GitHub token\)/,
		);
		assert.doesNotMatch(secret.content, /ghp_abcdef/);
	});

	it('answers a repeated read from the session cache, and a write to the file drops it', async () => {
		double.script(
			toolCalls([{ name: 'read_file', arguments: { path: 'a.txt' }, id: 'r1' }]),
			toolCalls([{ name: 'read_file', arguments: { path: './a.txt' }, id: 'r2' }]),
			toolCalls([{ name: 'write_file', arguments: { path: 'a.txt', content: 'second version\n' }, id: 'w' }]),
			toolCalls([{ name: 'read_file', arguments: { path: 'a.txt' }, id: 'r3' }]),
			text('ok'),
		);
		const before = { ...deps.resultCache!.stats };
		await session('cache').send('read it twice, change it, read again');
		const reads = toolMessages().filter(m => m.tool_call_id.startsWith('r'));
		assert.match(reads[0].content, /first version/);
		assert.match(reads[1].content, /first version/);
		assert.match(reads[2].content, /second version/);
		assert.strictEqual(finalCard('r1').cached, undefined);
		assert.strictEqual(finalCard('r2').cached, true, './a.txt is the same call as a.txt');
		assert.strictEqual(finalCard('r3').cached, undefined, 'the write dropped the entry');
		assert.strictEqual(deps.resultCache!.stats.hits - before.hits, 1);
	});

	it('classifies failures: the model sees [tool_error] blocks, one reformat attempt, infrastructure retried', async () => {
		double.script(
			toolCalls([{ name: 'read_file', arguments: { path: 5 }, id: 'q1' }]),
			toolCalls([{ name: 'read_file', arguments: { path: 6 }, id: 'q2' }]),
			toolCalls([{ name: 'open_file', arguments: { path: 'a.txt' }, id: 'nf' }]),
			toolCalls([{ name: 'fetch', arguments: { url: 'https://docs.test/flaky' }, id: 'flaky' }]),
			toolCalls([{ name: 'fetch', arguments: { url: 'https://docs.test/limited' }, id: 'limited' }]),
			text('ok'),
		);
		await session('taxonomy').send('go');
		const byId = Object.fromEntries(toolMessages().map(m => [m.tool_call_id, m.content]));
		assert.match(
			byId.q1,
			/^\[tool_error\]\ncategory: type_mismatch\nerror: Invalid arguments for read_file: path: .*\nsuggestion: .*\nretryable: true/,
		);
		assert.match(
			byId.q2,
			/^\[tool_error\]\ncategory: type_mismatch\n[\s\S]*retryable: false/,
			'the second quality failure is final',
		);
		assert.match(byId.nf, /^\[tool_error\]\ncategory: tool_not_found\nerror: There is no tool named "open_file"/);
		assert.match(byId.flaky, /the docs/, 'two 503s were retried without the model');
		assert.strictEqual(events.filter(e => e.type === 'notice' && e.code === 'toolRetry').length >= 2, true);
		assert.match(
			byId.limited,
			/^\[tool_error\]\ncategory: rate_limited\nerror: https:\/\/docs\.test\/limited answered HTTP 429\.\nsuggestion: Rate limit exceeded\. The system will retry if possible\.\nretryable: true$/,
		);
		assert.strictEqual(finalCard('limited').errorCategory, 'rate_limited');
	});

	it('blocks a tool that keeps failing: still offered in its place, its calls refused, a notice, and unblocking lets it run', async () => {
		const calls = Array.from({ length: 4 }, (_, i) =>
			toolCalls([{ name: 'list_directory', arguments: { path: `missing${i}` }, id: `m${i}` }]),
		);
		double.script(...calls, text('gave up'));
		const chat = session('anomaly', {
			anomaly: { enabled: true, windowSize: 10, failureThreshold: 0.7, minCalls: 3 },
		});
		await chat.send('list them');
		const names = (i: number) =>
			(double.modelRequests[i].body.tools as Array<{ function: { name: string } }>).map(t => t.function.name);
		// Blocked after the third failure, yet offered as before: removing it would make a local
		// server re-read the whole conversation. The call is refused with the reason instead.
		assert.deepStrictEqual(names(3), names(2));
		assert.match(
			toolMessages().find(m => m.tool_call_id === 'm3')!.content,
			/^\[tool_error\]\ncategory: policy_blocked\nerror: list_directory is blocked for this session/,
		);
		const notice = events.find(e => e.type === 'notice' && e.code === 'toolBlocked');
		assert.match(
			notice && 'text' in notice ? notice.text : '',
			/list_directory failed in 100% of its recent calls and is blocked for this chat/,
		);
		const policy = (chat as unknown as { _deps: { toolPolicy: ToolPolicy } })._deps.toolPolicy;
		assert.deepStrictEqual(policy.session('anomaly').anomaly.unblock(), ['list_directory']);
		double.script(text('ok'));
		await chat.send('again');
		assert.ok(names(5).includes('list_directory'));
	});

	it('text mode: a reply ending in a bash block runs as run_command after approval, filtered like any command', async () => {
		double.script(text('Let me look.\n```bash\ngit status\n```'), text('Two files changed.'));
		const chat = session('textmode', {}, { textMode: true, askCommands: true });
		const asked: string[] = [];
		chat.onDidEvent(event => {
			if (event.type === 'toolCallUpdated' && event.call.status === 'awaitingApproval') {
				asked.push(event.call.title);
				chat.decide(event.call.id, true);
			}
		});
		const outcome = await chat.send('what changed?');
		assert.strictEqual(outcome.reason, 'completed');
		assert.deepStrictEqual(asked, ['Run `git status`']);
		const system = double.modelRequests[0].body.messages[0].content as string;
		assert.match(system, /end your reply with a ```bash block/);
		const second = JSON.stringify(double.modelRequests[1].body.messages);
		assert.match(second, /unstaged \(\d\): [^\n]*M src\/f1\.ts, M src\/f2\.ts[\s\S]*rule git-status/);
	});
});
