import { bool, category, num, objects, setting } from '../settingSpec';

const modeItem = {
	type: 'object',
	required: ['name'],
	properties: {
		name: { type: 'string', description: 'Shown in the chat and used by `/mode NAME`.' },
		instructions: { type: 'string', description: 'Added to the system prompt while the mode is on.' },
		tools: {
			anyOf: [
				{
					type: 'string',
					enum: ['all', 'read'],
					enumDescriptions: ['Every tool, as in Act.', 'Read-only tools, as in Plan.'],
				},
				{ type: 'array', items: { type: 'string' }, description: 'These tools only, by name.' },
			],
		},
	},
};

export const CHAT = category('Chat', {
	'agent.maxSteps': setting(
		num(25, 1, 500),
		'Most model requests in one turn before Keel stops and asks you to continue.',
	),
	'agent.parallelReads': setting(
		num(8, 1, 32),
		'Most read-only tool calls of one model step that run at the same time (reading files, searching, and commands or MCP tools that only read and need no approval). Such a call starts as soon as its arguments are complete, while the model is still writing the rest of its reply. Results still go back to the model in the order it asked; a call that writes or asks waits for the ones before it. 1 runs every call in turn.',
	),
	modes: setting(
		objects(),
		'Your own modes beside Act and Plan: `[{ "name": "Review", "instructions": "Review the code; do not change it.", "tools": "read" }]`. `tools` is `"all"`, `"read"` (read-only tools) or a list of tool names. Switch with `/mode NAME` or **Keel: Switch Mode**; each chat keeps its own mode.',
		{ trust: 'restricted', editor: { items: modeItem } },
	),
	'checkpoints.enabled': setting(
		bool(true),
		"Before a turn changes files (file tools or commands), snapshot the workspace in a repository in Keel's own storage, never your `.git`, so **Keel: Restore Files to Before a Turn** can undo it. Needs `git` on PATH. Files your `.gitignore` excludes, `node_modules/` and similar folders, nested repositories and files above `#keel.checkpoints.maxFileSizeKb#` are not included.",
	),
	'history.toolOutputRetentionDays': setting(
		num(30, 0),
		'Days to keep the stored output of tool calls in the chat history (0 keeps them for ever). Older outputs are dropped at startup; the conversation itself stays.',
	),
});
