import type { ToolDefinition } from '../tools/defineTool';

/**
 * Wraps every tool that can change files (writes, and commands: a shell can change anything)
 * so the turn's checkpoint is taken just before the first one runs, after its approval.
 * Read and network tools pass through untouched.
 */
export function withCheckpoints(
	tools: readonly ToolDefinition<any>[],
	beforeChange: () => Promise<void>,
): ToolDefinition<any>[] {
	return tools.map(tool =>
		tool.effect === 'write' || tool.effect === 'exec'
			? ({
					...tool,
					async execute(input, context) {
						await beforeChange();
						return tool.execute(input, context);
					},
				} as ToolDefinition<any>)
			: tool,
	);
}
