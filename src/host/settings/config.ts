import * as vscode from 'vscode';
import type { ApprovalSettings } from '../../core/agent/approval/approvalPolicy';
import { persistRule, readPermissionRules } from './permissionsConfig';
import { readSetting } from './settings';

/** Typed settings (settingsSchema.ts). Keys never live here: they are in SecretStorage (see secrets.ts). */
export function readModelConfig(): { model: string; contextWindow: number } {
	return { model: readSetting('model.name'), contextWindow: readSetting('model.contextWindow') };
}

/** Trust-aware (settings.ts): an untrusted workspace cannot approve its own tool calls. */
export function readApprovalSettings(): ApprovalSettings {
	return {
		autoApprove: {
			read: readSetting('approval.autoApproveReads'),
			write: readSetting('approval.autoApproveWrites'),
			exec: readSetting('approval.autoApproveCommands'),
			network: readSetting('approval.autoApproveNetwork'),
		},
		rules: readPermissionRules(),
		trusted: vscode.workspace.isTrusted,
		persistRule: vscode.workspace.workspaceFolders?.length ? persistRule : undefined,
	};
}

export function readMaxSteps(): number {
	return Math.max(1, readSetting('agent.maxSteps'));
}

export function readParallelReads(): number {
	return Math.max(1, readSetting('agent.parallelReads'));
}

/** keel.tools.maxOffered: the most tool schemas one request carries (toolSelection.ts). */
export function readToolBudget(): { maxOffered: number } {
	return { maxOffered: Math.max(5, readSetting('tools.maxOffered')) };
}
