/** Exact name, or the one tool whose name matches ignoring case and `-`/`_`/`.`/space. */
export function matchToolName(name: string, toolNames: readonly string[]): string | undefined {
	if (toolNames.includes(name)) {
		return name;
	}
	// Control-token garbage glued on by the template (`read_file<|channel|>analysis`, `read_file</tool_call>`),
	// Kimi's `functions.read_file:0` call index, quotes and spaces.
	const cleaned = name
		.replace(/<[\s\S]*$/, '')
		.replace(/:\d+$/, '')
		.replace(/^["'`\s]+|["'`\s]+$/g, '');
	if (cleaned !== name && cleaned) {
		return matchToolName(cleaned, toolNames);
	}
	const key = (s: string) =>
		s
			.toLowerCase()
			.replace(/^functions?[.:]/, '')
			.replace(/[\s_.-]/g, '');
	const matches = toolNames.filter(candidate => key(candidate) === key(name));
	return matches.length === 1 ? matches[0] : undefined;
}
