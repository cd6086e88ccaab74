import type { Workspace } from '../../ports';
import type { LentCallPipeline } from '../../tools/lent/lentTools';
import type { ToolRegistry } from '../../tools/registry';
import { decidePermission, type ApprovalSettings } from './approvalPolicy';
import type { ToolPolicy } from '../toolPolicy/toolPolicy';
import { runToolCall } from '../loop/toolExecution';

/**
 * The loop's side of the tools Keel lends to other agents (tools/lent/lentTools.ts), built by
 * the composition root: the verdict of the user's permission rules and approval settings, and
 * each call run by runToolCall, the pipeline of every call in Keel's chat (validation, the tool
 * policy, approval, execution, redaction, output shaping), in a session of its own.
 */
export function lentCallPipeline(deps: {
	registry: ToolRegistry;
	workspace: Workspace;
	settings(): ApprovalSettings;
	toolPolicy?: ToolPolicy;
}): LentCallPipeline {
	return {
		verdict: (tool, input, prepared) => decidePermission(tool, input, deps.settings(), prepared),
		run: async (call, approval, signal) => {
			const result = await runToolCall(call, {
				turnId: 'lent',
				registry: deps.registry,
				toolPolicy: deps.toolPolicy,
				approvals: { request: async () => approval },
				approvalSettings: deps.settings(),
				workspace: deps.workspace,
				signal,
				sessionId: 'lent',
				emit: () => undefined,
			});
			return result.output;
		},
	};
}
