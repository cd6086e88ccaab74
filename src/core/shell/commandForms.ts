/**
 * A command as permission rules see it, shared by the rooms of shell analysis: what one simple
 * command amounts to once wrappers are looked through (shellWrappers.ts, git/shellGit.ts), and each
 * form a rule is matched against (shellRules.ts, commandPattern.ts).
 */
import type { WordValue } from './shellWords';

export interface CommandForm {
	/** The words after quote removal; when incomplete, the part before the unknown. */
	text: string;
	complete: boolean;
	/** false: this form only serves deny/ask (e.g. `rm x` for `/bin/rm x`); allow needs the other forms. */
	needsAllow: boolean;
}

export interface Unwrapped {
	/** Argument vectors to match, innermost last; each with whether it needs its own allow. */
	argvs: Array<{ argv: WordValue[]; needsAllow: boolean }>;
	/** Strings bash runs as command lines (parse them again); undefined text = not known statically. */
	nested: Array<string | undefined>;
	/** Why the line cannot be judged (a script or inline program whose content rules do not see). */
	opaque?: string;
	/** git's words (after `git`, global options included), for asking git what they will print. */
	gits?: WordValue[][];
}
