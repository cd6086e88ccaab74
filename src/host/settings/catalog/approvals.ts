import { bool, category, choice, objects, setting, strings } from '../settingSpec';

const ruleItem = {
	type: 'object',
	required: ['tool', 'action'],
	properties: {
		tool: { type: 'string', description: 'A tool name (`write_file`, `run_command`, `fetch`, …) or `*`.' },
		match: {
			type: 'string',
			description: 'Glob on the path, the command or the URL; without it the rule covers every call.',
		},
		action: {
			type: 'string',
			enum: ['allow', 'ask', 'deny'],
			enumDescriptions: [
				'Run without asking.',
				'Always ask, even when auto-approved.',
				'Refuse; the model is told why.',
			],
		},
	},
};

export const APPROVALS = category('Approvals and permissions', {
	'approval.autoApproveReads': setting(
		bool(true),
		'Run read-only tools inside the workspace (read a file, list a folder, find files) without asking.',
		{ trust: 'restricted' },
	),
	'approval.autoApproveWrites': setting(
		bool(false),
		'Run tools that change files without asking. Off by default: every write shows a card to approve. Protected files still ask.',
		{ trust: 'restricted' },
	),
	'approval.autoApproveCommands': setting(
		bool(false),
		'Run shell commands (and MCP tools) without asking. Off by default.',
		{ trust: 'restricted' },
	),
	'approval.autoApproveNetwork': setting(
		bool(false),
		'Run network tools (fetch a URL) without asking. Off by default.',
		{ trust: 'restricted' },
	),
	// Permission lists are merged across scopes when read (permissionsMerge.ts); deny lists only narrow.
	'permissions.rules': setting(
		objects(),
		'Permission rules per tool: `{ "tool": "write_file" | "run_command" | "fetch" | "*", "match": "<glob>", "action": "allow" | "ask" | "deny" }` (`match` optional). `match` is a glob on the path (workspace-relative), the command (every command of a chain must match) or the URL. Precedence: deny, then ask, then allow, then the `keel.approval.*` defaults. A `deny` without `match` hides the tool from the model. Writes to protected files (`.vscode/`, `.git/hooks`, MCP and Keel config) always ask. **Always allow** on an approval card adds a rule here (see `#keel.permissions.alwaysAllowScope#`). Rules from your user and workspace settings are merged, not replaced.',
		{
			trust: 'restricted',
			trustNote:
				"An untrusted workspace's allow rules are ignored; its deny and ask rules still apply, since they only narrow.",
			editor: { items: ruleItem },
		},
	),
	'permissions.alwaysAllowScope': choice(
		{
			workspace: "This workspace's settings (`.vscode/settings.json`).",
			user: 'Your user settings, so the rule applies in every workspace.',
		},
		'workspace',
		"Where **Always allow** on an approval card saves its rule. Either way the rule is added to that scope's own `#keel.permissions.rules#`; rules in other scopes stay and keep applying.",
		{ trust: 'user' },
	),
	'permissions.denyRead': setting(
		strings(),
		'Extra globs the agent can neither read nor write, added to the built-in list (`.env*`, `*.pem`, `*.key`, `id_rsa*`, `.ssh/`, `.aws/`, `.npmrc`, `.netrc`, cloud credentials…). Merged from every scope.',
	),
	'permissions.allowRead': setting(
		strings(),
		'Exceptions to the deny-read list, e.g. `**/.env.test`. Built in: `.env.example`, `.env.sample`, `.env.template`, `*.pub`.',
		{ trust: 'restricted' },
	),
	'permissions.alwaysAsk': setting(
		strings(),
		'Extra globs whose writes always ask, even when writes are auto-approved (built in: `.vscode/`, `.git/hooks`, `.git/config`, `*.code-workspace`, `.keel/`, MCP configs, `.github/workflows/`, `.devcontainer/`). Merged from every scope.',
	),
});
