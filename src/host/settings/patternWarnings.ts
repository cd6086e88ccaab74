import * as vscode from 'vscode';

const shown = new Set<string>();

/**
 * A pattern the linear-time engine cannot run (a lookahead in a security pattern, a negated
 * extglob in a rule) is named once per window, with where it came from: it is skipped, or a
 * deny/ask rule treats it as matching, and the user should know which and why.
 */
export function warnUnrunnablePatterns(setting: string, problems: ReadonlyArray<string | undefined>): void {
	for (const problem of problems) {
		if (!problem || shown.has(`${setting}:${problem}`)) {
			continue;
		}
		shown.add(`${setting}:${problem}`);
		void vscode.window.showWarningMessage(
			`Keel: in ${setting}, ${problem}. Patterns run on a linear-time engine (RE2) so that none can freeze VS Code.`,
		);
	}
}
