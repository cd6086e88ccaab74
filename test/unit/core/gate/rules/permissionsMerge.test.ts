import * as assert from 'assert';
import type { PermissionRule } from '../../../../../src/core/gate/rules/permissions';
import { deniedPathGlobs, mergeGlobs, mergeRules, withRule } from '../../../../../src/core/gate/rules/permissionsMerge';

const deny: PermissionRule = { tool: 'run_command', match: 'git push*', action: 'deny' };
const allow: PermissionRule = { tool: 'run_command', match: 'npm test', action: 'allow' };

const user = (rule: PermissionRule) => ({ ...rule, origin: 'keel.permissions.rules in your user settings' });
const workspace = (rule: PermissionRule) => ({
	...rule,
	origin: "keel.permissions.rules in this workspace's settings",
});

describe('permission settings merged across scopes', () => {
	it("a workspace's own rules never drop the user's deny rules, and each says where it is written", () => {
		const rules = mergeRules({ globalValue: [deny], workspaceValue: [allow] }, true);
		assert.deepStrictEqual(rules, [user(deny), workspace(allow)]);
	});

	it('allow rules from an untrusted workspace are ignored; its deny and ask rules still count', () => {
		const ask: PermissionRule = { tool: 'write_file', match: 'src/**', action: 'ask' };
		assert.deepStrictEqual(
			mergeRules(
				{
					globalValue: [deny],
					workspaceValue: [allow, ask],
					workspaceFolderValue: [{ tool: '*', action: 'allow' }],
				},
				false,
			),
			[user(deny), workspace(ask)],
		);
	});

	it('malformed entries are dropped one by one', () => {
		assert.deepStrictEqual(
			mergeRules({ globalValue: [deny, { tool: 3 }, 'x', { tool: 'a', action: 'maybe' }] }, true),
			[user(deny)],
		);
		assert.deepStrictEqual(mergeRules({ globalValue: 'not an array' as unknown }, true), []);
	});

	it('deny-read is a union: an empty workspace list erases nothing', () => {
		assert.deepStrictEqual(mergeGlobs({ globalValue: ['**/secrets/**'], workspaceValue: [] }, false, true), [
			'**/secrets/**',
		]);
		assert.deepStrictEqual(mergeGlobs({ globalValue: ['a'], workspaceValue: ['b'] }, false, true), ['a', 'b']);
	});

	it('allow-read exceptions come from the workspace only when it is trusted', () => {
		assert.deepStrictEqual(mergeGlobs({ globalValue: ['a'], workspaceValue: ['**/.env'] }, false, false), ['a']);
		assert.deepStrictEqual(mergeGlobs({ globalValue: ['a'], workspaceValue: ['b'] }, true, false), ['a', 'b']);
	});

	it('"Always allow" appends to the chosen scope only, once', () => {
		assert.deepStrictEqual(withRule([deny], allow), [deny, allow]);
		assert.strictEqual(withRule([deny, allow], allow), undefined);
		assert.deepStrictEqual(withRule(undefined, allow), [allow]);
	});

	it('deny path rules on grep (or on every tool) become search exclusions', () => {
		const rules: PermissionRule[] = [
			{ tool: 'grep', match: 'scripts/**', action: 'deny' },
			{ tool: '*', match: 'private/**', action: 'deny' },
			{ tool: 'read_file', match: 'x/**', action: 'deny' },
		];
		assert.deepStrictEqual(deniedPathGlobs(rules, 'grep'), ['scripts/**', 'private/**']);
	});
});
