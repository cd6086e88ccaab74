/**
 * What a model can make large, through the real paths, with the extension host's longest
 * event-loop block (perf_hooks monitorEventLoopDelay, its max) beside the wall time: a write
 * card's diff (400 KB and 1.5 MB of different lines, the card as the host makes it), a call
 * whose arguments are 50 MB (streamed by the model double in another process through the
 * OpenAI wire into the agent loop), a command printing one 100 MB line and one printing 200 MB
 * (the Docker sandbox), and the redactor's throughput on a 512 KiB line and a 50 MB output.
 * Budget: no block over 200 ms. References are the figures before the bounds (same inputs, this
 * kind of machine: the 24.7 s stall is the reported one, the others measured on the code before).
 */
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { monitorEventLoopDelay } from 'perf_hooks';
import { defaultApprovalSettings } from '../src/core/agent/approval/approvalPolicy';
import type { AgentEvent } from '../src/core/agent/events';
import { runTurn } from '../src/core/agent/loop/runAgent';
import { runToolCall } from '../src/core/agent/loop/toolExecution';
import { DockerRunner } from '../src/core/exec/dockerRunner';
import { defaultLimits } from '../src/core/exec/sandbox/sandboxSpec';
import { ShellBackendSelector } from '../src/core/exec/shellBackend';
import { redactSecrets, redactSecretsAsync } from '../src/core/gate/redact/redact';
import { OpenAIChatModel } from '../src/core/llm/wires/openai/openaiChatModel';
import { NodeWorkspace } from '../src/core/tools/files/nodeWorkspace';
import { ToolRegistry } from '../src/core/tools/registry';
import { createShellTools } from '../src/core/tools/shell/shellTools';
import { defaultToolDeps } from '../src/core/tools/toolDeps';
import { createToolset } from '../src/core/tools/toolset';
import { toToolCallView } from '../src/host/view/toolCallView';
import { DoubleControl } from '../test/support/modelDouble/control';
import { toolCalls, text } from '../test/support/modelDouble/builders';
import { printTable } from './table';

export const title = 'Bounds: what a model can make large, and the longest block of the event loop (budget 200 ms)';

const BUDGET_MS = 200;

interface Measured {
	ms: number;
	longestMs: number;
	note: string;
}

/** Runs `fn` with the event loop's delay monitored: wall time and the longest block. */
async function measured(fn: () => Promise<string>): Promise<Measured> {
	const histogram = monitorEventLoopDelay({ resolution: 10 });
	await new Promise(resolve => setTimeout(resolve, 20));
	histogram.enable();
	const started = performance.now();
	let note: string;
	try {
		note = await fn();
	} catch (error) {
		note = `failed: ${(error as Error).message.slice(0, 80)}`;
	}
	const ms = performance.now() - started;
	await new Promise(resolve => setTimeout(resolve, 20));
	histogram.disable();
	return { ms, longestMs: histogram.max / 1e6, note };
}

function randomLines(bytes: number): string {
	const lines: string[] = [];
	let size = 0;
	for (let i = 0; size < bytes; i++) {
		const line = `line ${i} ${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
		lines.push(line);
		size += line.length + 1;
	}
	return lines.join('\n');
}

/** One tool call through the real pipeline (registry → prepare → approval → execute → shaping), its cards made as the host makes them. */
async function toolCall(
	root: string,
	extra: ReturnType<typeof createShellTools>,
	name: string,
	args: unknown,
): Promise<string> {
	const registry = new ToolRegistry(createToolset(defaultToolDeps(), extra));
	const result = await runToolCall(
		{ id: `c${Math.random()}`, name, rawArguments: JSON.stringify(args) },
		{
			turnId: 't',
			registry,
			approvals: undefined,
			approvalSettings: { autoApprove: { read: true, write: true, exec: true, network: false } },
			workspace: new NodeWorkspace(root),
			signal: new AbortController().signal,
			sessionId: 'bench',
			emit: (event: AgentEvent) => {
				if (event.type === 'toolCallUpdated') toToolCallView(event.call);
			},
		},
	);
	return result.output.split('\n')[0].slice(0, 70);
}

export async function writes(root: string): Promise<Array<Array<string | number>>> {
	const rows: Array<Array<string | number>> = [];
	// A first small write loads and compiles what every write uses, so the figures are the bounds' own.
	fs.writeFileSync(path.join(root, 'warm.txt'), randomLines(20_000));
	await toolCall(root, [], 'write_file', { path: 'warm.txt', content: randomLines(20_000) });
	for (const [label, bytes, reference] of [
		['write_file 400 KB, every line different', 400_000, 'stalled 24.7 s (did not finish in 400 s here)'],
		['write_file 1.5 MB, every line different', 1_500_000, 'did not finish in a minute'],
	] as const) {
		fs.writeFileSync(path.join(root, 'big.txt'), randomLines(bytes));
		const content = randomLines(bytes);
		const m = await measured(() => toolCall(root, [], 'write_file', { path: 'big.txt', content }));
		rows.push([label, m.ms, m.longestMs, BUDGET_MS, reference, m.note]);
	}
	return rows;
}

/** The model double in a process of its own, so its work is not counted as the host's. */
async function startDouble(): Promise<{ control: DoubleControl; url: string; child: ChildProcess }> {
	const child = spawn(process.execPath, [path.join(__dirname, '../test/support/modelDouble/cli.js')], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const url = await new Promise<string>((resolve, reject) => {
		let out = '';
		child.stdout!.on('data', chunk => {
			out += chunk;
			const found = /MODEL_DOUBLE_URL=(\S+)/.exec(out);
			if (found) resolve(found[1]);
		});
		child.once('exit', code => reject(new Error(`the model double exited (${code})`)));
	});
	return { control: new DoubleControl(url), url, child };
}

export async function hugeArgument(root: string): Promise<Array<Array<string | number>>> {
	const { control, url, child } = await startDouble();
	try {
		const content = 'x'.repeat(50 * 1024 * 1024);
		await control.script(
			toolCalls([{ name: 'write_file', arguments: { path: 'huge.txt', content } }], { split: 5000 }),
			text('done'),
		);
		const registry = new ToolRegistry(createToolset(defaultToolDeps()));
		const m = await measured(async () => {
			const outcome = await runTurn(
				{
					model: new OpenAIChatModel({ baseUrl: `${url}/v1`, model: 'm' }),
					registry,
					approvals: undefined,
					approvalSettings: {
						...defaultApprovalSettings,
						autoApprove: { read: true, write: true, exec: false, network: false },
					},
					workspace: new NodeWorkspace(root),
					systemPrompt: 'sys',
					maxSteps: 4,
					emit: event => {
						if (event.type === 'toolCallUpdated') toToolCallView(event.call);
					},
				},
				[],
				'write it',
				't1',
				new AbortController().signal,
			);
			const result = outcome.messages.find(message => message.kind === 'tool_result');
			return result ? JSON.stringify(result).slice(0, 90) : outcome.reason;
		});
		// A 50 MB text answer: stopped at the answer bound with a notice.
		await control.script(text(randomLines(50 * 1024 * 1024), { chunks: 12_800 }), text('again'));
		const answer = await measured(async () => {
			const outcome = await runTurn(
				{
					model: new OpenAIChatModel({ baseUrl: `${url}/v1`, model: 'm' }),
					registry,
					approvals: undefined,
					approvalSettings: defaultApprovalSettings,
					workspace: new NodeWorkspace(root),
					systemPrompt: 'sys',
					maxSteps: 2,
					emit: () => undefined,
				},
				[],
				'say it',
				't2',
				new AbortController().signal,
			);
			return `${JSON.stringify(outcome.messages).length} characters kept`;
		});
		return [
			['a call with a 50 MB argument (model double → agent loop)', m.ms, m.longestMs, BUDGET_MS, '—', m.note],
			[
				'a 50 MB text answer (model double → agent loop)',
				answer.ms,
				answer.longestMs,
				BUDGET_MS,
				'—',
				answer.note,
			],
		];
	} finally {
		child.kill();
	}
}

export async function commands(root: string): Promise<Array<Array<string | number>>> {
	const runner = new DockerRunner({
		workspaceRoot: root,
		settings: () => ({
			image: { kind: 'managed', dockerfileDir: path.resolve(__dirname, '../../sandbox') },
			limits: defaultLimits,
		}),
	});
	try {
		if (!(await runner.available())) {
			return [['run_command (Docker sandbox)', '—', '—', BUDGET_MS, '—', 'no Docker engine answers']];
		}
		const shell = createShellTools({
			selector: new ShellBackendSelector(() => 'docker', runner, undefined),
			settings: () => ({ timeoutSeconds: 120, outputLimitBytes: 1 << 20, memoryMb: 512, pids: 256 }),
		});
		// Warm the container, so its start is not in the figure.
		await toolCall(root, shell, 'run_command', { command: 'true' });
		const rows: Array<Array<string | number>> = [];
		for (const [label, command, before] of [
			[
				'run_command printing one 100 MB line',
				"head -c 100000000 /dev/zero | tr '\\0' a",
				'longest block 472 ms',
			],
			[
				'run_command printing 200 MB of output',
				'yes "a line of output, again and again" | head -c 200000000',
				'longest block 428 ms',
			],
		] as const) {
			const m = await measured(() => toolCall(root, shell, 'run_command', { command }));
			rows.push([label, m.ms, m.longestMs, BUDGET_MS, before, m.note]);
		}
		return rows;
	} finally {
		await runner.disposeAsync();
	}
}

async function redaction(): Promise<Array<Array<string | number>>> {
	const line = Buffer.from(Array.from({ length: 384 * 1024 }, () => Math.floor(Math.random() * 256))).toString(
		'base64',
	);
	const output = Array.from(
		{ length: 700_000 },
		(_, i) => `[${String(i).padStart(7, '0')}] compiling src/module${i % 97}/file${i % 13}.ts (${i * 7} ms)`,
	)
		.join('\n')
		.slice(0, 50 * 1024 * 1024);
	redactSecrets('warm up: token=abc ghp_x');
	const sync = performance.now();
	redactSecrets(line);
	const lineMs = performance.now() - sync;
	const m = await measured(async () => `${(await redactSecretsAsync(output)).hits.length} hits`);
	return [
		[
			'redact one 512 KiB line (base64, no spaces)',
			lineMs,
			lineMs,
			1000,
			'9 s (7.4 s of CPU here)',
			`${(0.5 / (lineMs / 1000)).toFixed(1)} MB/s`,
		],
		[
			'redact a 50 MB build log, a slice at a time',
			m.ms,
			m.longestMs,
			BUDGET_MS,
			'—',
			`${(50 / (m.ms / 1000)).toFixed(1)} MB/s; ${m.note}`,
		],
	];
}

export async function run(): Promise<void> {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-bounds-bench-'));
	try {
		const rows = [
			...(await writes(root)),
			...(await hugeArgument(root)),
			...(await commands(root)),
			...(await redaction()),
		];
		printTable(['what', 'wall ms', 'longest block ms', 'budget ms', 'before', 'result'], rows);
	} finally {
		fs.rmSync(root, { recursive: true, force: true });
	}
}
