/**
 * The programs a repository's own configuration makes git run, and the overrides that switch
 * them off for a command the user approved. git reads its configuration from files a command
 * or a cloned repository can write (`.git/config`, files it includes), and several keys name a
 * program git then runs on its own: an fsmonitor on every index refresh, hooks, an external diff,
 * textconv and filter drivers chosen by `.gitattributes`, a pager, an editor, an alias that
 * starts with `!`, an ssh command, credential helpers. A user approving `git status` approved
 * none of those. git itself says what is set and where (`git config --list --show-origin
 * --show-scope`), and its `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`
 * environment overrides every configuration file (only a `-c` the command itself wrote beats
 * it), so nothing here re-implements how git reads its files.
 */
import * as os from 'os';
import * as path from 'path';
import type { ConfigEntry } from '../shell/git/gitQuestions';

/** `file` is `folder` or below it. */
function inside(folder: string, file: string): boolean {
	const relative = path.relative(folder, file);
	return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Keys whose value git runs as a program (or that make it run one), with the value that runs nothing. */
export const PROGRAM_KEYS: ReadonlyArray<readonly [string, string]> = [
	['core.fsmonitor', 'false'],
	['core.hooksPath', os.devNull],
	['core.pager', 'cat'],
	['core.editor', ':'],
	['core.sshCommand', 'ssh'],
	['core.askPass', ''],
	['core.alternateRefsCommand', ''],
	['core.gitProxy', ''],
	['core.virtualFilesystem', ''],
	['sequence.editor', ':'],
	['gpg.program', 'gpg'],
	['gpg.ssh.program', 'ssh-keygen'],
	['gpg.x509.program', 'gpgsm'],
	['credential.helper', ''],
	['uploadpack.packObjectsHook', ''],
];

/**
 * `diff.external`, when anything sets it: git has no value that means "none" (an empty one is run
 * as a program and fails every diff), so it gets a diff that runs nothing of the repository's:
 * git's own, between the two files git hands an external diff ($2 and $5), its exit code 1
 * ("they differ") not taken for a failure. Its own git sees the same overrides.
 */
export const EXTERNAL_DIFF_OFF = `sh -c 'git diff --no-index --no-ext-diff -- "$2" "$5"; [ $? -le 1 ]' keel-diff`;

/** Per-name keys whose value is a program: `diff.<d>.textconv`, `filter.<f>.clean`, `merge.<m>.driver`, `pager.<cmd>`, `credential.<url>.helper`… */
export const DRIVER_KEY =
	/^(?:(?:diff|filter|merge|difftool|mergetool|tar|credential|remote|url|hook)\..+\.(?:textconv|command|clean|smudge|process|driver|cmd|path|helper|uploadpack|receivepack|proxy|vcs)|pager\..+)$/i;

/**
 * The value that runs nothing of the repository's for a per-name key. git runs an empty value as
 * a program (and fails) for a textconv or a per-driver diff command, so those get `cat` (the
 * file as it is, what git shows without a textconv) and git's own diff; an empty difftool or
 * mergetool command makes git fall back to a tool of its choosing, so `:`; `pager.<cmd>` takes
 * `false`. An empty filter, helper or hook is none.
 */
function driverOff(key: string): string {
	if (key.startsWith('pager.')) return 'false';
	if (/^diff\..+\.textconv$/.test(key)) return 'cat';
	if (/^diff\..+\.command$/.test(key)) return EXTERNAL_DIFF_OFF;
	if (/^(?:diff|merge)tool\..+\.cmd$/.test(key)) return ':';
	return '';
}

// One line of git's configuration listing, as shell analysis's question to git names it.
export type { ConfigEntry };

/** Parses git's `-z --show-origin --show-scope` listing; relative origins are from `cwd`. */
export function parseConfigListing(text: string, cwd: string): ConfigEntry[] {
	const parts = text.split('\0');
	const entries: ConfigEntry[] = [];
	for (let i = 0; i + 2 < parts.length; i += 3) {
		const [scope, origin, pair] = [parts[i], parts[i + 1], parts[i + 2]];
		const newline = pair.indexOf('\n');
		const key = (newline === -1 ? pair : pair.slice(0, newline)).toLowerCase();
		const file = origin.startsWith('file:') ? path.resolve(cwd, origin.slice(5)) : undefined;
		entries.push({ scope, file, key, value: newline === -1 ? undefined : pair.slice(newline + 1) });
	}
	return entries;
}

/** Scopes a repository brings with it; `system`, `global` and `command` are the user's own. */
const REPOSITORY_SCOPES = new Set(['local', 'worktree']);

export interface NeutralConfig {
	/** Key and value pairs, in order, for GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n. */
	overrides: Array<[string, string]>;
	/** Files outside the workspace the repository's configuration pulls in (include.path, includeIf). */
	includedOutside: string[];
	/** The program-valued keys the repository itself sets: what was switched off. */
	switchedOff: string[];
}

/**
 * The overrides for one run. Every program key and every driver key the listing names is set
 * to a value that runs nothing; with `keepUsers` (a terminal, where the user's own `~/.gitconfig`
 * applies) a key the user set in their own configuration gets the user's value back, so a
 * repository can replace the user's pager or credential helper with nothing but never with its
 * own. An alias the repository defines is emptied (git then refuses to run it): one that starts with `!`
 * runs a shell, and any other can carry its own `-c core.pager=…`, which beats the environment. A file
 * the repository's configuration reads from outside `roots` (real paths, as are the entries'
 * files and `gitDirs`) is reported, not overridden: its
 * keys can be printed by `git config`, which no override prevents.
 */
export function neutralConfig(
	entries: readonly ConfigEntry[],
	options: { keepUsers: boolean; roots: readonly string[]; gitDirs?: readonly string[] },
): NeutralConfig {
	const users = new Map<string, string[]>();
	const repository = new Set<string>();
	const driverKeys = new Set<string>();
	const includedOutside = new Set<string>();
	const own = [...(options.gitDirs ?? []), ...options.roots].map(folder => path.resolve(folder));
	for (const entry of entries) {
		const byRepository = REPOSITORY_SCOPES.has(entry.scope);
		if (byRepository) repository.add(entry.key);
		else users.set(entry.key, [...(users.get(entry.key) ?? []), entry.value ?? 'true']);
		if (DRIVER_KEY.test(entry.key) || (entry.key.startsWith('alias.') && byRepository)) driverKeys.add(entry.key);
		if (byRepository && entry.file && !own.some(folder => inside(folder, entry.file!))) {
			includedOutside.add(entry.file);
		}
	}
	const overrides: Array<[string, string]> = [];
	const switchedOff: string[] = [];
	const set = (key: string, neutral: string) => {
		const userValues = options.keepUsers ? users.get(key) : undefined;
		if (repository.has(key)) switchedOff.push(key);
		if (!userValues) {
			overrides.push([key, neutral]);
			return;
		}
		// A list-valued key (credential.helper) is reset by an empty value, then given the user's back.
		if (key.endsWith('.helper') && userValues.length > 0) overrides.push([key, '']);
		for (const value of key.endsWith('.helper') ? userValues : userValues.slice(-1)) overrides.push([key, value]);
	};
	for (const [key, neutral] of PROGRAM_KEYS) set(key.toLowerCase(), neutral);
	if (users.has('diff.external') || repository.has('diff.external')) set('diff.external', EXTERNAL_DIFF_OFF);
	for (const key of [...driverKeys].sort()) {
		if (PROGRAM_KEYS.some(([fixed]) => fixed.toLowerCase() === key)) continue;
		set(key, driverOff(key));
	}
	return { overrides, includedOutside: [...includedOutside].sort(), switchedOff: [...new Set(switchedOff)] };
}

/** The overrides as git's environment: they beat every configuration file git reads. */
export function configEnv(overrides: ReadonlyArray<readonly [string, string]>): Record<string, string> {
	const env: Record<string, string> = { GIT_CONFIG_COUNT: String(overrides.length) };
	overrides.forEach(([key, value], i) => {
		env[`GIT_CONFIG_KEY_${i}`] = key;
		env[`GIT_CONFIG_VALUE_${i}`] = value;
	});
	return env;
}
