/**
 * What starting an MCP server will really do, worked out before anything starts: the program
 * PATH resolution finds (its real path, through symlinks), the arguments and working folder
 * after variables, the environment it gets (its `env`, the contents of its `envFile`, which of
 * your environment variables it reads through `${env:…}`, which inputs it asks for). The
 * consent card shows exactly this and the fingerprint covers exactly this; the server is then
 * started from this plan (the resolved program by its absolute path), so what runs is what
 * was shown. `${input:…}` stays a placeholder here: answers are asked only after consent, and
 * may not decide which program runs.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { McpServerConfig } from './mcpConfig';
import { parseEnvFile, resolveServer, type VariableContext } from './mcpVariables';
import { resolveExecutable } from '../../gate/programs';
import { holdIfCredential, holdSecret } from '../../gate/redact/heldSecrets';

// The program a start runs is the gate's decision (gate/programs.ts); kept here under its old name too.
export { resolveExecutable };

export interface McpLaunchPlan {
	/** Where the server is declared and its name: consent and pins are kept per identity. */
	identity: string;
	/** The config to start: variables resolved (inputs still as `${input:id}`), command = the resolved program. */
	config: McpServerConfig;
	/** The environment added to the minimal inherited one: envFile, then env. */
	env: Record<string, string>;
	/** Your environment variables it reads, and the inputs it will ask for. */
	readsEnv: string[];
	inputs: string[];
	/** What the card shows, one line each. */
	lines: string[];
	/** sha256 of everything above that decides what runs. */
	fingerprint: string;
}

export class LaunchRefused extends Error {}

export interface LaunchContext {
	identity: string;
	/** Where relative paths (cwd, envFile, a command with a slash) start: the declaring folder. */
	folder?: string;
	userHome: string;
	env: Record<string, string | undefined>;
}

const INPUT = /\$\{input:([^}]+)\}/g;

export async function planLaunch(server: McpServerConfig, context: LaunchContext): Promise<McpLaunchPlan> {
	const readsEnv = new Set<string>();
	const inputs = new Set<string>();
	refuseInputsThatChooseTheProgram(server);
	const config = await resolveServer(server, recordingVariables(context, readsEnv, inputs));
	const launch =
		config.type === 'stdio'
			? planProcess(server, config, context)
			: { lines: remoteLines(server, config), env: {}, envFileHash: '', executable: '' };
	const { lines, env } = launch;
	const envRead = [...readsEnv].sort();
	if (envRead.length) {
		lines.push(`reads your environment variables: ${envRead.join(', ')}`);
	}
	if (inputs.size) {
		lines.push(`asks you for: ${[...inputs].join(', ')}`);
	}
	holdServerSecrets(
		config,
		env,
		envRead.map(name => [name, context.env[name]]),
	);
	const fingerprint = createHash('sha256')
		.update(
			JSON.stringify([
				context.identity,
				server,
				config,
				launch.executable,
				Object.entries(env).sort(),
				launch.envFileHash,
				envRead.map(name => [name, context.env[name] ?? null]),
			]),
		)
		.digest('hex');
	return { identity: context.identity, config, env, readsEnv: envRead, inputs: [...inputs], lines, fingerprint };
}

/** Variables as the launch resolves them, noting which of your environment variables and which inputs are used. */
function recordingVariables(context: LaunchContext, readsEnv: Set<string>, inputs: Set<string>): VariableContext {
	return {
		workspaceFolder: context.folder,
		userHome: context.userHome,
		pathSeparator: path.sep,
		env: new Proxy(context.env, {
			get: (target, name: string) => {
				readsEnv.add(name);
				return target[name];
			},
		}),
		// Kept as written: the answer is the user's own, asked after consent.
		input: async id => {
			inputs.add(id);
			return `\${input:${id}}`;
		},
	};
}

function refuseInputsThatChooseTheProgram(server: McpServerConfig): void {
	for (const [field, value] of [
		['command', server.command],
		['cwd', server.cwd],
		['envFile', server.envFile],
		['env.PATH', server.env?.PATH],
	] as const) {
		if (value && INPUT.test(value)) {
			INPUT.lastIndex = 0;
			throw new LaunchRefused(
				`"${field}" uses \${input:…}: which program runs must be known before you allow the server. Write it out.`,
			);
		}
	}
}

/**
 * A stdio server: its folder and program resolved (`config` is updated to start exactly
 * them), its environment (envFile, then env), and the card's lines for it.
 */
function planProcess(
	server: McpServerConfig,
	config: McpServerConfig,
	context: LaunchContext,
): { lines: string[]; env: Record<string, string>; envFileHash: string; executable: string } {
	const lines: string[] = [];
	let env: Record<string, string> = {};
	let envFileHash = '';
	config.cwd = realOr(path.resolve(context.folder ?? context.userHome, config.cwd ?? '.'));
	if (config.envFile) {
		const file = path.resolve(context.folder ?? context.userHome, config.envFile);
		let text: string;
		try {
			text = fs.readFileSync(file, 'utf8');
		} catch (error) {
			throw new LaunchRefused(`envFile ${config.envFile} could not be read (${(error as Error).message})`);
		}
		envFileHash = createHash('sha256').update(text).digest('hex');
		env = parseEnvFile(text);
		lines.push(`envFile ${file}: ${Object.keys(env).join(', ') || '(no variables)'}`);
	}
	env = { ...env, ...(config.env ?? {}) };
	const program = resolveExecutable(config.command!, config.cwd, env.PATH ?? context.env.PATH ?? '');
	lines.unshift(
		[program.found, ...(config.args ?? [])].map(quote).join(' '),
		...(program.real !== program.found ? [`(${quote(program.found)} is ${quote(program.real)})`] : []),
		`in ${config.cwd}`,
	);
	if (Object.keys(config.env ?? {}).length) {
		lines.push(
			`env ${Object.entries(config.env!)
				.map(([k]) => `${k}=${quote(server.env?.[k] ?? '')}`)
				.join(' ')}`,
		);
	}
	config.command = program.found;
	return { lines, env, envFileHash, executable: program.real };
}

function remoteLines(server: McpServerConfig, config: McpServerConfig): string[] {
	const lines = [`connect to ${config.url}`];
	if (Object.keys(config.headers ?? {}).length) {
		lines.push(
			`sends headers ${Object.entries(server.headers!)
				.map(([k, v]) => `${k}: ${v}`)
				.join(', ')}`,
		);
	}
	return lines;
}

const LABEL = 'MCP server secret';

/**
 * What Keel hands a server that is a credential, held so it is cut wherever it comes back (the
 * server's results, its errors, the log): `${env:…}` values, env and envFile entries, header
 * values, a URL's password. Judged by name and shape (heldSecrets.ts `credentialLike`).
 */
function holdServerSecrets(
	config: McpServerConfig,
	env: Record<string, string>,
	fromYourEnv: Array<[string, string | undefined]>,
): void {
	for (const [name, value] of fromYourEnv) holdIfCredential(name, value, LABEL);
	for (const [name, value] of Object.entries(env)) holdIfCredential(name, value, LABEL);
	for (const [name, value] of Object.entries(config.headers ?? {})) holdIfCredential(name, value, LABEL);
	if (config.url) {
		try {
			holdSecret(decodeURIComponent(new URL(config.url).password), LABEL);
		} catch {
			// Not a URL yet (an input still in it): judged again once the inputs are in.
		}
	}
}

/** Inputs answered by the user, put in after consent (never into the program, folder or envFile). */
export async function withInputs(
	plan: McpLaunchPlan,
	answer: (id: string) => Promise<string | undefined>,
	/** Inputs declared `"password": true`: their answers are held whatever their name. */
	passwords: ReadonlySet<string> = new Set(),
): Promise<{ config: McpServerConfig; env: Record<string, string> }> {
	const answers = new Map<string, string>();
	for (const id of plan.inputs) {
		const value = await answer(id);
		if (value === undefined) {
			throw new LaunchRefused(`the input "${id}" was not given (declare it in "inputs" and answer the prompt)`);
		}
		answers.set(id, value);
		if (passwords.has(id)) holdSecret(value, LABEL);
		else holdIfCredential(id, value, LABEL);
	}
	const fill = (text: string) => text.replace(INPUT, (_, id: string) => answers.get(id) ?? '');
	const record = (value: Record<string, string> | undefined) =>
		value && Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
	const config = {
		...plan.config,
		args: plan.config.args?.map(fill),
		url: plan.config.url && fill(plan.config.url),
		headers: record(plan.config.headers),
	};
	const env = record(plan.env) ?? {};
	holdServerSecrets(config, env, []);
	return { config, env };
}

function realOr(file: string): string {
	try {
		return fs.realpathSync(file);
	} catch {
		return file;
	}
}

function quote(part: string): string {
	return /^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`;
}
