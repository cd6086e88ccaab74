import { setTimeout as delay } from 'timers/promises';
import type { Approver } from '../agent/approval/approvalGate';
import type { AgentEvent } from '../agent/events';
import { runTurn } from '../agent/loop/runAgent';
import { buildSystemPrompt } from '../agent/loop/systemPrompt';
import { InMemoryToolModeMemory, type RecoverySettings } from '../agent/recovery/recoverySettings';
import { AgentError } from '../errors';
import type { CanonicalMessage } from '../llm/canonical';
import type { Workspace } from '../ports';
import type { ToolDefinition } from '../tools/defineTool';
import { NodeWorkspace } from '../tools/files/nodeWorkspace';
import { ToolRegistry } from '../tools/registry';
import { defaultToolDeps } from '../tools/toolDeps';
import { createToolset } from '../tools/toolset';
import { defaultToolSystemConfig, overflowThreshold } from '../tools/toolSystemConfig';
import type { MeteredChatModel } from './meter';
import type { ForcingMemory } from '../agent/recovery/forcingMemory';
import { brokenCalls, classifyRecoveries } from './recoveries';
import type { ScratchFolder } from './scratch';
import type { CheckTask, TrialView } from './suite';
import type { ToolCallMode, TrialResult } from './types';

export interface TrialEnv {
	model: MeteredChatModel;
	scratch: ScratchFolder;
	/** run_command bound to the sandbox; absent when commands cannot run in Docker. */
	shellTools?: ToolDefinition<any>[];
	recovery: Partial<RecoverySettings>;
	/** keel.model.contextWindow: plans the requests and sizes tool output, as in the chat. */
	contextWindow: number;
	/** What the server does with a forced call, as the probe measured it: trials recover as the chat would. */
	forcingMemory?: ForcingMemory;
	signal: AbortSignal;
	/** A trial with no answer after this long fails as a timeout. */
	trialTimeoutMs: number;
	now(): number;
}

/** Tools that could reach past the scratch folder (the network) or need VS Code (its problems) are not offered. */
/** How long a stopped call may go on writing before the folder is reset regardless. */
const ABANDONED_WAIT_MS = 30_000;

const LEFT_OUT = new Set(['fetch', 'web_scrape', 'diagnostics']);

/**
 * Nobody is there to ask during a check. A command is approved: run_command is offered only
 * when it runs in the sandbox, which sees the scratch workspace alone (a script the policy
 * cannot see into asks even when commands are auto-approved). Anything else that asks is refused.
 */
const sandboxOnly: Approver = {
	request: async call =>
		call.name === 'run_command'
			? { approved: true }
			: { approved: false, reason: 'Check Model runs unattended, and this call would need your approval.' },
};

/**
 * One task, once, in one tool-call mode: a fresh copy of its files, the real loop with the real
 * tools on them (reads, writes and sandboxed commands approved, anything else refused as it
 * would be with nobody there to ask), then the task's check on what the turn left behind.
 */
export async function runTrial(
	task: CheckTask,
	mode: ToolCallMode,
	trial: number,
	env: TrialEnv,
): Promise<TrialResult> {
	await env.scratch.reset(task.files, task.outside);
	env.model.startTrial(mode);
	const firstSample = env.model.samples.length;
	const events: AgentEvent[] = [];
	const timeout = AbortSignal.timeout(env.trialTimeoutMs);
	const started = env.now();
	const deps = defaultToolDeps({
		toolSystem: () => defaultToolSystemConfig({ overflowChars: overflowThreshold(env.contextWindow) }),
	});
	const tools = createToolset(deps, env.shellTools ?? []).filter(tool => !LEFT_OUT.has(tool.name));
	const workspace = new NodeWorkspace(env.scratch.workspace);
	const outcome = await runTurn(
		{
			model: env.model,
			registry: new ToolRegistry(tools),
			approvals: sandboxOnly,
			approvalSettings: { autoApprove: { read: true, write: true, exec: env.shellTools !== undefined } },
			workspace,
			systemPrompt: buildSystemPrompt(workspace.rootName),
			maxSteps: task.maxSteps ?? 12,
			emit: event => events.push(event),
			sessionId: `check-${task.id}-${mode}-${trial}`,
			recovery: { ...env.recovery, contextWindow: env.contextWindow, toolMode: mode },
			// Fresh per trial: one trial's switch to text must not decide the next one's mode.
			toolModeMemory: new InMemoryToolModeMemory(),
			forcingMemory: env.forcingMemory,
		},
		[],
		task.prompt,
		`${task.id}-${mode}-${trial}`,
		AbortSignal.any([env.signal, timeout]),
	);
	// A call the cancel or the trial's timeout left running must finish before the scratch folder
	// is reset or removed, or its late write brings the folder back after the check.
	await Promise.race([outcome.settled, delay(ABANDONED_WAIT_MS, undefined, { ref: false })]);
	if (env.signal.aborted) {
		throw new AgentError('cancelled', 'Check Model was cancelled.');
	}
	const durationMs = env.now() - started;
	const timedOut = timeout.aborted;
	const recoveries = classifyRecoveries(events, outcome.messages, mode);
	const usage = events.filter((e): e is Extract<AgentEvent, { type: 'usage' }> => e.type === 'usage');
	const base = {
		taskId: task.id,
		mode,
		trial,
		end: timedOut ? 'timeout' : outcome.reason,
		durationMs,
		requests: env.model.since(firstSample).length,
		toolCalls: outcome.messages.filter(m => m.kind === 'tool_call').length,
		promptTokens: usage.reduce((n, e) => n + e.promptTokens, 0),
		completionTokens: usage.reduce((n, e) => n + e.completionTokens, 0),
		tokensEstimated: usage.some(e => e.estimated),
		recoveries,
		brokenCalls: brokenCalls(recoveries),
	};
	if (timedOut) {
		return { ...base, passed: false, why: `no answer within ${Math.round(env.trialTimeoutMs / 1000)} s` };
	}
	if (outcome.reason !== 'completed') {
		const detail = outcome.error?.message ? `: ${outcome.error.message}` : '';
		return { ...base, passed: false, why: `the turn ended ${outcome.reason}${detail}` };
	}
	const why = task.check(await trialView(outcome.messages, workspace));
	return { ...base, passed: why === undefined, why: why ?? '' };
}

async function trialView(messages: readonly CanonicalMessage[], workspace: Workspace): Promise<TrialView> {
	const results = new Map<string, { ok: boolean; output: string }>();
	for (const message of messages) {
		if (message.kind === 'tool_result') {
			results.set(message.data.toolCallId, { ok: message.data.ok, output: message.data.output });
		}
	}
	const calls = messages.flatMap(message =>
		message.kind === 'tool_call'
			? [{ name: message.data.name, arguments: message.data.arguments, ...results.get(message.data.id) }]
			: [],
	);
	const files = await snapshot(workspace);
	return {
		answer: messages
			.filter(m => m.kind === 'assistant')
			.map(m => m.content)
			.join('\n'),
		calls,
		file: relative => files.get(relative),
	};
}

/** The workspace's small text files after the turn, by workspace-relative path, read through the Workspace port. */
async function snapshot(
	workspace: Workspace,
	dir = '',
	into = new Map<string, string>(),
): Promise<Map<string, string>> {
	for (const [name, type] of await workspace.readDirectory(dir)) {
		const relative = dir ? `${dir}/${name}` : name;
		if (type === 'directory') {
			await snapshot(workspace, relative, into);
		} else if (type === 'file' && ((await workspace.stat(relative))?.size ?? Infinity) <= 256 * 1024) {
			into.set(relative, new TextDecoder().decode(await workspace.readFile(relative)));
		}
	}
	return into;
}
