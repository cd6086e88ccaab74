/**
 * Permission settings merged across VS Code's scopes by us, not by VS Code: VS Code lets a
 * workspace array replace the user's array, so one "Always allow" saved to the workspace (or
 * a cloned repo's `"keel.permissions.denyRead": []`) would silently drop the user's own deny
 * rules. Here everything that narrows (deny, ask, deny-read, always-ask) is the union of every
 * scope; what widens (allow rules, allow-read exceptions) comes from the user's own settings,
 * and from the workspace only when the workspace is trusted.
 */
import type { PermissionRule } from './permissions';

/** The shape of `WorkspaceConfiguration.inspect()`, reduced to what is merged. */
export interface ScopedValues<T> {
	defaultValue?: T;
	globalValue?: T;
	workspaceValue?: T;
	workspaceFolderValue?: T;
}

function isRule(value: unknown): value is PermissionRule {
	const rule = value as PermissionRule;
	return (
		typeof rule === 'object' &&
		rule !== null &&
		typeof rule.tool === 'string' &&
		['allow', 'ask', 'deny'].includes(rule.action) &&
		(rule.match === undefined || typeof rule.match === 'string')
	);
}

const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Scopes in order: default, user, workspace, folder; the last two only count for widening when trusted. */
function scopes<T>(scoped: ScopedValues<T> | undefined): { value: unknown; user: boolean; where: string }[] {
	return [
		{ value: scoped?.defaultValue, user: true, where: "Keel's defaults" },
		{ value: scoped?.globalValue, user: true, where: 'your user settings' },
		{ value: scoped?.workspaceValue, user: false, where: "this workspace's settings" },
		{ value: scoped?.workspaceFolderValue, user: false, where: "the folder's settings" },
	];
}

/** keel.permissions.rules: deny and ask from every scope; allow from the user, and the workspace when trusted. Malformed entries are dropped one by one. */
export function mergeRules(scoped: ScopedValues<unknown> | undefined, trusted: boolean): PermissionRule[] {
	const out: PermissionRule[] = [];
	const seen = new Set<string>();
	for (const scope of scopes(scoped)) {
		for (const rule of arrayOf(scope.value).filter(isRule)) {
			if (rule.action === 'allow' && !scope.user && !trusted) {
				continue;
			}
			const key = JSON.stringify([rule.tool, rule.match, rule.action]);
			if (!seen.has(key)) {
				seen.add(key);
				out.push({
					tool: rule.tool,
					...(rule.match !== undefined ? { match: rule.match } : {}),
					action: rule.action,
					// A refusal names the file to change: the user may not remember writing the rule.
					origin: `keel.permissions.rules in ${scope.where}`,
				});
			}
		}
	}
	return out;
}

/** A list of globs: `narrowing` lists (deny-read, always-ask) are the union of every scope; widening ones skip untrusted workspace scopes. */
export function mergeGlobs(scoped: ScopedValues<unknown> | undefined, trusted: boolean, narrowing: boolean): string[] {
	const out = new Set<string>();
	for (const scope of scopes(scoped)) {
		if (!narrowing && !scope.user && !trusted) {
			continue;
		}
		arrayOf(scope.value)
			.filter((g): g is string => typeof g === 'string' && g.trim() !== '')
			.forEach(g => out.add(g));
	}
	return [...out];
}

/** Path globs of deny rules that apply to `tool`: searches without a path exclude them. */
export function deniedPathGlobs(rules: PermissionRule[], tool: string): string[] {
	return rules
		.filter(r => r.action === 'deny' && r.match !== undefined && (r.tool === tool || r.tool === '*'))
		.map(r => r.match!);
}

/** The array to write for "Always allow": the scope's own rules plus the new one, nothing from other scopes copied in or dropped. */
export function withRule(scopeValue: unknown, rule: PermissionRule): PermissionRule[] | undefined {
	const current = arrayOf(scopeValue) as PermissionRule[];
	if (current.some(r => isRule(r) && r.tool === rule.tool && r.match === rule.match && r.action === rule.action)) {
		return undefined;
	}
	return [...current, rule];
}
