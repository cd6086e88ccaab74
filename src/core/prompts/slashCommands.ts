import type { Gate } from '../gate/gate';
import type { Workspace } from '../ports';

export interface SlashCommand {
	name: string;
	args: string;
}

export interface CommandInfo {
	name: string;
	description: string;
	/** 'builtin' or the prompt file it comes from. */
	source: string;
}

export const BUILT_IN_COMMANDS: readonly CommandInfo[] = [
	{ name: 'new', description: 'Start a new chat', source: 'builtin' },
	{
		name: 'compact',
		description: 'Summarise this conversation with the model and continue from the summary',
		source: 'builtin',
	},
	{ name: 'model', description: 'Pick the model, or /model NAME to switch to it', source: 'builtin' },
	{ name: 'mode', description: 'Pick the mode, or /mode NAME (act, plan, or one of keel.modes)', source: 'builtin' },
	{
		name: 'plan',
		description: 'Switch to Plan mode: read-only tools, the model answers with a plan',
		source: 'builtin',
	},
	{ name: 'act', description: 'Switch to Act mode: every tool, with approval', source: 'builtin' },
	{
		name: 'init',
		description: 'Have the model draft AGENTS.md for this workspace (you approve the write)',
		source: 'builtin',
	},
];

/** `/name rest of line` → { name, args }; anything else (including "/ " and paths like /etc) is a prompt. */
export function parseSlash(text: string): SlashCommand | undefined {
	const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
	return match ? { name: match[1].toLowerCase(), args: (match[2] ?? '').trim() } : undefined;
}

export interface PromptFile {
	name: string;
	path: string;
	description: string;
	body: string;
	/** Why Keel did not read it (a link out of the workspace, a deny-listed or protected file…). */
	refused?: string;
}

export const PROMPT_FILES_GLOB = '.keel/prompts/*.md';

/**
 * `.keel/prompts/review.md` is `/review`. An optional front matter line `description: …` is
 * shown in the completion list; otherwise the first line of the body.
 */
export function parsePromptFile(path: string, text: string): PromptFile {
	const name = path
		.split('/')
		.pop()!
		.replace(/\.md$/i, '')
		.toLowerCase()
		.replace(/[^\w-]+/g, '-');
	let body = text.replace(/^\uFEFF/, '');
	let description = '';
	const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(body);
	if (front) {
		description = /^description:\s*(.+)$/m.exec(front[1])?.[1].trim() ?? '';
		body = body.slice(front[0].length);
	}
	body = body.trim();
	description ||= body
		.split('\n')[0]
		.replace(/^#+\s*/, '')
		.slice(0, 80);
	return { name, path, description, body };
}

/**
 * Fills the template: `$ARGUMENTS` is everything after the command, `$1`…`$9` the words
 * (quotes group words). Without any placeholder the arguments are appended on a new line.
 */
export function expandPrompt(body: string, args: string): string {
	const words = [...args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(m => m[1] ?? m[2] ?? m[3]);
	if (!/\$ARGUMENTS|\$[1-9]/.test(body)) {
		return args ? `${body}\n\n${args}` : body;
	}
	return body.replace(/\$ARGUMENTS/g, args).replace(/\$([1-9])/g, (_, n: string) => words[Number(n) - 1] ?? '');
}

/** Each is read through the gate like read_file reads; a refused one is listed with the reason, and no body. */
export async function loadPromptFiles(workspace: Workspace, gate: Gate): Promise<PromptFile[]> {
	const files: PromptFile[] = [];
	for (const path of (await workspace.findFiles(PROMPT_FILES_GLOB, 100).catch(() => [] as string[])).sort()) {
		try {
			const read = await gate.readShipped(workspace, path, 'prompt file');
			files.push(parsePromptFile(path, Buffer.from(read.bytes).toString('utf8')));
		} catch (error) {
			const refused = (error as Error).message;
			files.push({ ...parsePromptFile(path, ''), description: `not read: ${refused}`, refused });
		}
	}
	return files;
}

/** Completion list for "/": built-ins first, then prompt files; a prompt file never hides a built-in. */
export function completions(prefix: string, promptFiles: readonly PromptFile[]): CommandInfo[] {
	const wanted = prefix.replace(/^\//, '').toLowerCase();
	const all = [
		...BUILT_IN_COMMANDS,
		...promptFiles
			.filter(f => !BUILT_IN_COMMANDS.some(c => c.name === f.name))
			.map(f => ({ name: f.name, description: f.description, source: f.path })),
	];
	return all.filter(command => command.name.startsWith(wanted));
}
