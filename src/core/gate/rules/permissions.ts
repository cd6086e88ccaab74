/**
 * Permission rules: which tool calls run, ask or are refused.
 *
 * A rule is `{ tool, match?, action }` (setting keel.permissions.rules). `tool` is a tool name
 * or "*"; `match` is a glob on the call's subjects (ToolDefinition.subjects): workspace paths
 * (picomatch's syntax, matched in linear time by linearGlob.ts, on the normalised name AND the canonical path prepare found: deny/ask if either
 * matches, allow only if both do), command lines (shellRules.ts: every command bash would run,
 * after quote removal, wrappers looked through), URLs (`*` stays within one path segment or
 * host label run, `**` spans segments). Precedence, first that applies:
 *   1. untrusted workspace → only read tools, nothing else is even offered;
 *   2. any matching `deny` → refused (a deny without `match` also hides the tool from the model);
 *   3. any matching `ask` → asks;
 *   4. `allow` rules covering EVERY subject value (every command of a chain) → runs;
 *   5. otherwise the effect's auto-approve setting (keel.approval.*) decides;
 * and after all of it, a call touching a protected path (.vscode/, .git/hooks, MCP and Keel
 * config, pathPolicy.ts) or a shell line we cannot judge is never run without asking.
 */
import { linearGlob } from '../../patterns/linearGlob';
import { linearRegex, quoteLiteral, UnsupportedPattern } from '../../patterns/linearRegex';
import type { PreparedSubjects, RuledTool, Subject } from './subjects';
import { defaultPathPolicy, isDeniedRead, isProtectedPath } from '../paths/pathPolicy';
import { normalizeWorkspacePath } from '../paths/paths';
import { matchCommandRule, splitCommandLine } from '../../shell/shellRules';

export type RuleAction = 'allow' | 'ask' | 'deny';

export interface PermissionRule {
	tool: string;
	match?: string;
	action: RuleAction;
	/** Where a user's rule is written, for the refusal: "keel.permissions.rules in your user settings". */
	origin?: string;
	/**
	 * Rules Keel derives itself (a mode's read-only tools) are no rule the user wrote: a refusal
	 * by one says this instead, with how to change it.
	 */
	because?: string;
}

export interface PermissionVerdict {
	verdict: RuleAction;
	/** Why, for the card and for the model on a denial. */
	reason: string;
	/** The card's shorter line, when the chat says the rest once elsewhere (Restricted Mode). */
	cardReason?: string;
	/** What "Always allow" would add; undefined when it must not be offered (protected paths, opaque shell). */
	suggestedRule?: PermissionRule;
}

interface Candidate {
	kind: Subject['kind'];
	value: string;
	/** Commands: false when only bash can fill in the rest (see shellRules.ts). */
	complete?: boolean;
	/** false: the candidate serves deny/ask only; an allow need not cover it. */
	needsAllow?: boolean;
}

interface Candidates {
	list: Candidate[];
	opaque?: string;
	/** The exact rule "Always allow" may save for a command line, when it has exactly one form to allow. */
	commandRule?: string;
}

function candidates(subjects: Subject[], prepared: PreparedSubjects | undefined): Candidates {
	const out: Candidates = { list: [] };
	let commandForms = 0;
	for (const subject of subjects) {
		for (const value of subject.values) {
			if (subject.kind === 'command') {
				const parsed = splitCommandLine(value);
				out.opaque ??= parsed.opaque;
				for (const form of parsed.commands) {
					out.list.push({
						kind: 'command',
						value: form.text,
						complete: form.complete,
						needsAllow: form.needsAllow,
					});
				}
				const allowable = parsed.commands.filter(f => f.needsAllow);
				commandForms += allowable.length;
				out.commandRule =
					allowable.length === 1 && allowable[0].complete && parsed.commands.every(f => f.complete)
						? escapeCommandRule(allowable[0].text)
						: undefined;
				// Redirect targets: path rules see them too (run_command's prepare resolves them canonically).
				for (const target of parsed.writes) {
					if (target.path !== undefined) {
						const checked = normalizeWorkspacePath(target.path);
						out.list.push({
							kind: 'path',
							value: checked.ok ? checked.path : target.path,
							...(target.byArgument ? { needsAllow: false } : {}),
						});
					}
					out.opaque ??= redirectConcern(target.path, target.written, parsed.changesDirectory, 'write');
				}
				for (const target of parsed.reads) {
					out.opaque ??= redirectConcern(target.path, target.written, parsed.changesDirectory, 'read');
				}
			} else if (subject.kind === 'path') {
				// The name as asked, normalised: "scripts/./x" and "x/../scripts/x" are "scripts/x".
				const checked = normalizeWorkspacePath(value);
				out.list.push({ kind: 'path', value: checked.ok ? checked.path : value });
			} else {
				out.list.push({ kind: subject.kind, value });
			}
		}
	}
	// Where each path really lands (realpath through symlinks), from prepare: rules see both names.
	const covered = new Set(prepared?.coveredByCommand ?? []);
	for (const path of prepared?.canonicalPaths ?? []) {
		out.list.push({ kind: 'path', value: path, ...(covered.has(path) ? { needsAllow: false } : {}) });
	}
	if (commandForms !== 1) {
		out.commandRule = undefined;
	}
	return out;
}

/**
 * By name alone (run_command's prepare also resolves each target through symlinks): a
 * redirect, or a file argument of tee, cp, mv, rm, sed -i …, that leaves the workspace,
 * lands on a protected or deny-read file, or whose
 * target only bash can know, is never run without asking.
 */
function redirectConcern(
	path: string | undefined,
	written: string,
	changesDirectory: boolean,
	intent: 'read' | 'write',
): string | undefined {
	if (path === undefined) {
		return `the file ${written} it writes is only known when it runs`;
	}
	const checked = normalizeWorkspacePath(path);
	if (!checked.ok) {
		return `${intent === 'write' ? 'writes' : 'reads'} outside the workspace (${written})`;
	}
	if (changesDirectory) {
		return `the line changes directory, so ${written} may land elsewhere`;
	}
	if (isDeniedRead(checked.path, defaultPathPolicy)) {
		return `${intent === 'write' ? 'writes' : 'reads'} a deny-listed file (${written})`;
	}
	if (intent === 'write' && isProtectedPath(checked.path, defaultPathPolicy)) {
		return `writes a protected file (${written})`;
	}
	return undefined;
}

/** A command rule that matches exactly this command: its `*` and `\\` are escaped. */
export function escapeCommandRule(command: string): string {
	return command.replace(/[\\*]/g, '\\$&');
}

export function matchUrlRule(pattern: string, url: string): boolean {
	const source = pattern
		.split(/(\*\*|\*)/)
		.map(part => (part === '**' ? '.*' : part === '*' ? '[^/?#@]*' : quoteLiteral(part)))
		.join('');
	let href: string;
	try {
		href = new URL(url).href;
	} catch {
		return false;
	}
	// Linear time whatever the rule: `**a**a**a**b` must not freeze the host on a long URL.
	const regex = linearRegex(`^${source}$`, { ignoreCase: true, dotAll: true });
	return regex.test(href) || regex.test(href.replace(/\/$/, ''));
}

/**
 * A rule whose pattern the linear-time engine cannot run (a negated extglob, say) fails
 * closed: a deny or ask rule matches, an allow rule does not. The settings reader names it.
 */
function ruleMatches(rule: PermissionRule, candidate: Candidate, forAllow: boolean): boolean {
	try {
		return matchesOrThrow(rule, candidate, forAllow);
	} catch (error) {
		if (error instanceof UnsupportedPattern) {
			return !forAllow;
		}
		throw error;
	}
}

/** The message for a rule whose `match` cannot run, or undefined: for the settings reader. */
export function checkRulePattern(rule: PermissionRule): string | undefined {
	// Command and URL rules are `*` wildcards only: every one of them runs.
	if (rule.match === undefined || rule.tool === 'run_command' || /^[a-z]+:\/\//i.test(rule.match)) {
		return undefined;
	}
	try {
		linearGlob(rule.match);
		return undefined;
	} catch (error) {
		return error instanceof UnsupportedPattern ? error.message : undefined;
	}
}

function matchesOrThrow(rule: PermissionRule, candidate: Candidate, forAllow: boolean): boolean {
	const pattern = rule.match!;
	switch (candidate.kind) {
		case 'command':
			return matchCommandRule(
				pattern,
				{ text: candidate.value, complete: candidate.complete !== false, needsAllow: true },
				forAllow ? 'allow' : 'restrict',
			);
		case 'url':
			return matchUrlRule(pattern, candidate.value);
		case 'path':
			// Deny and ask ignore case and Unicode normal form (a different case or an NFD name must not
			// slip past); allow is exact.
			return forAllow
				? linearGlob(pattern)(candidate.value.replace(/^\.\//, ''))
				: linearGlob(pattern.normalize('NFC'), { nocase: true })(
						candidate.value.replace(/^\.\//, '').normalize('NFC'),
					);
	}
}

/** The refusal of a write, command or fetch in Restricted Mode; the chat adds a Manage Workspace Trust button to it. */
export const UNTRUSTED_REFUSAL =
	'This workspace is in Restricted Mode (not trusted), so only read-only tools run. Trust the folder (Manage Workspace Trust) to let Keel change files or run commands';

/** The refused card's own line in Restricted Mode; the chat's notice says the rest, once. */
export const UNTRUSTED_CARD_REASON = 'Refused: this folder is in Restricted Mode (not trusted).';

export function toolOffered(tool: RuledTool, rules: PermissionRule[], trusted: boolean): boolean {
	if (!trusted && tool.effect !== 'read') {
		return false;
	}
	return !rules.some(
		rule => rule.action === 'deny' && rule.match === undefined && (rule.tool === tool.name || rule.tool === '*'),
	);
}

export function evaluatePermissions(
	tool: RuledTool,
	input: unknown,
	options: { rules: PermissionRule[]; autoApprove: boolean; trusted: boolean; prepared?: PreparedSubjects },
): PermissionVerdict {
	if (!options.trusted && tool.effect !== 'read') {
		return {
			verdict: 'deny',
			reason: UNTRUSTED_REFUSAL,
			cardReason: UNTRUSTED_CARD_REASON,
		};
	}
	const subjects = tool.subjects?.(input) ?? [];
	const { list, opaque, commandRule } = candidates(subjects, options.prepared);
	const applicable = options.rules.filter(rule => rule.tool === tool.name || rule.tool === '*');
	const hit = (action: RuleAction) =>
		applicable.find(
			rule => rule.action === action && (rule.match === undefined || list.some(c => ruleMatches(rule, c, false))),
		);
	const denied = hit('deny');
	if (denied) {
		return { verdict: 'deny', reason: refusedBy(denied) };
	}
	const protectedReasons = options.prepared?.protectedReasons ?? [];
	const suggestion = protectedReasons.length || opaque ? undefined : suggestRule(tool, subjects, commandRule);
	const mustAsk = protectedReasons.length
		? `protected: ${protectedReasons.join('; ')}`
		: opaque
			? `cannot be judged statically (${opaque})`
			: undefined;
	const asked = hit('ask');
	if (asked) {
		return { verdict: 'ask', reason: `the rule ${describeRule(asked)} asks`, suggestedRule: suggestion };
	}
	const allows = applicable.filter(rule => rule.action === 'allow');
	const mustAllow = list.filter(c => c.needsAllow !== false);
	const allowedByRule =
		allows.some(rule => rule.match === undefined) ||
		(mustAllow.length > 0 &&
			mustAllow.every(c => allows.some(rule => rule.match !== undefined && ruleMatches(rule, c, true))));
	if (mustAsk) {
		return { verdict: 'ask', reason: mustAsk, suggestedRule: undefined };
	}
	if (allowedByRule) {
		return { verdict: 'allow', reason: 'allowed by a permission rule' };
	}
	return options.autoApprove
		? { verdict: 'allow', reason: 'auto-approved by keel.approval settings' }
		: { verdict: 'ask', reason: 'needs approval', suggestedRule: suggestion };
}

/**
 * "Always allow" is as narrow as the call: one subject value, exactly (a path's glob
 * characters escaped; a command's single form with its `*` escaped); calls with several
 * values, or command lines with several commands, get no shortcut.
 */
function suggestRule(
	tool: RuledTool,
	subjects: Subject[],
	commandRule: string | undefined,
): PermissionRule | undefined {
	const values = subjects.flatMap(s => s.values);
	if (values.length === 0) {
		return { tool: tool.name, action: 'allow' };
	}
	if (subjects.some(s => s.kind === 'command')) {
		return commandRule !== undefined ? { tool: tool.name, match: commandRule, action: 'allow' } : undefined;
	}
	if (values.length !== 1) {
		return undefined;
	}
	if (subjects[0].kind === 'url') {
		// URL rules have no escape for "*": a URL holding one gets no shortcut rather than a broader rule.
		return values[0].includes('*') ? undefined : { tool: tool.name, match: values[0], action: 'allow' };
	}
	const checked = normalizeWorkspacePath(values[0]);
	return {
		tool: tool.name,
		match: (checked.ok ? checked.path : values[0]).replace(/[*?[\]{}()!+@\\]/g, '\\$&'),
		action: 'allow',
	};
}

/** Why a deny rule refused: its own explanation, or the rule with where it is written. */
export function refusedBy(rule: PermissionRule): string {
	if (rule.because) {
		return rule.because;
	}
	return `refused by the permission rule ${describeRule(rule)}${rule.origin ? ` (${rule.origin})` : ''}`;
}

export function describeRule(rule: PermissionRule): string {
	return `${rule.action} ${rule.tool}${rule.match !== undefined ? `(${rule.match})` : ''}`;
}
