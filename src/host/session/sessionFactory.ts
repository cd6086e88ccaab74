import type { ChatModel } from '../../core/llm/chatModel';
import type { TurnWait } from '../../core/session/chatSession';
import type * as vscode from 'vscode';
import type { ToolPolicy } from '../../core/agent/toolPolicy/toolPolicy';
import type { ToolRegistry } from '../../core/tools/registry';
import type { OutputStore } from '../../core/tools/outputStore';
import type { ApprovalSettings } from '../../core/agent/approval/approvalPolicy';
import type { ToolDefinition } from '../../core/tools/defineTool';
import { readResolvedProvider } from '../models/providerConfig';
import { readApprovalSettings, readMaxSteps, readModelConfig, readParallelReads } from '../settings/config';
import { GlobalStateForcingMemory, GlobalStateToolModeMemory, readRecoverySettings } from '../models/recoveryConfig';
import type { VscodeWorkspace } from '../tools/vscodeWorkspace';
import type { SessionFactory } from './sessionController';

export interface TurnInputs {
	workspace: VscodeWorkspace;
	/** The tool registry, built the first time a session needs it. */
	registry(): ToolRegistry;
	/** read_output's store, where a tool output sent in part after a context error is kept whole. */
	outputs: OutputStore;
	/** The tool system's policy (anomaly blocks, dependencies, TAFC), kept per session. */
	toolPolicy: ToolPolicy;
	/** The project's rules and each session's mode (projectContext/projectContext.ts). */
	project: {
		systemPrompt(sessionId: string, workspaceName: string, folders?: string[]): string;
		approvalSettings(sessionId: string, base: ApprovalSettings, tools: readonly ToolDefinition[]): ApprovalSettings;
	};
	/** Waits for what a request must carry (rules being reloaded, MCP servers starting, a consent), then builds the model. */
	createModel(wait?: TurnWait): Promise<ChatModel>;
	/** Where the tool-call dialect that works is remembered per model (the extension's global state). */
	globalState: vscode.Memento;
	/** Workspace Trust as it is now. */
	isTrusted(): boolean;
}

/**
 * What each session the controller starts runs with. Everything is read per turn, so a change
 * of settings, rules or mode applies to the next message of every chat.
 */
export function sessionFactory(inputs: TurnInputs): SessionFactory {
	const { workspace, project } = inputs;
	const toolModeMemory = new GlobalStateToolModeMemory(inputs.globalState);
	const forcingMemory = new GlobalStateForcingMemory(inputs.globalState);
	// A server's smaller window is said once in this VS Code window, not again in every new chat.
	const shownOnce = new Set<string>();
	return sessionId => ({
		createModel: inputs.createModel,
		modelLabel: () => readModelConfig().model,
		endpoint: () => readResolvedProvider().baseUrl,
		restricted: () => !inputs.isTrusted(),
		registry: inputs.registry(),
		outputs: inputs.outputs,
		toolPolicy: inputs.toolPolicy,
		workspace,
		// The session's mode narrows the tools (Plan: read-only) through deny rules.
		approvalSettings: () => project.approvalSettings(sessionId, readApprovalSettings(), inputs.registry().list()),
		maxSteps: readMaxSteps,
		parallelReads: readParallelReads,
		recovery: readRecoverySettings,
		toolModeMemory,
		forcingMemory,
		shownOnce,
		systemPrompt: () =>
			project.systemPrompt(
				sessionId,
				workspace.rootName,
				workspace.folders().map(f => f.name),
			),
	});
}
