/**
 * `${…}` variables in MCP server entries, as VS Code resolves them: `${input:id}` (asked once,
 * secrets kept by the host), `${env:NAME}`, `${workspaceFolder}`, `${userHome}`,
 * `${pathSeparator}`. An unknown variable or an input the user dismissed stops the server from
 * starting, with the reason: a half-resolved command line must never run.
 */
import type { McpServerConfig } from './mcpConfig';

export interface VariableContext {
	workspaceFolder?: string;
	userHome: string;
	pathSeparator: string;
	env: Record<string, string | undefined>;
	/** Answers `${input:id}`; undefined = the user dismissed it or no such input is declared. */
	input(id: string): Promise<string | undefined>;
}

export class UnresolvedVariable extends Error {}

const PATTERN = /\$\{([^}]+)\}/g;

export async function resolveVariables(text: string, context: VariableContext): Promise<string> {
	let out = '';
	let last = 0;
	for (const match of text.matchAll(PATTERN)) {
		out += text.slice(last, match.index);
		out += await resolveVariable(match[1], context);
		last = match.index! + match[0].length;
	}
	return out + text.slice(last);
}

async function resolveVariable(variable: string, context: VariableContext): Promise<string> {
	const [kind, ...rest] = variable.split(':');
	const arg = rest.join(':');
	switch (kind) {
		case 'input': {
			const value = await context.input(arg);
			if (value === undefined) {
				throw new UnresolvedVariable(
					`the input "${arg}" was not given (declare it in "inputs" and answer the prompt)`,
				);
			}
			return value;
		}
		case 'env':
			return context.env[arg] ?? '';
		case 'workspaceFolder':
			if (!context.workspaceFolder) {
				throw new UnresolvedVariable('${workspaceFolder} needs an open folder');
			}
			return context.workspaceFolder;
		case 'userHome':
			return context.userHome;
		case 'pathSeparator':
		case '/':
			return context.pathSeparator;
		default:
			throw new UnresolvedVariable(`unsupported variable \${${variable}}`);
	}
}

/** Every string of the entry resolved; the names of inputs it uses, for "forget secrets". */
export async function resolveServer(server: McpServerConfig, context: VariableContext): Promise<McpServerConfig> {
	const str = (text: string | undefined) => (text === undefined ? undefined : resolveVariables(text, context));
	const record = async (value: Record<string, string> | undefined) => {
		if (!value) {
			return undefined;
		}
		const entries = await Promise.all(
			Object.entries(value).map(async ([k, v]) => [k, await resolveVariables(v, context)] as const),
		);
		return Object.fromEntries(entries);
	};
	return {
		...server,
		command: await str(server.command),
		args: server.args ? await Promise.all(server.args.map(a => resolveVariables(a, context))) : undefined,
		env: await record(server.env),
		envFile: await str(server.envFile),
		cwd: await str(server.cwd),
		url: await str(server.url),
		headers: await record(server.headers),
	};
}

export function inputIds(server: McpServerConfig): string[] {
	const texts = [
		server.command,
		...(server.args ?? []),
		...Object.values(server.env ?? {}),
		server.envFile,
		server.cwd,
		server.url,
		...Object.values(server.headers ?? {}),
	];
	const ids = new Set<string>();
	for (const text of texts) {
		for (const match of (text ?? '').matchAll(PATTERN)) {
			if (match[1].startsWith('input:')) {
				ids.add(match[1].slice('input:'.length));
			}
		}
	}
	return [...ids];
}

/** `KEY=value` lines (dotenv without expansion); `#` comments and `export ` prefixes allowed. */
export function parseEnvFile(text: string): Record<string, string> {
	const out: Record<string, string> = {};
	for (const line of text.split(/\r?\n/)) {
		const match = /^\s*(?:export\s+)?([A-Za-z_][\w.]*)\s*=\s*(.*?)\s*$/.exec(line);
		if (!match || line.trimStart().startsWith('#')) {
			continue;
		}
		let value = match[2];
		if (/^(['"]).*\1$/.test(value)) {
			value = value.slice(1, -1);
		}
		out[match[1]] = value;
	}
	return out;
}
