import * as vscode from 'vscode';
import type { ToolDefinition } from '../../core/tools/defineTool';
import { tokenFromSignal } from '../platform/cancellation';
import type { HostTools } from './hostTools';
import { lmToolExclusion } from '../../core/tools/sources/lmToolExclusions';
import { jsonSchemaInput, MAX_TOOL_NAME } from '../../core/tools/sources/mcpTools';
import { KEEL_LM_PREFIX } from '../../core/tools/lent/lentTools';
import { readSetting } from '../settings/settings';

// Keel's own tools registered as Language Model Tools carry this prefix; they are never offered back to Keel.
export { KEEL_LM_PREFIX };

export function lmToolName(name: string): string {
	return `lm_${name.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, MAX_TOOL_NAME);
}

/**
 * The tools other extensions registered in VS Code (vscode.lm.tools, including the MCP servers
 * configured in VS Code itself) as Keel tools: same registry, approval gate (effect 'exec':
 * asks by default), shaping and cards; run with vscode.lm.invokeTool. `sync` runs before each
 * turn: the stable API has no change event for lm.tools.
 */
export class LmToolSource {
	private _registered: string[] = [];

	/** `tools`: the registry they join and the output shaping their results get. */
	constructor(private readonly _tools: Pick<HostTools, 'registry' | 'shape'>) {}

	sync(): void {
		for (const name of this._registered) {
			this._tools.registry.unregister(name);
		}
		this._registered = [];
		if (!vscode.workspace.isTrusted || !vscode.lm?.tools || !readSetting('tools.vscodeTools')) {
			return;
		}
		for (const info of vscode.lm.tools) {
			// Duplicates of Keel's guarded tools, parts of VS Code's own chat, Keel's lent tools (lmToolExclusions.ts).
			if (info.name.startsWith(KEEL_LM_PREFIX) || lmToolExclusion(info.name)) {
				continue;
			}
			const definition = this._definition(info);
			if (!this._tools.registry.get(definition.name)) {
				this._tools.registry.register(definition);
				this._registered.push(definition.name);
			}
		}
	}

	private _definition(info: vscode.LanguageModelToolInformation): ToolDefinition<Record<string, unknown>> {
		const parameters: Record<string, unknown> = {
			type: 'object',
			properties: {},
			...((info.inputSchema as Record<string, unknown>) ?? {}),
		};
		delete parameters.$schema;
		const tools = this._tools;
		return {
			name: lmToolName(info.name),
			description: `[VS Code tool] ${info.description}`.slice(0, 1024),
			input: jsonSchemaInput(parameters),
			parameters,
			source: 'vscode.lm',
			effect: 'exec',
			describe: () => `VS Code tool ${info.name}`,
			async execute(input, context) {
				const cancel = tokenFromSignal(context.signal);
				try {
					// No toolInvocationToken: Keel is not VS Code's chat view, so tools cannot render inline there.
					const result = await vscode.lm.invokeTool(
						info.name,
						{ input, toolInvocationToken: undefined },
						cancel.token,
					);
					return tools.shape({ ok: true, display: resultText(result), source: 'vscode.lm' }, context);
				} finally {
					cancel.dispose();
				}
			},
		};
	}
}

function resultText(result: vscode.LanguageModelToolResult): string {
	const parts = result.content.map(part => {
		if (part instanceof vscode.LanguageModelTextPart) {
			return part.value;
		}
		const value = (part as { value?: unknown }).value;
		return typeof value === 'string' ? value : JSON.stringify(value ?? part);
	});
	return parts.join('\n') || '(the tool returned nothing)';
}
