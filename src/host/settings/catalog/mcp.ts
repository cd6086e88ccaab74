import { bool, category, num, record, setting } from '../settingSpec';

export const MCP = category('MCP', {
	'mcp.config': setting(
		record({}),
		'Your own MCP servers, in the shape of VS Code\'s `.vscode/mcp.json`: `{ "servers": { "name": { "type": "stdio", "command": …, "args": […], "env": {…}, "envFile": … } or { "type": "http", "url": …, "headers": {…} } }, "inputs": [ … ] }`. A workspace declares its servers in `.vscode/mcp.json` and each needs your permission once. Manage them with **Keel: MCP Servers**.',
		{ trust: 'user' },
	),
	'tools.vscodeTools': setting(
		bool(true),
		"Offer the tools other extensions register in VS Code (`vscode.lm.tools`, including MCP servers configured in VS Code itself) to Keel's model. They ask before running, like MCP tools.",
	),
	'mcp.connectTimeoutSeconds': setting(
		num(30, 1),
		'How long starting an MCP server (connect, initialize, list tools) may take, in seconds.',
	),
	'mcp.callTimeoutSeconds': setting(
		num(60, 1),
		'How long an MCP tool call may take, in seconds, before Keel gives up on it and tells the model (the server keeps running).',
	),
});
