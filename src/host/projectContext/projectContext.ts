import type * as vscode from 'vscode';
import type { ApprovalSettings } from '../../core/agent/approval/approvalPolicy';
import type { TurnOutcome } from '../../core/agent/loop/runAgent';
import { buildSystemPrompt } from '../../core/agent/loop/systemPrompt';
import type { Gate } from '../../core/gate/gate';
import type { Logger, Workspace } from '../../core/ports';
import { describeMode } from '../../core/modes/modes';
import { draftAgentsPrompt } from '../../core/rules/draftPrompt';
import type { ToolDefinition } from '../../core/tools/defineTool';
import { Disposable } from '../../core/util/lifecycle';
import { ModesHost } from './modesHost';
import { RulesHost } from './rulesHost';

/**
 * What the project tells the agent beyond the prompt: its rules (AGENTS.md, .keel/rules) in
 * the system prompt, and the chat's mode, whose instructions join the prompt and whose deny
 * rules narrow the tools (Plan: read-only).
 */
export class ProjectContext extends Disposable {
	readonly rules: RulesHost;
	readonly modes: ModesHost;

	constructor(
		private readonly _workspace: Workspace,
		logger: Logger,
		workspaceState: vscode.Memento,
		gate: Gate,
	) {
		super();
		this.rules = this._register(new RulesHost(_workspace, logger, gate));
		this.modes = this._register(new ModesHost(workspaceState));
	}

	systemPrompt(sessionId: string, workspaceName: string, folders?: string[]): string {
		return buildSystemPrompt(workspaceName, {
			rules: this.rules.promptSection(),
			modeInstructions: this.modes.instructions(sessionId),
			folders,
		});
	}

	/** The session's approval settings with its mode's deny rules added. */
	approvalSettings(sessionId: string, base: ApprovalSettings, tools: readonly ToolDefinition[]): ApprovalSettings {
		return this.modes.applyTo(sessionId, base, tools);
	}

	/** /mode, /plan, /act: switches the chat's mode (a pick when no name is given); the answer names it. */
	async switchMode(sessionId: string, name?: string): Promise<string> {
		const mode = await this.modes.pick(sessionId, name);
		return mode ? `Mode: ${describeMode(mode)}.` : 'Mode unchanged.';
	}

	/** /init and "Keel: Draft AGENTS.md": a turn that writes (or improves) the project's rules file. */
	async draftAgentsMd(conversation: { send(prompt: string): Promise<TurnOutcome> }): Promise<TurnOutcome> {
		const existing = (await this._workspace.stat('AGENTS.md')) !== undefined;
		return conversation.send(draftAgentsPrompt(existing));
	}
}
