import { bool, category, num, setting, str, strings } from '../settingSpec';

export const CONTEXT = category('Context and tools', {
	'agent.compactAt': setting(
		num(0.8, 0.3, 0.95),
		'Share of `#keel.model.contextWindow#` at which old tool outputs are compacted before a request.',
	),
	'tools.overflowShare': setting(
		num(0.3, 0.02, 0.9),
		'Share of `#keel.model.contextWindow#` one tool output may take (at ~4 characters per token). Longer outputs are cut to head and tail; the whole stays readable with `read_output`. 32,768 tokens × 0.3 ≈ 39,000 characters.',
	),
	'rules.enabled': setting(
		bool(true),
		"Load the project's rules into the system prompt: `AGENTS.md` at the root and in sub-folders (the nearest one applies to files there) and `.keel/rules/*.md`. Reloaded when they change; listed in the chat. In an untrusted workspace they are shown but not applied.",
	),
	'rules.maxTokens': setting(
		num(2000, 0),
		'Most tokens the project rules may take in the system prompt. Root `AGENTS.md` first, then `.keel/rules`, then sub-folder `AGENTS.md` from shallow to deep; a file that does not fit is skipped whole (the chat says which).',
	),
	// Turning the filters off would let a workspace see raw secrets in tool output.
	'filters.enabled': setting(
		bool(true),
		'Filter command output before the model reads it (test runners to failures and summary, `git status` compacted, install noise dropped, …). The card shows "342 → 28 lines (92% filtered, partial)"; the unfiltered output stays readable (`read_output`). Off: the model gets the output as printed.',
		{ trust: 'restricted' },
	),
	'filters.disabledRules': setting(
		strings(),
		'Names of output-filter rules to switch off, e.g. `["git-status", "npm-install"]`. The built-in rule names are listed in docs/tool-output.md in the repository (Output filters).',
	),
	'filters.rulesFile': setting(
		str(''),
		'Your own output-filter rules: the path of a JSON file `{ "rules": [ … ] }` (format in docs/tool-output.md in the repository, Output filters). Rules there override built-in rules of the same name; the workspace\'s `.keel/filters.json` overrides both.',
		{ trust: 'user', editor: { scope: 'machine' } },
	),
	'filters.securityScan': setting(
		bool(true),
		'Scan the raw (unfiltered) output of commands for credential-shaped strings and tell the model one was there, without its value.',
	),
	'filters.securityPatterns': setting(
		strings(),
		'Extra regular expressions (at most 512 characters each) the security scan treats as credentials.',
	),
	'tools.maxOffered': setting(
		num(40, 5),
		'The most tool schemas one request carries. Above this, or when the schemas would take more than a quarter of `#keel.model.contextWindow#`, Keel sends its built-in tools plus the MCP and VS Code tools most relevant to the conversation, and lists the rest by name (the model can ask for one with `request_tools`).',
	),
	'tools.cache.enabled': setting(
		bool(true),
		"Answer a repeated read, listing, search, fetch or diagnostics call from this chat's cache instead of running it again. Commands, writes and MCP tools are never cached; a write (by Keel or in the editor) drops the entries it touches.",
	),
	'tools.anomaly.enabled': setting(
		bool(true),
		'Block a tool for the rest of the chat when most of its recent calls failed; it is no longer offered to the model. Unblock with **Keel: Unblock Tools**.',
	),
});
