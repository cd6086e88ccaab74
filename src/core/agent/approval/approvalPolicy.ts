import type { Preparation, ToolDefinition, ToolEffect } from '../../tools/defineTool';
import {
	evaluatePermissions,
	toolOffered,
	type PermissionRule,
	type PermissionVerdict,
} from '../../gate/rules/permissions';

/** Which effects run without asking, the user's rules, and whether the workspace is trusted. */
export interface ApprovalSettings {
	autoApprove: Partial<Record<ToolEffect, boolean>>;
	/** keel.permissions.rules; precedence in permissions.ts. */
	rules?: PermissionRule[];
	/** Workspace Trust; undefined means trusted (plain Node, tests). */
	trusted?: boolean;
	/** Writes an "Always allow" rule to the workspace settings; undefined = the button is not offered. */
	persistRule?(rule: PermissionRule): Promise<void>;
}

export const defaultApprovalSettings: ApprovalSettings = { autoApprove: { read: true } };

/**
 * Default policy: read-only tools inside the workspace run without asking; everything else
 * asks; rules, trust and protected paths refine it (permissions.ts).
 */
export function decidePermission(
	tool: ToolDefinition,
	input: unknown,
	settings: ApprovalSettings,
	prepared?: Preparation,
): PermissionVerdict {
	return evaluatePermissions(tool, input, {
		rules: settings.rules ?? [],
		autoApprove: settings.autoApprove[tool.effect] === true,
		trusted: settings.trusted !== false,
		prepared,
	});
}

/** Tools the model is offered at all: untrusted → read-only; a bare deny rule hides a tool. */
export function isToolOffered(tool: ToolDefinition, settings: ApprovalSettings): boolean {
	return toolOffered(tool, settings.rules ?? [], settings.trusted !== false);
}
