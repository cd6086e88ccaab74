/** The prompt for "Ask About Selection": the question, then where the code is and the code. */
export function selectionPrompt(
	question: string,
	path: string,
	firstLine: number,
	code: string,
	language: string,
): string {
	const lastLine = firstLine + code.split('\n').length - 1;
	// A fence longer than any backtick run in the code keeps the code from closing it early.
	const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map(run => run.length));
	const fence = '`'.repeat(longest + 1);
	return `${question}\n\nFrom ${path}, lines ${firstLine}–${lastLine}:\n${fence}${language}\n${code}\n${fence}`;
}
