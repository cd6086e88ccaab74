import type { CanonicalMessage } from '../../../src/core/llm/canonical';

/**
 * An earlier turn that read `files` large logs, each `lines` lines of `line`, and closed with
 * `closing`: history a squeezed request can leave out.
 */
export function logReadHistory(files: number, line: string, lines: number, closing: string): CanonicalMessage[] {
	const history: CanonicalMessage[] = [{ kind: 'user', content: 'Read the logs.' }];
	for (let i = 0; i < files; i++) {
		const id = `old${i}`;
		const output = `log ${i}\n${`${line}\n`.repeat(lines)}`;
		const path = `logs/${i}.txt`;
		history.push({
			kind: 'tool_call',
			content: '',
			data: { id, name: 'read_file', rawArguments: JSON.stringify({ path }), arguments: { path } },
		});
		history.push({
			kind: 'tool_result',
			content: output,
			data: { toolCallId: id, name: 'read_file', output, ok: true },
		});
	}
	history.push({ kind: 'assistant', content: closing });
	return history;
}
