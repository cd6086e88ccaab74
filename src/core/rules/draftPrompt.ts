/**
 * The turn "Draft AGENTS.md" (/init) runs: an ordinary prompt, so the model looks around with
 * read tools and the write goes through the same approval card as any other.
 */
export function draftAgentsPrompt(existing: boolean): string {
	return [
		existing
			? 'Improve the AGENTS.md at the workspace root for this project. Read it first, then change it with edit_file.'
			: 'Write an AGENTS.md at the workspace root for this project, with write_file.',
		'First look around: list the root folder, read the README, the package or build manifest (package.json, pyproject.toml, Cargo.toml, go.mod, Makefile…), and the test and lint configuration.',
		'AGENTS.md tells a coding agent how to work here. Keep it under 60 lines of Markdown with these sections:',
		'- Project: what it is, in two sentences.',
		'- Commands: how to install, build, test (a single test too) and lint — exact commands found in the files, never invented.',
		'- Layout: the main folders and what lives in each.',
		'- Conventions: code style, naming, patterns to follow, things to avoid.',
		'Only state what you verified in the files. Then say in one sentence what you wrote.',
	].join('\n');
}
