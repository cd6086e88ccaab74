/**
 * What a run_command gets so the git it runs starts none of the repository's own programs:
 * the workspace's configuration, as git lists it, turned into `GIT_CONFIG_*` overrides
 * (gate/gitPrograms.ts). In the sandbox the user's own files do not exist, so every program key
 * is neutral there; in a terminal the user's own values are kept. In a terminal, a configuration
 * that pulls a file in from outside the workspace stops a command that runs git: git would read
 * that file (and print it on `git config --list`) where the gate cannot see. The sandbox has no
 * such file to read.
 */
import type { CommandBackend, Workspace } from '../../ports';
import type { GitQuestions } from '../../gate/gitOracle';
import { configEnv, neutralConfig } from '../../gate/gitPrograms';
import { PathRefused } from '../../gate/paths/paths';
import { roots } from './shellReasons';

/** A command that starts git by name somewhere in its text (a script that runs git is not seen: it runs with the same overrides). */
const RUNS_GIT = /(?:^|[^\w.-])git(?:$|[^\w.-])/;

export async function gitProgramsOff(
	command: string,
	cwd: string,
	workspace: Workspace,
	git: GitQuestions,
	backend: CommandBackend,
	allowed: boolean,
): Promise<Record<string, string> | undefined> {
	if (allowed) return undefined;
	const folders = (await roots(workspace)).map(r => r.root);
	const real = await workspace.realPath(cwd).catch(() => undefined);
	const listed = typeof real === 'string' && git.configuration ? await git.configuration(real) : undefined;
	const off = neutralConfig(listed?.entries ?? [], {
		keepUsers: backend === 'terminal',
		roots: folders,
		gitDirs: listed?.gitDirs,
	});
	if (backend === 'terminal' && off.includedOutside.length && RUNS_GIT.test(command)) {
		throw new PathRefused(
			`The repository's git configuration reads ${off.includedOutside.join(', ')}, outside the workspace, and git would read it with this command. Nothing was run. Remove that include from the repository's configuration, or set keel.shell.gitRepositoryPrograms to true if you trust this repository.`,
		);
	}
	return configEnv(off.overrides);
}
