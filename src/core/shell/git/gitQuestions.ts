/**
 * What shell analysis asks git of a command (gitReads.ts, gitPrinters.ts): defined here, below the
 * gate, so the gate's oracle (gate/gitOracle.ts) answers it without shell analysis importing the gate.
 */
export interface GitAnswer {
	/** 0 when git succeeded. */
	code: number;
	stdout: Buffer;
	stderr: string;
}

export interface GitQuestions {
	/**
	 * Runs git in `cwd` (absolute) with `args`. `globals` are the command's own options before its
	 * subcommand (`-C`, `--git-dir`, `-c`…), placed before the neutralising ones so those win;
	 * `env` adds the command's own GIT_DIR-like variables; `input` is its stdin. undefined when
	 * git could not be run or did not answer in time.
	 */
	ask(cwd: string, args: readonly string[], options?: GitAskOptions): Promise<GitAnswer | undefined>;
	/** The repository a command run in `cwd` with these options reads; undefined when there is none. */
	repository(cwd: string, options?: GitAskOptions): Promise<GitRepository | undefined>;
	/**
	 * The configuration a git command started in `cwd` would read, as git lists it with where
	 * each value came from (the user's own files included), and the repository's git folders;
	 * undefined outside a repository or when git could not be run.
	 */
	configuration?(cwd: string): Promise<{ entries: ConfigEntry[]; gitDirs: string[] } | undefined>;
}

/** Where a git command's repository is: its git folder, and its work tree's top (real path) with the cwd's place in it. */
export interface GitRepository {
	gitDir: string;
	/** undefined for a repository without a work tree (bare, or `--git-dir` alone). */
	toplevel?: string;
	/** The cwd relative to the top, with a trailing "/" ('' at the top). */
	prefix: string;
}

export interface GitAskOptions {
	globals?: readonly string[];
	env?: Record<string, string>;
	input?: string;
}

/** One line of `git config --list --show-origin --show-scope -z`. */
export interface ConfigEntry {
	scope: string;
	/** The file it came from, absolute (the oracle gives its real path); undefined for the command line or a blob. */
	file?: string;
	key: string;
	/** undefined for a key written without `=` (a boolean true). */
	value?: string;
}
