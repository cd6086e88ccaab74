import type { Workspace } from '../ports';
import type { ToolRegistry } from './registry';

/** Keel's own tools lent to other agents carry this prefix (package.json languageModelTools). */
export const KEEL_LM_PREFIX = 'keel_';

/**
 * One call of a tool Keel lends to another agent (VS Code's Language Model Tools): the
 * registry's validation, read-only tools only, and the same path policy as in Keel's chat.
 * A refusal is an answer the calling model can act on.
 */
export async function invokeLentCall(
	registry: ToolRegistry,
	workspace: Workspace,
	lmName: string,
	input: unknown,
	signal: AbortSignal,
): Promise<string> {
	const name = lmName.startsWith(KEEL_LM_PREFIX) ? lmName.slice(KEEL_LM_PREFIX.length) : lmName;
	const parsed = registry.parse(name, JSON.stringify(input ?? {}));
	if (!parsed.ok || parsed.tool.effect !== 'read') {
		throw new Error(parsed.ok ? `${name} is not a read-only tool.` : parsed.message);
	}
	try {
		return (await parsed.tool.execute(parsed.input, { workspace, signal, progress: () => undefined })).display;
	} catch (error) {
		// A refused path is an answer the calling model can act on, as in Keel's own loop.
		return (error as Error)?.message ?? String(error);
	}
}
