import * as vscode from 'vscode';
import type { ApprovalSettings } from '../core/agent/approvalPolicy';
import { persistRule, readPermissionRules, trustedSetting } from './permissionsConfig';

export interface ModelConfig {
	baseUrl: string;
	model: string;
	contextWindow: number;
	requestTimeoutSeconds: number;
}

const section = () => vscode.workspace.getConfiguration('keel');

/** Typed settings. Keys never live here: they are in SecretStorage (see secrets.ts). */
export function readModelConfig(): ModelConfig {
	const config = section();
	return {
		// An untrusted workspace must not point Keel (and the API key) at its own server.
		baseUrl: trustedSetting<string>('model.baseUrl', 'http://127.0.0.1:11434/v1').replace(/\/+$/, ''),
		model: config.get<string>('model.name', 'glm-4.7-flash'),
		contextWindow: config.get<number>('model.contextWindow', 32768),
		requestTimeoutSeconds: config.get<number>('model.requestTimeoutSeconds', 600),
	};
}

/** Trust-aware (permissionsConfig.ts): an untrusted workspace cannot approve its own tool calls. */
export function readApprovalSettings(): ApprovalSettings {
	return {
		autoApprove: {
			read: trustedSetting<boolean>('approval.autoApproveReads', true),
			write: trustedSetting<boolean>('approval.autoApproveWrites', false),
			exec: trustedSetting<boolean>('approval.autoApproveCommands', false),
			network: trustedSetting<boolean>('approval.autoApproveNetwork', false),
		},
		rules: readPermissionRules(),
		trusted: vscode.workspace.isTrusted,
		persistRule: vscode.workspace.workspaceFolders?.length ? persistRule : undefined,
	};
}

export function readMaxSteps(): number {
	return Math.max(1, section().get<number>('agent.maxSteps', 25));
}

/** keel.tools.maxOffered: the most tool schemas one request carries (toolSelection.ts). */
export function readToolBudget(): { maxOffered: number } {
	return { maxOffered: Math.max(5, section().get<number>('tools.maxOffered', 40)) };
}
