/**
 * Runs the golden set against any OpenAI-compatible server through the real loop and scores
 * each task by its outcome (files, calls, answer), per dimension.
 */
import type { AgentEvent } from '../../src/core/agent/events';
import { InMemoryToolModeMemory } from '../../src/core/agent/recovery/recoverySettings';
import { runTurn } from '../../src/core/agent/loop/runAgent';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import { ToolRegistry } from '../../src/core/tools/registry';
import { TaskFiles } from '../../test/support/resilience/taskTools';
import type { GoldenTask } from './golden';

export interface EvalOptions {
	baseUrl: string;
	model: string;
	apiKey?: string;
	recovery: boolean;
	maxSteps?: number;
	timeoutMs?: number;
}

export interface TaskResult {
	id: string;
	dimension: string;
	passed: boolean;
	why: string;
	toolCalls: number;
	notices: string[];
}

export async function runTask(task: GoldenTask, options: EvalOptions): Promise<TaskResult> {
	const files = new TaskFiles(task.files);
	const events: AgentEvent[] = [];
	const abort = new AbortController();
	const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 180_000);
	const outcome = await runTurn(
		{
			model: new OpenAIChatModel({ baseUrl: options.baseUrl, model: options.model, apiKey: options.apiKey }),
			registry: new ToolRegistry(files.tools()),
			approvals: undefined,
			approvalSettings: { autoApprove: { read: true, write: true } },
			workspace: files.workspace,
			systemPrompt:
				'You are Keel, a coding agent. Use the tools to look at and change files; paths are relative. Answer concisely.',
			maxSteps: options.maxSteps ?? 12,
			emit: event => events.push(event),
			recovery: options.recovery ? {} : { enabled: false },
			toolModeMemory: new InMemoryToolModeMemory(),
		},
		[],
		task.prompt,
		task.id,
		abort.signal,
	).finally(() => clearTimeout(timer));
	const toolCalls = events.filter(e => e.type === 'messageAppended' && e.message.kind === 'tool_call').length;
	const notices = events.flatMap(e => (e.type === 'notice' ? [e.code] : []));
	const answer = outcome.messages
		.filter(m => m.kind === 'assistant')
		.map(m => m.content)
		.join('\n');
	const base = { id: task.id, dimension: task.dimension, toolCalls, notices };
	if (outcome.reason !== 'completed') {
		return { ...base, passed: false, why: `turn ${outcome.reason}: ${outcome.error?.message ?? ''}`.trim() };
	}
	const { check } = task;
	if (check.file) {
		const content = files.files.get(check.file.path);
		if (content?.trim() !== check.file.equals.trim()) {
			return {
				...base,
				passed: false,
				why: `${check.file.path} is ${content === undefined ? 'missing' : JSON.stringify(content.slice(0, 80))}`,
			};
		}
	}
	if (check.calledWith) {
		const want = check.calledWith;
		const hit = outcome.messages.some(
			m =>
				m.kind === 'tool_call' &&
				m.data.name === want.name &&
				Object.entries(want.args).every(
					([k, v]) => (m.data.arguments as Record<string, unknown> | undefined)?.[k] === v,
				),
		);
		if (!hit) {
			return { ...base, passed: false, why: `no ${want.name} call with ${JSON.stringify(want.args)}` };
		}
	}
	for (const needle of check.answerIncludes ?? []) {
		if (!answer.toLowerCase().includes(needle.toLowerCase())) {
			return { ...base, passed: false, why: `answer lacks "${needle}"` };
		}
	}
	return { ...base, passed: true, why: '' };
}

export async function runEval(
	tasks: GoldenTask[],
	options: EvalOptions,
	onResult?: (result: TaskResult) => void,
): Promise<TaskResult[]> {
	const results: TaskResult[] = [];
	for (const task of tasks) {
		const result = await runTask(task, options);
		onResult?.(result);
		results.push(result);
	}
	return results;
}

/** Pass rate per dimension, then overall: rows for printTable. */
export function summarizeEval(results: TaskResult[]): Array<[string, string, string]> {
	const dims = [...new Set(results.map(r => r.dimension))];
	const row = (label: string, rs: TaskResult[]): [string, string, string] => [
		label,
		`${rs.filter(r => r.passed).length}/${rs.length}`,
		`${((100 * rs.filter(r => r.passed).length) / Math.max(1, rs.length)).toFixed(0)}%`,
	];
	return [
		...dims.map(d =>
			row(
				d,
				results.filter(r => r.dimension === d),
			),
		),
		row('overall', results),
	];
}
