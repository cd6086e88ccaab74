// A tiny file toolset over a Map, for resilience scenarios: the score is the final state of
// these files, and every write is counted so duplicated side effects show up as numbers.

import * as z from 'zod';
import type { Workspace } from '../../../src/core/ports';
import { defineTool, fail, ok, type ToolDefinition } from '../../../src/core/tools/defineTool';

export class TaskFiles {
	readonly files = new Map<string, string>();
	readonly writes: string[] = [];

	constructor(initial: Record<string, string> = {}) {
		for (const [path, content] of Object.entries(initial)) {
			this.files.set(path, content);
		}
	}

	writeCount(path: string): number {
		return this.writes.filter(p => p === path).length;
	}

	/** The loop wants a Workspace; these tools never touch it (they close over the Map). */
	get workspace(): Workspace {
		return { rootName: 'scenario' } as unknown as Workspace;
	}

	tools(): ToolDefinition<any>[] {
		// eslint-disable-next-line @typescript-eslint/no-this-alias -- the tools' execute() are methods, with their own `this`
		const files = this;
		return [
			defineTool({
				name: 'list_directory',
				description: 'List the files in a folder.',
				input: z.object({ path: z.string().describe('Folder, e.g. "notes"') }),
				effect: 'read',
				describe: input => `List ${input.path}`,
				async execute(input) {
					const prefix = input.path.replace(/\/+$/, '') + '/';
					const names = [...files.files.keys()]
						.filter(p => p.startsWith(prefix))
						.map(p => p.slice(prefix.length));
					return names.length
						? ok(names.sort().join('\n'), { count: names.length })
						: fail(`Folder not found or empty: ${input.path}`);
				},
			}),
			defineTool({
				name: 'read_file',
				description: 'Read a text file.',
				input: z.object({ path: z.string().describe('File path, e.g. "notes/a.txt"') }),
				effect: 'read',
				describe: input => `Read ${input.path}`,
				async execute(input) {
					const content = files.files.get(input.path);
					return content === undefined
						? fail(`File not found: ${input.path}`)
						: ok(`content of ${input.path}:\n${content}`);
				},
			}),
			defineTool({
				name: 'write_file',
				description: 'Create or overwrite a text file.',
				input: z.object({ path: z.string(), content: z.string() }),
				effect: 'write',
				describe: input => `Write ${input.path}`,
				async execute(input) {
					files.files.set(input.path, input.content);
					files.writes.push(input.path);
					return ok(`wrote ${input.path} (${input.content.length} chars)`);
				},
			}),
		];
	}
}
