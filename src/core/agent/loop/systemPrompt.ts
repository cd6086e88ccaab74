/** What the host adds to the base prompt: project rules and the session's mode. */
export interface SystemPromptExtras {
	/** The rules section (rules/projectRules.ts), already within its token budget. */
	rules?: string;
	/** The current mode's instructions (modes/modes.ts); absent in Act. */
	modeInstructions?: string;
	/** The workspace's folder names, as paths address them; more than one makes paths start with a name. */
	folders?: string[];
}

/** How paths are written: relative to the one root, or starting with a folder's name in a multi-root workspace. */
function pathsLine(folders: string[] | undefined): string {
	if (!folders || folders.length < 2) {
		return 'Paths are relative to the workspace root.';
	}
	return `The workspace has ${folders.length} folders: ${folders.map(name => `${name}/`).join(', ')}. Every path starts with a folder's name, e.g. "${folders[0]}/README.md"; a command's cwd is a folder such as "${folders[0]}".`;
}

/**
 * Kept short on purpose: small local models lose track of long system prompts, and every
 * token here is paid on every request.
 */
export function buildSystemPrompt(workspaceName: string, extras: SystemPromptExtras = {}): string {
	const base = [
		`You are Keel, a coding agent working in the workspace "${workspaceName}".`,
		'Use the tools to look at files before answering questions about them; do not guess file contents.',
		`${pathsLine(extras.folders)} Call tools with JSON arguments that match their schema.`,
		'When you have what you need, answer concisely in Markdown and cite the files you used.',
		'When a tool fails, show the user the error and suggest a fix; a [tool_error] block says whether Keel retries it (retryable).',
		'After changing code, run the tests or the build to check it, if the project has them.',
		'Quote tool output, file paths and links exactly as the tool gave them.',
		'A result with hasMore: true is one page: call again with the offset or page it names to get the rest.',
	].join('\n');
	// Mode last: it is the most specific instruction and small models weigh the end most.
	return [base, extras.rules, extras.modeInstructions].filter(part => part && part.trim()).join('\n\n');
}

/**
 * What changed between two versions of the instructions (a new mode, reloaded rules), as a
 * note the history carries: paragraphs that no longer hold and those that now do.
 */
export function instructionsChangedNote(before: string, after: string): string {
	const a = before.split(/\n{2,}/);
	const b = after.split(/\n{2,}/);
	let head = 0;
	while (head < a.length && head < b.length && a[head] === b[head]) {
		head++;
	}
	let tail = 0;
	while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) {
		tail++;
	}
	const removed = a.slice(head, a.length - tail);
	const added = b.slice(head, b.length - tail);
	return [
		'[Keel: the instructions for this chat changed from here on; the rest of the system prompt still holds.]',
		removed.length ? `No longer in force:\n${removed.join('\n\n')}` : '',
		added.length ? `Now in force:\n${added.join('\n\n')}` : '',
	]
		.filter(Boolean)
		.join('\n\n');
}
