// Launches a real VS Code (code-server) for the extension-host and e2e tiers: the current
// release by default, or with KEEL_VSCODE=oldest the oldest VS Code that engines.vscode claims
// (versions in scripts/lib/code-server-versions.env). Each launch gets fresh user-data and
// extensions dirs under one temp folder, so tests never see each other's state, and dispose()
// kills the whole process group (the server forks the extension host and pty host; killing
// only the server leaks them).
import { type ChildProcess, execFile, execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import { freePort, killGroup, stopGroup, waitForHttp } from './processes';
import { toolsCache } from './toolsCache';

/** The repository root, whether this runs from test/support (ts) or out/test/support (js). */
export const REPO_ROOT = findRepoRoot(__dirname);
const VERSIONS = readVersions(path.join(REPO_ROOT, 'scripts/lib/code-server-versions.env'));
/** Which code-server the tiers run on: 'current' (main target) or 'oldest' (smoke run). */
export const VSCODE_TARGET: 'current' | 'oldest' = process.env.KEEL_VSCODE === 'oldest' ? 'oldest' : 'current';
export const CODE_SERVER_VERSION =
	VSCODE_TARGET === 'oldest' ? VERSIONS.KEEL_CODE_SERVER_OLDEST_VERSION : VERSIONS.KEEL_CODE_SERVER_VERSION;
// Same folders as scripts/lib/setup.sh; the oldest keeps the historical folder name.
const CACHE = toolsCache(REPO_ROOT);
const CODE_SERVER_DIR = path.join(
	CACHE,
	VSCODE_TARGET === 'oldest' ? 'code-server' : `code-server-${CODE_SERVER_VERSION}`,
);
// Another code-server entirely with KEEL_CODE_SERVER_ENTRY and KEEL_CODE_SERVER_NODE.
export const CODE_SERVER_ENTRY =
	process.env.KEEL_CODE_SERVER_ENTRY || path.join(CODE_SERVER_DIR, 'node_modules/code-server/out/node/entry.js');
// The current release needs a newer Node than the test runner's: setup.sh puts one in the cache.
const CODE_SERVER_NODE =
	process.env.KEEL_CODE_SERVER_NODE ||
	(VSCODE_TARGET === 'current' && !process.env.KEEL_CODE_SERVER_ENTRY
		? path.join(CACHE, `node-${VERSIONS.KEEL_CODE_SERVER_NODE_VERSION}/bin/node`)
		: process.execPath);
export const FIXTURE_WORKSPACE = path.join(REPO_ROOT, 'test/fixtures/workspace');

export interface CodeServerOptions {
	/** VSIX files installed before start (a copied folder is not picked up by code-server). */
	vsix?: string[];
	/** Merged over quiet defaults into User/settings.json before launch. */
	settings?: Record<string, unknown>;
	/** Folder to open; default: a fresh copy of test/fixtures/workspace. */
	workspace?: string;
	/** Extra environment; the extension host inherits the server's environment. */
	env?: Record<string, string>;
	/** Opt into the workspace-trust prompt (off by default so tests are not blocked by it). */
	workspaceTrust?: boolean;
}

export interface CodeServer {
	port: number;
	/** Workbench URL with the workspace folder opened. */
	url: string;
	workspace: string;
	userDataDir: string;
	extensionsDir: string;
	logFile: string;
	/** Milliseconds spent putting the VSIX files in place (a copy after the first install). */
	installMs: number;
	/** Milliseconds from spawn until the server answered HTTP. */
	startupMs: number;
	dispose(): Promise<void>;
}

// Quiet defaults: no welcome page, no update or experiment traffic (there is no internet).
const DEFAULT_SETTINGS: Record<string, unknown> = {
	'workbench.startupEditor': 'none',
	'workbench.tips.enabled': false,
	'workbench.enableExperiments': false,
	'telemetry.telemetryLevel': 'off',
	'update.mode': 'none',
	'extensions.autoUpdate': false,
	'extensions.autoCheckUpdates': false,
	'extensions.ignoreRecommendations': true,
	'git.enabled': false,
	// A current VS Code opens its own Chat in the secondary sidebar on first start; keep screenshots on Keel.
	'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

export async function startCodeServer(opts: CodeServerOptions = {}): Promise<CodeServer> {
	ensureTools();
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-cs-'));
	const userDataDir = path.join(root, 'user-data');
	const extensionsDir = path.join(root, 'extensions');
	const workspace = opts.workspace ?? copyFixtureWorkspace(root);
	const configFile = path.join(root, 'config.yaml');
	const logFile = path.join(root, 'code-server.log');
	fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
	// Our own config file: without it code-server writes ~/.config/code-server/config.yaml.
	fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
	const settings = { ...DEFAULT_SETTINGS, ...opts.settings };
	fs.writeFileSync(path.join(userDataDir, 'User/settings.json'), JSON.stringify(settings, null, 2));
	const base = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

	const installStarted = Date.now();
	if (opts.vsix?.length) await installExtensions(opts.vsix, extensionsDir);
	const installMs = Date.now() - installStarted;

	const port = await freePort();
	const args = [
		CODE_SERVER_ENTRY,
		...base,
		'--auth',
		'none',
		'--bind-addr',
		`127.0.0.1:${port}`,
		'--disable-telemetry',
		'--disable-update-check',
		'--disable-getting-started-override',
		'--session-socket',
		path.join(root, 'ipc.sock'),
		...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
		workspace,
	];
	const log = fs.openSync(logFile, 'a');
	const t0 = Date.now();
	// detached: own process group, so dispose() can signal the server and all it forked.
	const child = spawn(CODE_SERVER_NODE, args, {
		detached: true,
		stdio: ['ignore', log, log],
		env: serverEnv(opts.env),
	});
	fs.closeSync(log);
	watchForAbort();
	live.add(child);

	const dispose = async () => {
		live.delete(child);
		await stopGroup(child);
		if (process.env.KEEL_KEEP_TMP !== '1') fs.rmSync(root, { recursive: true, force: true });
	};
	try {
		await waitForHttp(`http://127.0.0.1:${port}/healthz`, child, 60_000);
	} catch (err) {
		const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
		await dispose();
		throw new Error(`${(err as Error).message}\n--- code-server log ---\n${tail}`, { cause: err });
	}
	// A .code-workspace file opens as a (multi-root) workspace, anything else as a folder.
	const url = `http://127.0.0.1:${port}/?${workspace.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(workspace)}`;
	return {
		port,
		url,
		workspace,
		userDataDir,
		extensionsDir,
		logFile,
		installMs,
		startupMs: Date.now() - t0,
		dispose,
	};
}

// Installing a VSIX through code-server's CLI costs seconds per launch, and every suite of a tier
// installs the same files: install each set once per test process into a template, then give each
// launch its own copy. code-server records installed extensions in extensions.json by absolute
// path, so the copy's record is rewritten to point at the copy.
const installed = new Map<string, Promise<string>>();

async function installExtensions(vsix: string[], extensionsDir: string): Promise<void> {
	const files = vsix.map(v => path.resolve(v));
	const key = files.map(f => `${f}@${fs.statSync(f).mtimeMs}`).join('\n');
	let template = installed.get(key);
	if (!template) {
		template = installTemplate(files);
		installed.set(key, template);
		template.catch(() => installed.delete(key));
	}
	const source = await template;
	fs.cpSync(source, extensionsDir, { recursive: true });
	const record = path.join(extensionsDir, 'extensions.json');
	if (fs.existsSync(record))
		fs.writeFileSync(record, fs.readFileSync(record, 'utf8').split(source).join(extensionsDir));
}

async function installTemplate(files: string[]): Promise<string> {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-cs-extensions-'));
	templates.push(root);
	const extensionsDir = path.join(root, 'extensions');
	const configFile = path.join(root, 'config.yaml');
	fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
	const install = files.flatMap(f => ['--install-extension', f]);
	const args = [CODE_SERVER_ENTRY, '--config', configFile, '--user-data-dir', path.join(root, 'user-data')];
	args.push('--extensions-dir', extensionsDir);
	await promisify(execFile)(CODE_SERVER_NODE, [...args, ...install, '--force'], { env: serverEnv() });
	return extensionsDir;
}

const templates: string[] = [];
process.on('exit', () => templates.forEach(dir => fs.rmSync(dir, { recursive: true, force: true })));

// The server runs in its own process group, so Ctrl-C on the test run does not reach it:
// kill every live server when the test process ends for any reason.
const live = new Set<ChildProcess>();
let watching = false;
function watchForAbort(): void {
	if (watching) return;
	watching = true;
	process.on('exit', () => live.forEach(c => killGroup(c, 'SIGKILL')));
	for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => process.exit(130));
}

/** Keel's VSIX: $KEEL_VSIX when set (a throwaway build), else dist/keel.vsix if built. */
export function keelVsixPath(): string | undefined {
	const p = process.env.KEEL_VSIX ?? path.join(REPO_ROOT, 'dist/keel.vsix');
	return fs.existsSync(p) ? path.resolve(p) : undefined;
}

/** A writable copy of the fixture workspace, so tests may edit files. */
export function copyFixtureWorkspace(parent: string): string {
	const dest = path.join(parent, 'workspace');
	fs.cpSync(FIXTURE_WORKSPACE, dest, { recursive: true });
	return dest;
}

/** Installs code-server and Chromium through scripts/lib/setup.sh when missing (CI starts bare). */
export function ensureTools(): void {
	if (fs.existsSync(CODE_SERVER_ENTRY) && fs.existsSync(CODE_SERVER_NODE) && fs.existsSync('/usr/bin/chromium'))
		return;
	const script = `source "${REPO_ROOT}/scripts/lib/setup.sh" && keel_setup_code_server ${VSCODE_TARGET} && keel_setup_chromium`;
	execFileSync('bash', ['-c', script], { stdio: 'inherit' });
}

// VSCODE_* variables of an enclosing VS Code (a terminal, test-electron) would make
// code-server talk to that instance instead of starting its own.
function serverEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env))
		if (!k.startsWith('VSCODE_') && k !== 'ELECTRON_RUN_AS_NODE') env[k] = v;
	return { ...env, ...extra };
}

function findRepoRoot(start: string): string {
	for (let dir = start; dir !== path.dirname(dir); dir = path.dirname(dir)) {
		const pkg = path.join(dir, 'package.json');
		if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'keel') return dir;
	}
	throw new Error(`no keel package.json above ${start}`);
}

/** KEY=value lines of a shell-sourceable file (comments and blanks skipped). */
function readVersions(
	file: string,
): Record<'KEEL_CODE_SERVER_VERSION' | 'KEEL_CODE_SERVER_NODE_VERSION' | 'KEEL_CODE_SERVER_OLDEST_VERSION', string> {
	const values: Record<string, string> = {};
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
		if (match) values[match[1]] = match[2].replace(/^["']|["']$/g, '');
	}
	return values as ReturnType<typeof readVersions>;
}
