/**
 * A command that ran on a copy of the workspace (an engine that does not see the folder) hands
 * back what it changed there as calls of the file tools (shellTools.ts: `writesBack`). Each runs
 * as the model's own call would, with a card of its own: prepared (the path resolved by the
 * gate, the diff), decided by the permission rules and the user (a protected file asks, a deny
 * rule refuses), then written by the tool. Nothing reaches the user's files another way. The
 * command's result then says what became of each change, so the model knows.
 */
import type { ToolResultData } from '../../llm/canonical';
import type { ToolResult } from '../../tools/defineTool';
import type { StepCall } from './modelStep';

interface WriteBack {
	name: string;
	input: { path?: unknown };
}

function writesOf(result: ToolResult): WriteBack[] {
	const list = result.writesBack;
	return Array.isArray(list)
		? list.filter((w): w is WriteBack => typeof w === 'object' && w !== null && typeof w.name === 'string')
		: [];
}

/** Runs each write the result hands back through `run` (runToolCall), in order; the result says how each ended. */
export async function bringBack(
	call: StepCall,
	result: ToolResult,
	run: (call: StepCall) => Promise<ToolResultData>,
): Promise<ToolResult> {
	const writes = writesOf(result);
	// The contents travel to the file tools only; the card and the history keep the command's own fields.
	const { writesBack: _dropped, ...fields } = result;
	if (writes.length === 0) return fields as ToolResult;
	const lines: string[] = [];
	for (const [i, write] of writes.entries()) {
		const done = await run({
			id: `${call.id}-back${i}`,
			name: write.name,
			rawArguments: JSON.stringify(write.input),
		});
		const what = write.name === 'delete_path' ? 'deleted' : 'written';
		const firstLine = done.output.split('\n')[0];
		lines.push(`${String(write.input.path)}: ${done.ok ? what : `not ${what} (${firstLine})`}`);
	}
	return {
		...fields,
		display: `${result.display}\n[changes brought back from the copy: ${lines.join('; ')}]`,
	} as ToolResult;
}
