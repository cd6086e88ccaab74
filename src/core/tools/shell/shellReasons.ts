/**
 * Why a command line must ask because of what its commands are given or print: every word judged
 * as the path the kernel would open (shellOperands.ts), the folders searches walk, and what git
 * commands print from a repository (shellReads/gitReads.ts, asked of git itself). Where the
 * backend sees them: in the sandbox `/workspace/…` is the workspace.
 */
import * as path from 'path';
import type { CommandBackend, Workspace } from '../../ports';
import { WORKSPACE_MOUNT } from '../../gate/paths/workspaceFolders';
import type { Gate } from '../../gate/gate';
import { GitOracle, type GitQuestions } from '../../gate/gitOracle';
import type { WorkspaceGuard } from '../../gate/paths/paths';
import { multiRootFolders, splitFolderPath } from '../../gate/paths/workspaceFolders';
import { gitReadConcerns, type GitReadContext } from '../../shell/git/gitReads';
import { operandConcerns, walkConcerns } from '../../gate/paths/shellOperands';
import { splitCommandLine } from '../../shell/shellRules';

let sharedOracle: GitOracle | undefined;
/** The gate's git, shared: it remembers each repository's drivers for a moment. */
export function defaultGit(): GitQuestions {
	return (sharedOracle ??= new GitOracle());
}

export interface WordJudge {
	guard: WorkspaceGuard;
	workspace: Workspace;
	gate: Gate;
	git: GitQuestions;
}

/** The roots the workspace's paths start from: one, or one per folder with its name. */
export async function roots(workspace: Workspace): Promise<Array<{ prefix: string; root: string }>> {
	const folders = multiRootFolders(workspace);
	if (!folders) {
		const root = await workspace.rootRealPath();
		return root ? [{ prefix: '', root }] : [];
	}
	const out: Array<{ prefix: string; root: string }> = [];
	for (const folder of folders) {
		const root = await folder.workspace.rootRealPath();
		if (root) out.push({ prefix: folder.name, root });
	}
	return out;
}

async function gitContext(
	judge: WordJudge,
	cwd: string,
	directories: ReadonlyArray<string | undefined>,
	backend: CommandBackend,
): Promise<GitReadContext | undefined> {
	const all = await roots(judge.workspace);
	if (!all.length) return undefined;
	const absolute = async (relative: string): Promise<string | undefined> => {
		const real = await judge.workspace.realPath(relative).catch(() => undefined);
		return real === 'dangling' ? undefined : real;
	};
	const join = (base: string, dir: string) => (base ? `${base}/${dir}` : dir);
	const relatives = [cwd];
	let current = cwd;
	for (const dir of directories) {
		if (dir === undefined || dir.startsWith('/') || dir.startsWith('~')) continue;
		current = join(current, dir);
		relatives.push(current, join(cwd, dir));
	}
	const cwds: string[] = [];
	for (const relative of new Set(relatives)) {
		const real = relative === '' && all.length === 1 ? all[0].root : await absolute(relative);
		if (real) cwds.push(real);
	}
	return {
		git: judge.git,
		cwds,
		workspacePath(file) {
			for (const { prefix, root } of all) {
				const relative = path.relative(root, file);
				if (!relative.startsWith('..') && !path.isAbsolute(relative)) {
					return [prefix, relative.split(path.sep).join('/')].filter(Boolean).join('/');
				}
			}
			return undefined;
		},
		refusedByName(file) {
			const why = judge.gate.keptOutOfStores(file);
			return why === 'deny-read' ? 'on the deny list (keel.permissions.denyRead)' : why;
		},
		hostPath:
			backend === 'sandbox'
				? container => {
						const normal = path.posix.normalize(container);
						if (normal !== WORKSPACE_MOUNT && !normal.startsWith(`${WORKSPACE_MOUNT}/`)) return undefined;
						const inside = normal.slice(WORKSPACE_MOUNT.length).replace(/^\/+/, '');
						const folders = multiRootFolders(judge.workspace);
						if (!folders) return path.join(all[0].root, inside);
						const hit = splitFolderPath(folders, inside);
						const root = hit && all.find(r => r.prefix === hit.folder.name);
						return root ? path.join(root.root, hit!.rest) : undefined;
					}
				: undefined,
	};
}

/**
 * The words commands are given name files too (`cat .env`, `sort -o .git/hooks/x`), searches walk
 * folders, and git prints from a repository: one reason per concern, or [].
 */
export async function wordReasons(
	command: string,
	cwd: string,
	judge: WordJudge,
	backend: CommandBackend,
): Promise<string[]> {
	const parsed = splitCommandLine(command);
	const context = {
		guard: judge.guard,
		workspace: judge.workspace,
		policy: judge.gate.policy,
		cwd,
		directories: parsed.directories,
		dotglob: /dotglob|GLOBIGNORE/.test(command),
		sandbox: backend === 'sandbox',
	};
	const reasons = [
		...(await operandConcerns(parsed.operands, context)),
		...(await walkConcerns(parsed.walks, context)),
	];
	if (parsed.gits.length) {
		const git = await gitContext(judge, cwd, parsed.directories, backend);
		if (git) {
			const writesGitFolder = parsed.writes.some(
				w => w.path === undefined || /(?:^|\/)\.git(?:\/|$)/.test(w.path),
			);
			reasons.push(
				...(await gitReadConcerns(parsed.gits, git, {
					environmentSet: parsed.gitEnvironment,
					writesGitFolder,
				})),
			);
		}
	}
	return reasons;
}
