import * as vscode from 'vscode';
import { checkRulePattern, type PermissionRule } from '../../core/gate/rules/permissions';
import { DEFAULT_ALLOW_READ, DEFAULT_DENY_READ, type PathPolicy } from '../../core/gate/paths/pathPolicy';
import { warnUnrunnablePatterns } from './patternWarnings';
import { deniedPathGlobs, mergeGlobs, mergeRules, withRule } from '../../core/gate/rules/permissionsMerge';

/** keel.permissions.rules merged across scopes (permissionsMerge.ts): a workspace never drops the user's deny rules. */
export function readPermissionRules(): PermissionRule[] {
	const config = vscode.workspace.getConfiguration('keel');
	const rules = mergeRules(config.inspect<unknown>('permissions.rules'), vscode.workspace.isTrusted);
	warnUnrunnablePatterns('keel.permissions.rules', rules.map(checkRulePattern));
	return rules;
}

export function readPathPolicy(): PathPolicy {
	const config = vscode.workspace.getConfiguration('keel');
	const trusted = vscode.workspace.isTrusted;
	// Deny-read and always-ask only narrow, so every scope adds to them and none can empty them.
	return {
		denyRead: [...DEFAULT_DENY_READ, ...mergeGlobs(config.inspect('permissions.denyRead'), trusted, true)],
		allowRead: [...DEFAULT_ALLOW_READ, ...mergeGlobs(config.inspect('permissions.allowRead'), trusted, false)],
		alwaysAsk: mergeGlobs(config.inspect('permissions.alwaysAsk'), trusted, true),
		denySearch: deniedPathGlobs(readPermissionRules(), 'grep'),
	};
}

/**
 * "Always allow": appends exactly the rule the card showed to keel.permissions.rules of the
 * scope the user chose (keel.permissions.alwaysAllowScope, read from user settings only, so a
 * workspace cannot redirect it); the other scopes' rules stay and keep applying (rules are
 * merged per scope when read).
 */
export async function persistRule(rule: PermissionRule): Promise<void> {
	const config = vscode.workspace.getConfiguration('keel');
	const user =
		config.inspect<string>('permissions.alwaysAllowScope')?.globalValue === 'user' ||
		!vscode.workspace.workspaceFolders?.length;
	const inspected = config.inspect<unknown>('permissions.rules');
	const next = withRule(user ? inspected?.globalValue : inspected?.workspaceValue, rule);
	if (!next) {
		return;
	}
	await config.update(
		'permissions.rules',
		next,
		user ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace,
	);
	const shown = `${rule.action} ${rule.tool}${rule.match ? `(${rule.match})` : ''}`;
	const where = user ? 'your user settings' : "this workspace's settings";
	void vscode.window
		.showInformationMessage(`Keel: added "${shown}" to keel.permissions.rules in ${where}.`, 'Open Settings')
		.then(choice => {
			if (choice) {
				void vscode.commands.executeCommand(
					user ? 'workbench.action.openSettingsJson' : 'workbench.action.openWorkspaceSettingsFile',
				);
			}
		});
}
