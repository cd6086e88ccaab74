/**
 * MCP server configuration in VS Code's own format (`.vscode/mcp.json`, and the same shape in
 * the keel.mcp.servers setting): `servers` keyed by name, each stdio (`command`, `args`, `env`,
 * `envFile`, `cwd`) or remote (`url`, `headers`; type `http` = Streamable HTTP with the SSE
 * fallback, `sse` = the old transport only), plus `inputs` that `${input:id}` refers to.
 * Parsing never throws: every entry that is wrong becomes an error line saying what to fix.
 *
 * The portable format (a workspace's `.mcp.json`, Copilot's `~/.copilot/mcp-config.json`, the
 * shape Claude Code and Copilot CLI read too) keys the same entries under `mcpServers` and names
 * stdio `local` as well: https://code.visualstudio.com/docs/agents/reference/mcp-configuration.
 * Its `tools` filter is not read: every tool a server lists is reviewed and pinned as usual.
 */
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { isRecord } from '../../util/json';

export type McpScope = 'workspace' | 'user';

/** VS Code's own files and settings (`servers`), or the portable files (`mcpServers`). */
export type McpFileFormat = 'vscode' | 'portable';

export interface McpServerConfig {
	name: string;
	scope: McpScope;
	type: 'stdio' | 'http' | 'sse';
	command?: string;
	args?: string[];
	env?: Record<string, string>;
	envFile?: string;
	cwd?: string;
	url?: string;
	headers?: Record<string, string>;
}

export interface McpInput {
	id: string;
	type: 'promptString' | 'pickString';
	description: string;
	password?: boolean;
	default?: string;
	options?: string[];
}

export interface McpConfig {
	servers: McpServerConfig[];
	inputs: McpInput[];
	errors: string[];
}

export function parseMcpConfigText(
	text: string,
	scope: McpScope,
	origin: string,
	format: McpFileFormat = 'vscode',
): McpConfig {
	const errors: ParseError[] = [];
	const value = parseJsonc(text, errors, { allowTrailingComma: true });
	if (errors.length > 0) {
		const first = errors[0];
		return {
			servers: [],
			inputs: [],
			errors: [
				`${origin}: ${printParseErrorCode(first.error)} at offset ${first.offset}. Fix the JSON (comments and trailing commas are fine).`,
			],
		};
	}
	return parseMcpConfig(value, scope, origin, format);
}

export function parseMcpConfig(
	value: unknown,
	scope: McpScope,
	origin: string,
	format: McpFileFormat = 'vscode',
): McpConfig {
	const serversKey = format === 'portable' ? 'mcpServers' : 'servers';
	const out: McpConfig = { servers: [], inputs: [], errors: [] };
	if (value === undefined || value === null) {
		return out;
	}
	if (!isRecord(value)) {
		out.errors.push(`${origin}: expected an object with "${serversKey}" (and optionally "inputs").`);
		return out;
	}
	const servers = value[serversKey] ?? {};
	if (!isRecord(servers)) {
		out.errors.push(`${origin}: "${serversKey}" must be an object keyed by server name.`);
	} else {
		for (const [name, raw] of Object.entries(servers)) {
			const server = parseServer(name, raw, scope);
			if (typeof server === 'string') {
				out.errors.push(`${origin}: server "${name}": ${server}`);
			} else {
				out.servers.push(server);
			}
		}
	}
	const inputs = value.inputs ?? [];
	if (!Array.isArray(inputs)) {
		out.errors.push(`${origin}: "inputs" must be an array.`);
	} else {
		for (const raw of inputs) {
			if (
				isRecord(raw) &&
				typeof raw.id === 'string' &&
				(raw.type === 'promptString' || raw.type === 'pickString')
			) {
				out.inputs.push({
					id: raw.id,
					type: raw.type,
					description: typeof raw.description === 'string' ? raw.description : raw.id,
					password: raw.password === true,
					default: typeof raw.default === 'string' ? raw.default : undefined,
					options: Array.isArray(raw.options)
						? raw.options.filter((o): o is string => typeof o === 'string')
						: undefined,
				});
			} else {
				out.errors.push(`${origin}: an input needs "id" and "type" ("promptString" or "pickString").`);
			}
		}
	}
	return out;
}

function parseServer(name: string, raw: unknown, scope: McpScope): McpServerConfig | string {
	if (!/^[\w.-]{1,64}$/.test(name)) {
		return 'names may use letters, digits, ".", "_" and "-" (at most 64).';
	}
	if (!isRecord(raw)) {
		return 'expected an object with "command" or "url".';
	}
	// `local` is the portable format's other name for stdio.
	const declared = raw.type === 'local' ? 'stdio' : raw.type;
	const type =
		declared ?? (typeof raw.command === 'string' ? 'stdio' : typeof raw.url === 'string' ? 'http' : undefined);
	if (type === 'stdio') {
		if (typeof raw.command !== 'string' || raw.command.trim() === '') {
			return 'a stdio server needs "command" (the program to run).';
		}
		if (raw.args !== undefined && !isStringArray(raw.args)) {
			return '"args" must be an array of strings.';
		}
		if (raw.env !== undefined && !isStringRecord(raw.env)) {
			return '"env" must map names to strings (null is not supported).';
		}
		return {
			name,
			scope,
			type,
			command: raw.command,
			args: raw.args as string[] | undefined,
			env: raw.env as Record<string, string> | undefined,
			envFile: typeof raw.envFile === 'string' ? raw.envFile : undefined,
			cwd: typeof raw.cwd === 'string' ? raw.cwd : undefined,
		};
	}
	if (type === 'http' || type === 'sse') {
		if (typeof raw.url !== 'string' || !/^https?:\/\//i.test(raw.url)) {
			return `a ${type} server needs "url" (http:// or https://).`;
		}
		if (raw.headers !== undefined && !isStringRecord(raw.headers)) {
			return '"headers" must map names to strings.';
		}
		return { name, scope, type, url: raw.url, headers: raw.headers as Record<string, string> | undefined };
	}
	return `unknown "type" ${JSON.stringify(type)}: use "stdio", "http" or "sse".`;
}

function isStringArray(value: unknown): value is string[] {
	return Array.isArray(value) && value.every(v => typeof v === 'string');
}

function isStringRecord(value: unknown): value is Record<string, string> {
	return isRecord(value) && Object.values(value).every(v => typeof v === 'string');
}
