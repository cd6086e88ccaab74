import type * as vscode from 'vscode';
import { createRequestToolsTool } from '../../core/agent/toolPolicy/toolSelection';
import { withCheckpoints } from '../../core/checkpoints/checkpointedTools';
import type { Gate } from '../../core/gate/gate';
import type { Logger } from '../../core/ports';
import type { ToolDefinition, ToolResult } from '../../core/tools/defineTool';
import type { OutputStore } from '../../core/tools/outputStore';
import { ToolRegistry } from '../../core/tools/registry';
import type { ToolDeps } from '../../core/tools/toolDeps';
import { createToolset, shapeOutput } from '../../core/tools/toolset';
import { Disposable } from '../../core/util/lifecycle';
import { readToolBudget } from '../settings/config';
import { hostToolDeps } from './hostToolDeps';
import { createShellTooling } from './shellHost';
import type { ToolSystemHost } from './toolSystemHost';

/**
 * The tools of Keel's turns: the built-ins (files, search, web, run_command with its Docker
 * sandbox and the Keel terminal) wrapped with redaction, truncation and the result cache,
 * each file tool and command taking the turn's checkpoint first, and request_tools. MCP
 * servers and VS Code's tools join the same registry. Disposing removes the sandbox container.
 */
export class HostTools extends Disposable {
	readonly deps: ToolDeps;
	readonly registry: ToolRegistry;

	constructor(
		context: vscode.ExtensionContext,
		logger: Logger,
		toolSystem: ToolSystemHost,
		outputs: OutputStore,
		beforeChange: () => Promise<void>,
		gate: Gate,
	) {
		super();
		this.deps = hostToolDeps(
			outputs,
			{ toolSystem: () => toolSystem.config(), resultCache: toolSystem.cache },
			gate,
		);
		const shell = createShellTooling(context, logger, gate);
		this._register(shell.disposable);
		this.registry = new ToolRegistry([
			...withCheckpoints(createToolset(this.deps, shell.tools), beforeChange),
			createRequestToolsTool(readToolBudget),
		]);
	}

	/** The same output shaping for a result from another source (an MCP server, VS Code's tools). */
	shape(result: ToolResult, context: Parameters<ToolDefinition['execute']>[1]): Promise<ToolResult> {
		return shapeOutput(result, this.deps, context);
	}
}
