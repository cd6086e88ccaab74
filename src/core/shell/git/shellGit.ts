/**
 * git as a wrapper: global options before the subcommand that can run programs, config values
 * git runs as commands, and subcommands that run a command line of their own.
 */
import type { Unwrapped } from '../commandForms';
import type { WordValue } from '../shellWords';

/** One git command of a line, for asking git what it will print (gitReads.ts). */
export interface GitCall {
	/** The words after `git`: global options, the subcommand, its arguments. */
	args: WordValue[];
	/** GIT_* variables the command sets for itself (`GIT_DIR=x git …`, `env GIT_DIR=x git …`). */
	env: Array<{ name: string; value: WordValue }>;
}

/** git's global options before the subcommand; -c, --exec-path, --git-dir and --config-env can run programs, so they keep the whole line under the rules. */
export function unwrapGit(argv: WordValue[], args: WordValue[], out: Unwrapped): Unwrapped {
	(out.gits ??= []).push(args);
	let i = 0;
	let risky = false;
	while (i < args.length && args[i].known && args[i].text.startsWith('-')) {
		const flag = args[i].text;
		if (
			/^-[Cc]$|^--(?:git-dir|work-tree|namespace|exec-path|config-env|super-prefix|list-cmds|attr-source)$/.test(
				flag,
			)
		) {
			risky ||= flag !== '-C';
			if (flag === '-c' || flag === '--config-env') {
				gitConfigCommand(args[i + 1], out);
			}
			i += 2;
			continue;
		}
		risky ||=
			!/^(?:-[pP]|--(?:no-pager|paginate|bare|no-replace-objects|literal-pathspecs|glob-pathspecs|noglob-pathspecs|icase-pathspecs|no-optional-locks|no-lazy-fetch|no-advice)|-C.+)$/.test(
				flag,
			);
		i++;
	}
	if (i === 0) {
		out.argvs.push({ argv, needsAllow: true });
		gitSubcommandRuns(args, out);
		return out;
	}
	if (args.slice(0, i).some(a => !a.known)) risky = true;
	out.argvs.push({ argv, needsAllow: risky });
	out.argvs.push({ argv: [argv[0], ...args.slice(i)], needsAllow: true });
	gitSubcommandRuns(args.slice(i), out);
	return out;
}

/** `git -c alias.x='!cmd'`, `-c core.pager=cmd`, `core.sshCommand`, `….textconv`: config values git runs as commands. */
function gitConfigCommand(setting: WordValue | undefined, out: Unwrapped): void {
	if (!setting?.known) {
		out.nested.push(undefined);
		return;
	}
	const eq = setting.text.indexOf('=');
	const key = setting.text.slice(0, eq === -1 ? undefined : eq);
	const value = eq === -1 ? '' : setting.text.slice(eq + 1);
	if (
		value.startsWith('!') ||
		/^(?:alias\..*|core\.(?:pager|editor|sshcommand|fsmonitor|askpass|hookspath)|sequence\.editor|.*\.(?:command|cmd|textconv|program|tool|helper|clean|smudge|process)|credential\..*|gpg\..*|diff\.external)$/i.test(
			key,
		)
	) {
		out.nested.push(value.replace(/^!/, ''));
	}
}

/** Subcommands that run a command line of their own. */
function gitSubcommandRuns(rest: WordValue[], out: Unwrapped): void {
	const sub = rest[0]?.known ? rest[0].text : '';
	const words = rest.slice(1);
	const joined = (from: number) =>
		words.slice(from).every(w => w.known)
			? words
					.slice(from)
					.map(w => w.text)
					.join(' ')
			: undefined;
	if (sub === 'submodule' && words.some(w => w.known && w.text === 'foreach')) {
		const at = words.findIndex(w => w.known && w.text === 'foreach');
		out.nested.push(joined(at + 1 + words.slice(at + 1).findIndex(w => !(w.known && w.text.startsWith('-')))));
	}
	for (let j = 0; j < words.length; j++) {
		const w = words[j];
		if (
			w.known &&
			/^(?:--exec|-x|--extcmd|--tree-filter|--index-filter|--msg-filter|--env-filter|--commit-filter|--parent-filter|--open-files-in-pager|--upload-pack|--receive-pack|-u)$/.test(
				w.text,
			) &&
			/^(?:rebase|difftool|filter-branch|grep|fetch|clone|pull|push|ls-remote|archive)$/.test(sub)
		) {
			out.nested.push(words[j + 1]?.known ? words[j + 1].text : undefined);
		} else if (
			w.known &&
			/^--(?:exec|extcmd|[a-z]+-filter|upload-pack|receive-pack|open-files-in-pager)=/.test(w.text)
		) {
			out.nested.push(w.text.slice(w.text.indexOf('=') + 1));
		}
	}
	if (sub === 'bisect' && words[0]?.known && words[0].text === 'run') {
		out.nested.push(joined(1));
	}
}
