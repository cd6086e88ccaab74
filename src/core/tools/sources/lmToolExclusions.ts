/**
 * The tools of `vscode.lm.tools` that Keel does not offer its model, as data: each entry is a
 * tool name (or a `*` pattern) with the reason. Three kinds are left out:
 *  - duplicates of Keel's own guarded tools: reading, searching and editing files and running
 *    commands. Keel's versions keep the workspace path policy, the sandbox, the diff cards and
 *    the turn's checkpoint; VS Code's or Copilot's would edit and run around all of that.
 *  - tools that only work inside VS Code's own chat (they need its session and confirmation UI).
 *  - Keel's own tools lent to VS Code (`keel_*`), which would come back as a second copy.
 * Everything else another extension registers (including MCP servers configured in VS Code)
 * is offered through Keel's approval gate. README.md lists the same groups.
 */
export interface LmToolExclusion {
	/** A tool name; `*` matches any run of characters. */
	name: string;
	why: 'keel' | 'files' | 'edits' | 'terminal' | 'vscode-chat';
}

const group = (why: LmToolExclusion['why'], names: string[]): LmToolExclusion[] => names.map(name => ({ name, why }));

export const LM_TOOL_EXCLUSIONS: readonly LmToolExclusion[] = [
	...group('keel', ['keel_*']),
	// Reading and searching files: Keel's read_file, list_files, search (path policy, .keelignore, result cache).
	...group('files', [
		'copilot_readFile',
		'copilot_listDirectory',
		'copilot_findFiles',
		'copilot_findTextInFiles',
		'copilot_searchCodebase',
		'copilot_readProjectStructure',
		'copilot_getChangedFiles',
		'copilot_getSearchResults',
		'copilot_readNotebookCellOutput',
		'copilot_getNotebookSummary',
		'copilot_findTestFiles',
	]),
	// Changing files: Keel's write/edit tools (approval with a diff, checkpoint, undo).
	...group('edits', [
		'copilot_createFile',
		'copilot_createDirectory',
		'copilot_insertEdit',
		'copilot_replaceString',
		'copilot_multiReplaceString',
		'copilot_applyPatch',
		'copilot_editFiles',
		'copilot_editNotebook',
		'copilot_createNewJupyterNotebook',
		'copilot_createNewWorkspace',
		'apply_patch',
		'vscode_renameSymbol',
		'setup_tools_createNewWorkspace',
	]),
	// Running commands: Keel's run_command (sandbox, command rules, filtered output).
	...group('terminal', [
		'run_in_terminal',
		'get_terminal_output',
		'send_to_terminal',
		'kill_terminal',
		'terminal_last_command',
		'terminal_selection',
		'create_and_run_task',
		'run_task',
		'get_task_output',
		'copilot_runInTerminal',
		'copilot_getTerminalOutput',
		'copilot_runVsCodeTask',
		'copilot_createAndRunTask',
		'copilot_getTaskOutput',
		'copilot_runVscodeCommand',
		'copilot_runNotebookCell',
		'copilot_installExtension',
	]),
	// Parts of VS Code's own chat: confirmations, questions, plans and sub-agents of its session.
	...group('vscode-chat', [
		'*_internal',
		'vscode_get_*confirmation*',
		'vscode_askQuestions',
		'copilot_askQuestions',
		'vscode_reviewPlan',
		'manage_todo_list',
		'runSubagent',
		'task_complete',
		'inline_chat_exit',
		'renderMermaidDiagram',
		'copilot_think',
		'copilot_memory',
		'copilot_updateUserPreferences',
	]),
];

const compiled = LM_TOOL_EXCLUSIONS.map(e => ({
	...e,
	test: new RegExp(`^${e.name.split('*').map(escape).join('.*')}$`),
}));

/** Why Keel leaves this VS Code tool out, or undefined when it is offered. */
export function lmToolExclusion(name: string): LmToolExclusion | undefined {
	const hit = compiled.find(e => e.test.test(name));
	return hit && { name: hit.name, why: hit.why };
}

function escape(text: string): string {
	return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
