// Runs tool calls through the real pipeline (registry → prepare → policy → approval →
// execute → output shaping) on a real disk workspace, with a recording approver.
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../src/core/agent/approval/approvalGate';
import type { ApprovalSettings } from '../../src/core/agent/approval/approvalPolicy';
import type { AgentEvent, ToolCallState } from '../../src/core/agent/events';
import { runToolCall } from '../../src/core/agent/loop/toolExecution';
import type { ToolResultData } from '../../src/core/llm/canonical';
import type { Workspace } from '../../src/core/ports';
import type { ToolDefinition } from '../../src/core/tools/defineTool';
import { NodeWorkspace } from '../../src/core/tools/files/nodeWorkspace';
import { ToolRegistry } from '../../src/core/tools/registry';
import { defaultToolDeps, type ToolDeps } from '../../src/core/tools/toolDeps';
import { createToolset } from '../../src/core/tools/toolset';

export class RecordingApprover implements Approver {
	readonly requests: ApprovalRequest[] = [];
	constructor(public answer: ApprovalDecision = { approved: false, reason: 'test denies' }) {}
	async request(call: ApprovalRequest): Promise<ApprovalDecision> {
		this.requests.push(call);
		return this.answer;
	}
}

export interface Harness {
	workspace: NodeWorkspace;
	approver: RecordingApprover;
	events: AgentEvent[];
	deps: ToolDeps;
	run(name: string, args: unknown, signal?: AbortSignal): Promise<ToolResultData & { card: ToolCallState }>;
}

let counter = 0;

export function toolHarness(
	root: string,
	options: {
		settings?: ApprovalSettings;
		deps?: Partial<ToolDeps>;
		extra?: ToolDefinition<any>[];
		sessionId?: string;
		workspace?: Workspace;
	} = {},
): Harness {
	// A multi-root workspace comes in whole; `root` then only names the test's base folder.
	const workspace = (options.workspace ?? new NodeWorkspace(root)) as NodeWorkspace;
	const approver = new RecordingApprover();
	const events: AgentEvent[] = [];
	const deps = defaultToolDeps(options.deps);
	const registry = new ToolRegistry(createToolset(deps, options.extra));
	const settings = options.settings ?? { autoApprove: { read: true, write: true, exec: true, network: true } };
	return {
		workspace,
		approver,
		events,
		deps,
		async run(name, args, signal = new AbortController().signal) {
			const id = `call_${++counter}`;
			const result = await runToolCall(
				{ id, name, rawArguments: typeof args === 'string' ? args : JSON.stringify(args) } as never,
				{
					turnId: 't',
					registry,
					approvals: approver,
					approvalSettings: settings,
					workspace,
					signal,
					sessionId: options.sessionId ?? 's1',
					emit: e => events.push(e),
				},
			);
			const cards = events.filter(
				(e): e is Extract<AgentEvent, { type: 'toolCallUpdated' }> =>
					e.type === 'toolCallUpdated' && e.call.id === id,
			);
			return { ...result, card: cards[cards.length - 1].call };
		},
	};
}
