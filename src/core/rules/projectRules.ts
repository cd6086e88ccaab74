import type { Gate } from '../gate/gate';
import { approxTokens } from '../util/tokens';
import type { Workspace } from '../ports';

/** One rules file as found in the workspace. */
export interface RuleFile {
	/** Workspace-relative path, e.g. "AGENTS.md", "src/api/AGENTS.md", ".keel/rules/style.md". */
	path: string;
	/** The folder whose files it applies to ('' = the whole workspace). */
	scope: string;
	text: string;
	tokens: number;
}

export interface LoadedRules {
	/** Within the budget, in the order they go into the system prompt. */
	applied: RuleFile[];
	/** Found but left out, with the reason the chat shows. */
	skipped: Array<{ path: string; tokens: number; reason: string }>;
	tokens: number;
}

export const RULE_GLOBS = ['**/AGENTS.md', '.keel/rules/*.md'];
const MAX_FILES = 50;

/**
 * Finds AGENTS.md files (root and sub-folders) and .keel/rules/*.md, and keeps as many as fit
 * `budgetTokens`: the root AGENTS.md first, then .keel/rules by name, then sub-folder files
 * from shallow to deep. A file that does not fit is skipped whole (half a rule misleads). Each
 * is read through the gate like read_file reads: one that is a link or hard link out of the
 * workspace, deny-read, or a link to a protected file is skipped with the reason.
 */
export async function loadRules(workspace: Workspace, budgetTokens: number, gate: Gate): Promise<LoadedRules> {
	const found = new Set<string>();
	for (const glob of RULE_GLOBS) {
		for (const path of await workspace.findFiles(glob, MAX_FILES).catch(() => [] as string[])) {
			found.add(path.replace(/\\/g, '/'));
		}
	}
	const files: RuleFile[] = [];
	const skipped: LoadedRules['skipped'] = [];
	for (const path of [...found].sort(byPrecedence)) {
		let text: string;
		try {
			text = Buffer.from((await gate.readShipped(workspace, path, 'rules file')).bytes)
				.toString('utf8')
				.trim();
		} catch (error) {
			skipped.push({ path, tokens: 0, reason: (error as Error).message });
			continue;
		}
		if (!text) {
			continue;
		}
		files.push({ path, scope: scopeOf(path), text, tokens: approxTokens(text) });
	}
	const applied: RuleFile[] = [];
	let tokens = 0;
	for (const file of files) {
		if (tokens + file.tokens > budgetTokens) {
			skipped.push({
				path: file.path,
				tokens: file.tokens,
				reason: `over the ${budgetTokens}-token budget (keel.rules.maxTokens)`,
			});
			continue;
		}
		applied.push(file);
		tokens += file.tokens;
	}
	return { applied, skipped, tokens };
}

function scopeOf(path: string): string {
	if (path.startsWith('.keel/rules/')) {
		return '';
	}
	const at = path.lastIndexOf('/');
	return at === -1 ? '' : path.slice(0, at);
}

function precedence(path: string): number {
	if (path === 'AGENTS.md') {
		return 0;
	}
	return path.startsWith('.keel/rules/') ? 1 : 2;
}

function byPrecedence(a: string, b: string): number {
	return precedence(a) - precedence(b) || a.split('/').length - b.split('/').length || a.localeCompare(b);
}

/** The nearest AGENTS.md that applies to a file: the deepest scope containing it. */
export function nearestRules(rules: readonly RuleFile[], filePath: string): RuleFile | undefined {
	return rules
		.filter(
			rule =>
				rule.path.endsWith('AGENTS.md') &&
				(rule.scope === '' || filePath === rule.scope || filePath.startsWith(`${rule.scope}/`)),
		)
		.sort((a, b) => b.scope.length - a.scope.length)[0];
}

/**
 * The system-prompt section. Sub-folder files say where they apply and that they win there,
 * which is how the AGENTS.md convention reads ("the nearest file takes precedence").
 */
export function rulesPromptSection(rules: LoadedRules): string {
	if (rules.applied.length === 0) {
		return '';
	}
	const parts = [
		'The project gives these rules. Follow them; where they conflict, the rules for the more specific folder win for files in that folder.',
	];
	for (const rule of rules.applied) {
		const where = rule.scope ? `for files under ${rule.scope}/` : 'for the whole workspace';
		parts.push(`## Rules from ${rule.path} (${where})\n${rule.text}`);
	}
	return parts.join('\n\n');
}

/** The chat line: "Rules: AGENTS.md (412 tokens), src/AGENTS.md (40 tokens)". */
export function rulesSummary(rules: LoadedRules, applied: boolean): string {
	const list = (rules.applied.length ? rules.applied : [])
		.map(rule => `${rule.path} (${rule.tokens} tokens)`)
		.join(', ');
	const skipped = rules.skipped.map(s => `${s.path} (${s.tokens} tokens, ${s.reason})`).join(', ');
	if (!applied) {
		const all = [...rules.applied.map(r => r.path), ...rules.skipped.map(s => s.path)].join(', ');
		return `Rules found but not applied: ${all}. This workspace is not trusted; trust it to let its rules into the prompt.`;
	}
	return `Rules: ${list || 'none applied'}${skipped ? `. Skipped: ${skipped}` : ''}.`;
}
