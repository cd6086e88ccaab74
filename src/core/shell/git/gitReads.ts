/**
 * git reads files through its own language (revisions, `rev:path`, pathspec magic, folders,
 * history, other branches, stashes), so a git command that prints what a repository holds is
 * judged by asking git what it will print (gitPrinters.ts, gitTrees.ts), in the repository it will
 * really read: the command's own `-C`, `--git-dir`, `--work-tree`, `-c` and GIT_DIR-like
 * variables, from every folder the line may run it in. The line asks when what it prints
 * includes a file read_file would refuse (deny-read, a deny rule) or a file outside the
 * workspace (a workspace inside a larger repository), now or in the history it prints; when a
 * repository alias runs a shell command; and when git's answer cannot be had. git runs with the
 * repository's own programs switched off (gate/gitOracle.ts): judging runs none of its code.
 */
import * as path from 'path';
import type { GitAskOptions, GitQuestions, GitRepository } from './gitQuestions';
import { printedByCatFile, printedByHistory, type Asker, type Printed } from './gitPrinters';
import { printedByArchive, printedByBlame, printedByGrep } from './gitTrees';
import type { GitCall } from './shellGit';
import type { WordValue } from '../shellWords';

export interface GitReadContext {
	git: GitQuestions;
	/** The folders (absolute, real) the line's git commands may run in: the cwd and every `cd` target. */
	cwds: string[];
	/** A real path's workspace path ('' for the root), or undefined when it is outside the workspace. */
	workspacePath(absolute: string): string | undefined;
	/** Why read_file refuses this workspace path by its name, or undefined. */
	refusedByName(path: string): string | undefined;
	/** In the sandbox: a container path (/workspace/…) as the host path; undefined for the container's own files. */
	hostPath?(containerPath: string): string | undefined;
}

/** Subcommands that print file content or file names from the repository. */
const HISTORY = new Set([
	'log',
	'whatchanged',
	'show',
	'diff',
	'diff-tree',
	'diff-index',
	'diff-files',
	'difftool',
	'format-patch',
	'range-diff',
	'reflog',
	'fast-export',
	'merge-tree',
	'stash',
]);
/** Subcommands that change what the repository holds (refs, index, objects) before a later printer reads it. */
const MUTATORS = new Set([
	'add',
	'am',
	'apply',
	'checkout',
	'cherry-pick',
	'clean',
	'commit',
	'commit-tree',
	'fast-import',
	'fetch',
	'filter-branch',
	'hash-object',
	'merge',
	'mv',
	'notes',
	'pull',
	'read-tree',
	'rebase',
	'replace',
	'reset',
	'restore',
	'revert',
	'rm',
	'switch',
	'symbolic-ref',
	'update-index',
	'update-ref',
	'worktree',
	'mktag',
	'mktree',
	'write-tree',
	'unpack-objects',
	'bundle',
]);
const PRINTERS = new Set([...HISTORY, 'bundle', 'cat-file', 'grep', 'archive', 'blame', 'annotate']);

function changesRepository(sub: string, args: readonly WordValue[]): boolean {
	if (MUTATORS.has(sub)) return true;
	const texts = args.map(w => (w.known ? w.text : '?'));
	if (sub === 'stash') return !/^(?:show|list)$/.test(texts[0] ?? 'push');
	if (sub === 'branch' || sub === 'tag') {
		const names = texts.filter(t => !t.startsWith('-'));
		const listing = texts.some(t =>
			/^(?:-l|--list|--contains|--merged|--no-merged|--points-at|--show-current)$/.test(t),
		);
		return (
			texts.some(t => /^-[dDmMcCfu]$|^--(?:delete|move|copy|force|set-upstream-to|edit-description)/.test(t)) ||
			(names.length > 0 && !listing)
		);
	}
	return false;
}

/** Variables that change which repository, index, objects or paths git reads. */
const REPOSITORY_VARIABLES =
	/^GIT_(?:DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|NO_REPLACE_OBJECTS|(?:LITERAL|GLOB|NOGLOB|ICASE)_PATHSPECS|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+)$/;

interface Split {
	globals: string[];
	sub: string;
	args: WordValue[];
	unknown?: string;
}

/** git's global options, with paths the sandbox names mapped to the host. */
function splitGlobals(words: readonly WordValue[], context: GitReadContext): Split | undefined {
	const globals: string[] = [];
	const host = (value: string) => (context.hostPath && value.startsWith('/') ? context.hostPath(value) : value);
	let i = 0;
	for (; i < words.length && words[i].known && words[i].text.startsWith('-'); i++) {
		const text = words[i].text;
		const pair =
			/^(-C|-c|--git-dir|--work-tree|--namespace|--config-env|--exec-path|--super-prefix|--attr-source)$/.exec(
				text,
			);
		const attached = /^--(git-dir|work-tree|namespace|exec-path|super-prefix|attr-source)=(.*)$/s.exec(text);
		if (pair || attached) {
			const name = pair ? pair[1] : `--${attached![1]}`;
			const value = pair ? words[++i] : { text: attached![2], known: true };
			if (!value?.known)
				return { globals, sub: '', args: [], unknown: `git's ${name} is only known when it runs` };
			if (name === '--config-env' || name === '--exec-path' || name === '--super-prefix') {
				return { globals, sub: '', args: [], unknown: `git ${name}, which Keel does not follow` };
			}
			const mapped = name === '-c' || name === '--namespace' ? value.text : host(value.text);
			if (mapped === undefined) return undefined;
			globals.push(name, mapped);
			continue;
		}
		if (/^(?:-[pP]|--(?:no-pager|paginate|no-optional-locks|no-lazy-fetch|no-advice))$/.test(text)) continue;
		if (
			/^--(?:bare|no-replace-objects|literal-pathspecs|glob-pathspecs|noglob-pathspecs|icase-pathspecs)$/.test(
				text,
			)
		) {
			globals.push(text);
			continue;
		}
		return { globals, sub: '', args: [], unknown: `git option ${text}, which Keel cannot read` };
	}
	const sub = words[i];
	if (!sub) return { globals, sub: '', args: [] };
	if (!sub.known) return { globals, sub: '', args: [], unknown: 'a git subcommand only known when it runs' };
	return { globals, sub: sub.text, args: words.slice(i + 1) };
}

/** Splits an alias's value as git does (quotes group words). */
function aliasWords(value: string): WordValue[] {
	const words = value.match(/"(?:[^"\\]|\\.)*"|'[^']*'|\S+/g) ?? [];
	return words.map(w => ({ text: w.replace(/^(["'])([\s\S]*)\1$/, '$2'), known: true }));
}

/** Subcommands git has built in: an alias of the same name is never used, so none is looked up. */
const BUILTINS = new Set(
	'add am annotate apply archive bisect blame branch bundle cat-file check-attr check-ignore checkout cherry cherry-pick clean clone commit config count-objects describe diff diff-files diff-index diff-tree difftool fast-export fast-import fetch for-each-ref format-patch fsck gc grep hash-object help init log ls-files ls-remote ls-tree maintenance merge merge-tree mergetool mv notes pull push range-diff rebase reflog remote replace reset restore rev-list rev-parse revert rm shortlog show show-branch show-ref sparse-checkout stash status submodule switch symbolic-ref tag update-index update-ref var version whatchanged worktree'.split(
		' ',
	),
);

async function expandAlias(
	a: { git: GitQuestions; cwd: string; options: GitAskOptions },
	split: Split,
): Promise<Split> {
	let current = split;
	for (let depth = 0; depth < 5 && current.sub && !BUILTINS.has(current.sub); depth++) {
		const alias = await a.git.ask(a.cwd, ['config', '--get', `alias.${current.sub}`], a.options);
		if (!alias || alias.code !== 0) return current;
		const builtins = await a.git.ask(a.cwd, ['--list-cmds=builtins'], a.options);
		if (builtins?.stdout.toString('utf8').split('\n').includes(current.sub)) return current;
		const value = alias.stdout.toString('utf8').trim();
		if (value.startsWith('!'))
			return {
				...current,
				unknown: `git ${current.sub} is an alias that runs a shell command from the repository's configuration (${value.slice(1)})`,
			};
		const [sub, ...rest] = aliasWords(value);
		if (!sub) return current;
		current = { ...current, sub: sub.text, args: [...rest, ...current.args] };
	}
	return current;
}

async function printed(asker: Asker, sub: string, args: WordValue[]): Promise<Printed | undefined> {
	if (sub === 'stash') {
		const action = args[0]?.known ? args[0].text : 'push';
		return action === 'show' || action === 'list' ? printedByHistory(asker, sub, args) : undefined;
	}
	if (HISTORY.has(sub)) return printedByHistory(asker, sub, args);
	if (sub === 'bundle')
		return args[0]?.text === 'create' ? printedByHistory(asker, 'bundle', args.slice(2)) : undefined;
	if (sub === 'cat-file') return printedByCatFile(asker, args);
	if (sub === 'grep') return printedByGrep(asker, args);
	if (sub === 'archive') return printedByArchive(asker, args);
	if (sub === 'blame' || sub === 'annotate') return printedByBlame(asker, args);
	return undefined;
}

/** Why the paths a command prints make it ask: the first few, each with its reason. */
function judge(
	command: string,
	repo: GitRepository,
	paths: readonly string[],
	context: GitReadContext,
): string | undefined {
	const top = repo.toplevel ?? path.dirname(repo.gitDir);
	const hits: string[] = [];
	for (const file of new Set(paths)) {
		const where = context.workspacePath(path.join(top, file));
		const reason =
			where === undefined
				? 'outside the workspace (the repository is larger than it)'
				: context.refusedByName(where);
		if (reason) hits.push(`${where ?? file}: ${reason}`);
		if (hits.length >= 3) break;
	}
	return hits.length ? `\`${command}\` prints ${hits.join('; ')}` : undefined;
}

export async function gitReadConcerns(
	calls: readonly GitCall[],
	context: GitReadContext,
	options: { environmentSet: boolean; writesGitFolder: boolean },
): Promise<string[]> {
	const reasons = new Set<string>();
	let printers = 0;
	let mutators = 0;
	for (const call of calls) {
		const split = splitGlobals(call.args, context);
		if (!split) continue; // `-C /tmp` in the sandbox: the container's own folder, no repository of the user's.
		const command = ['git', ...call.args.map(w => w.text)].join(' ').slice(0, 80);
		const env: Record<string, string> = {};
		for (const { name, value } of call.env) {
			if (!REPOSITORY_VARIABLES.test(name)) continue;
			const mapped =
				value.known && context.hostPath && value.text.startsWith('/')
					? context.hostPath(value.text)
					: value.text;
			if (!value.known || mapped === undefined) reasons.add(`\`${command}\`: ${name} is only known when it runs`);
			else env[name] = mapped;
		}
		for (const cwd of context.cwds) {
			const options2: GitAskOptions = { globals: split.globals, env };
			const expanded = split.unknown
				? split
				: await expandAlias({ git: context.git, cwd, options: options2 }, split);
			if (expanded.unknown) {
				reasons.add(`\`${command}\`: ${expanded.unknown}`);
				continue;
			}
			if (changesRepository(expanded.sub, expanded.args)) mutators++;
			if (!PRINTERS.has(expanded.sub)) continue;
			const repo = await context.git.repository(cwd, options2);
			if (!repo) continue;
			const asker: Asker = { git: context.git, cwd, options: options2, repo };
			const found = await printed(asker, expanded.sub, expanded.args);
			if (!found) continue;
			printers++;
			if (found.unknown) reasons.add(`\`${command}\`: Keel cannot tell what it prints (${found.unknown})`);
			const hit = judge(command, repo, found.paths, context);
			if (hit) reasons.add(hit);
		}
	}
	if (printers && (mutators || options.writesGitFolder)) {
		reasons.add('the line changes the repository and prints from it: what git prints is only known when it runs');
	}
	if (printers && options.environmentSet) {
		reasons.add(
			'the line sets a GIT_* variable for the commands after it: which repository git reads is only known when it runs',
		);
	}
	return [...reasons];
}
