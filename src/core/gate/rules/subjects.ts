/**
 * What permission rules judge of a call, defined here at the gate's floor so the rules need
 * nothing from the rooms above them: a tool (core/tools/defineTool.ts) is a `RuledTool`, its
 * `prepare` result a `PreparedSubjects`.
 */

/** What a tool may do; the approval policy keys on this. */
export type ToolEffect = 'read' | 'write' | 'exec' | 'network';

/**
 * What permission rules match on. Path tools return `{kind:'path'}` with normalised
 * workspace-relative paths, network tools `{kind:'url'}`, and run_command returns
 * `{kind:'command', values:[commandLine]}`; the policy splits command lines into every
 * command of the chain itself (shellRules.ts), so tools hand over the raw line.
 */
export interface Subject {
	kind: 'path' | 'command' | 'url';
	values: string[];
}

/** A tool as the rules see it: its name, what it may do, and what a call of it touches. */
export interface RuledTool {
	name: string;
	effect: ToolEffect;
	/** Without it only tool-name rules apply. */
	subjects?(input: unknown): Subject[];
}

/** What a call's `prepare` found before approval that the rules judge too. */
export interface PreparedSubjects {
	/** Non-empty when a path controls the editor or the agent: the call always asks. */
	protectedReasons?: string[];
	/** Where the call's paths (and a command's redirect targets) really land, canonical and workspace-relative: permission rules match these as well as the names asked for. */
	canonicalPaths?: string[];
	/** Of canonicalPaths, those deny and ask rules see but an allow need not cover (a file `sort -o` writes under `allow sort *`). */
	coveredByCommand?: string[];
}
