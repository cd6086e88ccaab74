/**
 * In text mode a model may answer with a fenced ```bash block instead of a `run_command`
 * call, as the prompt allows. When the message ends with such a block it becomes one
 * run_command call per block, which then goes through approval like any other call. A
 * block followed by more prose is an example in an explanation and stays text.
 */
export interface FencedCommand {
	command: string;
	/** The message without the blocks. */
	prose: string;
}

const FENCE = /```(?:bash|sh|shell|console)[ \t]*\n([\s\S]*?)```/g;

export function fencedShellCommands(text: string): FencedCommand[] {
	const blocks = [...text.matchAll(FENCE)];
	if (blocks.length === 0) {
		return [];
	}
	const last = blocks[blocks.length - 1];
	if (text.slice(last.index! + last[0].length).trim() !== '') {
		return [];
	}
	let prose = text;
	const commands: FencedCommand[] = [];
	for (const block of blocks) {
		// `$ npm test` in a console block: the prompt sign is not part of the command.
		const command = block[1]
			.split('\n')
			.map(line => line.replace(/^\s*\$\s+/, ''))
			.join('\n')
			.trim();
		prose = prose.replace(block[0], '');
		if (command) {
			commands.push({ command, prose: '' });
		}
	}
	return commands.map(c => ({ ...c, prose: prose.trim() }));
}

export const FENCED_SHELL_HINT =
	'To run a shell command you may also end your reply with a ```bash block containing only the command; it runs as run_command, after the user approves.';
