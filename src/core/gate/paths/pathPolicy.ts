/**
 * Which workspace files the agent may not read, and which it may only change with a human
 * looking. Globs are matched case-insensitively (CVE-2025-59944 bypassed a protected-file
 * check with a different case) against the path as asked AND its canonical form.
 */
import { linearGlob, linearGlobUnion } from '../../patterns/linearGlob';
import { UnsupportedPattern } from '../../patterns/linearRegex';

export interface PathPolicy {
	/** Globs the agent can neither read nor write (settings: keel.permissions.denyRead). */
	denyRead: string[];
	/** Exceptions to denyRead (keel.permissions.allowRead), e.g. ".env.example". */
	allowRead: string[];
	/** Writes here always ask, even with auto-approve on (keel.permissions.alwaysAsk adds to these). */
	alwaysAsk: string[];
	/** Path globs of deny rules on grep: a search without a path skips these files. */
	denySearch?: string[];
}

export const DEFAULT_DENY_READ = [
	'**/.env',
	'**/.env.*',
	'**/*.pem',
	'**/*.key',
	'**/*.p12',
	'**/*.pfx',
	'**/id_rsa*',
	'**/id_dsa*',
	'**/id_ecdsa*',
	'**/id_ed25519*',
	'**/.ssh/**',
	'**/.aws/**',
	'**/.azure/**',
	'**/.config/gcloud/**',
	'**/.kube/**',
	'**/.docker/config.json',
	'**/.config/gh/hosts.yml',
	'**/.config/hub',
	'**/.terraform.d/credentials.tfrc.json',
	'**/.yarnrc.yml',
	'**/*.ppk',
	'**/*.gpg',
	'**/*.asc',
	'**/secring.*',
	'**/.gnupg/**',
	'**/.htpasswd',
	'**/.pgpass',
	'**/.netrc',
	'**/.npmrc',
	'**/.pypirc',
	'**/.git-credentials',
	'**/credentials.json',
	'**/*.keystore',
];

export const DEFAULT_ALLOW_READ = ['**/.env.example', '**/.env.sample', '**/.env.template', '**/*.pub'];

/** Files that steer the editor or the agent: a prompt-injected write here is code execution later. */
export const PROTECTED_PATHS: Array<{ glob: string; reason: string }> = [
	{ glob: '**/.vscode/**', reason: 'editor settings and tasks (.vscode/) can run code' },
	{ glob: '**/*.code-workspace', reason: 'workspace settings can change what Keel and the editor do' },
	{ glob: '**/.git/hooks/**', reason: 'git hooks run on every commit' },
	{ glob: '**/.git/config', reason: 'git config can run programs' },
	// The folders themselves: replacing or deleting .git or .github swaps every hook and workflow at once.
	{ glob: '**/.git', reason: 'the repository folder holds hooks and config that run programs' },
	{ glob: '**/.github', reason: 'CI workflows run with repository secrets' },
	{ glob: '**/.keel/**', reason: "Keel's own settings" },
	{ glob: '**/.mcp.json', reason: 'MCP server config starts programs' },
	{ glob: '**/mcp.json', reason: 'MCP server config starts programs' },
	{ glob: '**/.cursor/**', reason: 'agent config' },
	{ glob: '**/.claude/**', reason: 'agent config' },
	{ glob: '**/.copilot/**', reason: 'agent config (Copilot and VS Code read MCP servers from it)' },
	{ glob: '**/.devcontainer/**', reason: 'dev container config runs on open' },
	{ glob: '**/.github/workflows/**', reason: 'CI workflows run with repository secrets' },
	{ glob: '**/.husky/**', reason: 'git hooks run on every commit' },
	// Submodules keep their own config and hooks under .git/modules/<name>/ (nested ones deeper).
	{ glob: '**/.git/**/hooks/**', reason: 'git hooks run on every commit' },
	{ glob: '**/.git/**/config', reason: 'git config can run programs (core.fsmonitor, core.pager)' },
	{ glob: '**/.git/info/**', reason: 'git attributes and excludes change what git runs and shows' },
	{ glob: '**/.github/**', reason: 'CI workflows and actions run with repository secrets' },
	{ glob: '**/.gitlab-ci.yml', reason: 'CI pipelines run with repository secrets' },
	{ glob: '**/.gitlab/**', reason: 'CI templates run with repository secrets' },
	{ glob: '**/.husky', reason: 'git hooks run on every commit' },
	{ glob: '**/.devcontainer', reason: 'dev container config runs on open' },
	{ glob: '**/.devcontainer.json', reason: 'dev container config runs on open' },
	{ glob: '**/.pre-commit-config.yaml', reason: 'pre-commit hooks run on every commit' },
	{ glob: '**/.yarnrc.yml', reason: 'yarn config can run programs and change registries' },
	{ glob: '**/.yarnrc', reason: 'yarn config can run programs and change registries' },
	{ glob: '**/.envrc', reason: 'direnv runs it on entering the folder' },
	{ glob: '**/.gitmodules', reason: 'submodule URLs decide what code is fetched' },
	{ glob: '**/.keel', reason: "Keel's own settings" },
	{ glob: '**/.vscode', reason: 'editor settings and tasks (.vscode/) can run code' },
];

export const defaultPathPolicy: PathPolicy = {
	denyRead: DEFAULT_DENY_READ,
	allowRead: DEFAULT_ALLOW_READ,
	alwaysAsk: [],
};

/**
 * Globs come from settings a workspace can add to, so they run in linear time (linearGlob.ts).
 * One the engine cannot run fails closed: it denies or asks for every path, and allows none.
 */
function matcher(glob: string, unrunnable: boolean): (path: string) => boolean {
	try {
		return linearGlob(glob, { nocase: true });
	} catch (error) {
		if (error instanceof UnsupportedPattern) {
			return () => unrunnable;
		}
		throw error;
	}
}

/**
 * Also matches the bare top-level name: "**\/.env" must catch ".env" at the root. Both sides
 * are compared in one Unicode normal form (NFC): a name stored decomposed (NFD, as macOS file
 * systems may hand it back) is the same name as the composed one a glob was typed with.
 */
export function globMatches(glob: string, path: string, unrunnable = true): boolean {
	const match = matcher(glob.normalize('NFC'), unrunnable);
	const name = path.normalize('NFC');
	return name !== '' && (match(name) || match(`x/${name}`));
}

/**
 * `globs.some(glob => globMatches(glob, path, unrunnable))`, with the list matched as one
 * program when it can be (linearGlobUnion): every file of a restore or a listing is checked
 * against every glob, and one pass per path instead of one per glob keeps that cheap.
 */
export function someGlobMatches(globs: readonly string[], path: string, unrunnable = true): boolean {
	const union = linearGlobUnion(
		globs.map(glob => glob.normalize('NFC')),
		{ nocase: true },
	);
	if (!union) {
		return globs.some(glob => globMatches(glob, path, unrunnable));
	}
	const name = path.normalize('NFC');
	return name !== '' && (union(name) || union(`x/${name}`));
}

export function isDeniedRead(path: string, policy: PathPolicy): boolean {
	return someGlobMatches(policy.denyRead, path) && !someGlobMatches(policy.allowRead, path, false);
}

/** The reason a write to `path` must always ask, or undefined. */
export function isProtectedPath(path: string, policy: PathPolicy): string | undefined {
	// Most paths match nothing: one pass over each list says so; a hit is then named glob by glob.
	const globs = PROTECTED_PATHS.map(p => p.glob);
	const protectedHit = someGlobMatches(globs, path) || someGlobMatches(globs, `${path}/x`);
	if (!protectedHit && !someGlobMatches(policy.alwaysAsk, path)) {
		return undefined;
	}
	const hit = PROTECTED_PATHS.find(p => globMatches(p.glob, path) || globMatches(p.glob, `${path}/x`));
	if (hit) {
		return hit.reason;
	}
	const extra = policy.alwaysAsk.find(glob => globMatches(glob, path));
	return extra ? `matches keel.permissions.alwaysAsk (${extra})` : undefined;
}

/** Globs for ripgrep (`--glob !…`) so grep never prints a deny-read file's lines. */
export function denyReadRgGlobs(policy: PathPolicy): string[] {
	// Keep the leading **/: a rg glob with a slash is anchored at the root, so ".ssh/**" alone would miss a nested one.
	return [...policy.denyRead, ...(policy.denySearch ?? [])].map(glob => `!${glob}`);
}
