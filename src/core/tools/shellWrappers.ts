/**
 * Commands that run another command: `sudo rm x` is `rm x` as far as a rule on `rm` goes.
 * `unwrap` walks through them and returns every command a simple command amounts to:
 * the inner command (argv), command strings that bash will parse again (`sh -c`, `eval`,
 * `trap`, `watch`, `su -c`, `env -S`) and whether the wrapper itself must also be allowed.
 */
import type { WordValue } from './shellWords';

export interface Unwrapped {
	/** Argument vectors to match, innermost last; each with whether it needs its own allow. */
	argvs: Array<{ argv: WordValue[]; needsAllow: boolean }>;
	/** Strings bash runs as command lines (parse them again); undefined text = not known statically. */
	nested: Array<string | undefined>;
	/** Why the line cannot be judged (a script or inline program whose content rules do not see). */
	opaque?: string;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'fish', 'busybox']);
const INTERPRETERS =
	/^(?:python[\d.]*|node|nodejs|deno|bun|perl\d*|ruby|php|lua|Rscript|osascript|pwsh|powershell|tclsh|expect|awk|gawk|mawk|nawk)$/;
const INLINE_FLAGS = /^(?:-[a-zA-Z]*[ceEr]|--eval|--exec|--command|--print|-p)$/;

/** Options of a wrapper that take the next word as their value. */
const OPTION_ARGS: Record<string, RegExp> = {
	sudo: /^-[ugCDhprtTU]$/,
	doas: /^-[uC]$/,
	env: /^-[uCS]$/,
	nice: /^-n$/,
	timeout: /^-[sk]$/,
	stdbuf: /^-[ioe]$/,
	ionice: /^-[cnpP]$/,
	xargs: /^-[adEeIiLlnPs]$/,
	exec: /^-a$/,
	watch: /^-[nd]$/,
	chrt: /^-[p]$/,
	taskset: /^-[c]$/,
};

/** Programs that run the command after their own options, whose option arities we do not model. */
const GENERIC_WRAPPERS = new Set([
	'strace',
	'ltrace',
	'valgrind',
	'rlwrap',
	'firejail',
	'pkexec',
	'unshare',
	'nsenter',
	'setarch',
	'linux32',
	'linux64',
	'catchsegv',
	'systemd-run',
	'proot',
	'fakeroot',
	'chronic',
	'caffeinate',
	'dbus-run-session',
	'faketime',
	'torsocks',
	'proxychains',
	'proxychains4',
	'tsp',
	'ts',
	'sem',
	'parallel',
	'run0',
	'sg',
	'chroot',
	'prlimit',
	'numactl',
	'cpulimit',
	'trickle',
	'ssh-agent',
	'gdb',
	'perf',
	'xvfb-run',
	'dotenv',
	'with-contenv',
	'npx',
	'pnpx',
	'bunx',
]);

/**
 * For a wrapper whose options we do not know, every word that could start the inner command
 * does (for deny and ask only: the wrapper line itself still needs an allow).
 */
function everySuffix(argv: WordValue[], args: WordValue[], out: Unwrapped, depth: number): Unwrapped {
	out.argvs.push({ argv, needsAllow: true });
	for (let i = 0; i < args.length; i++) {
		if (!args[i].known || !args[i].text.startsWith('-')) {
			const rest = unwrap(args.slice(i), depth + 1);
			out.argvs.push(...rest.argvs.map(a => ({ ...a, needsAllow: false })));
			out.nested.push(...rest.nested);
		}
	}
	return out;
}

const basename = (name: string) => name.slice(name.lastIndexOf('/') + 1);

function skipOptions(args: WordValue[], tool: string, from = 0): number {
	let i = from;
	while (i < args.length && args[i].known && args[i].text.startsWith('-') && args[i].text !== '-') {
		if (args[i].text === '--') {
			return i + 1;
		}
		if (OPTION_ARGS[tool]?.test(args[i].text)) {
			i++;
		}
		i++;
	}
	return i;
}

const UNKNOWN: WordValue = { text: '', known: false };

export function unwrap(argv: WordValue[], depth = 0): Unwrapped {
	const out: Unwrapped = { argvs: [], nested: [] };
	if (depth > 8) {
		return { argvs: [{ argv: [UNKNOWN], needsAllow: true }], nested: [], opaque: 'wrappers nested too deep' };
	}
	const head = argv[0];
	if (!head || !head.known) {
		out.argvs.push({ argv, needsAllow: true });
		return out;
	}
	const name = basename(head.text);
	const args = argv.slice(1);
	const inner = (from: number, needsAllow: boolean, extra: WordValue[] = []) => {
		out.argvs.push({ argv, needsAllow });
		if (from < args.length) {
			const rest = unwrap([...args.slice(from), ...extra], depth + 1);
			out.argvs.push(...rest.argvs);
			out.nested.push(...rest.nested);
			out.opaque ??= rest.opaque;
		}
		return out;
	};
	switch (name) {
		case 'sudo':
		case 'doas': {
			let i = skipOptions(args, name);
			while (i < args.length && args[i].known && /^[A-Za-z_]\w*=/.test(args[i].text)) i++;
			inner(i, true);
			// sudo's options are many; whatever word could start the command is checked by deny rules too.
			const extra = everySuffix(argv, args, { argvs: [], nested: [] }, depth);
			out.argvs.push(...extra.argvs.slice(1));
			out.nested.push(...extra.nested);
			return out;
		}
		case 'env': {
			for (let i = 0; i < args.length; i++) {
				const a = args[i];
				if (a.known && (a.text === '-S' || a.text.startsWith('--split-string'))) {
					const value = a.text.includes('=')
						? { text: a.text.slice(a.text.indexOf('=') + 1), known: true }
						: (args[i + 1] ?? UNKNOWN);
					out.argvs.push({ argv, needsAllow: true });
					out.nested.push(
						value.known ? [value.text, ...args.slice(i + 2).map(w => w.text)].join(' ') : undefined,
					);
					return out;
				}
			}
			let i = skipOptions(args, name);
			while (i < args.length && args[i].known && /^[A-Za-z_]\w*=/.test(args[i].text)) i++;
			return inner(i, false);
		}
		case 'command':
			if (args.some(a => a.known && /^-[a-zA-Z]*[vV]/.test(a.text))) {
				break;
			}
			return inner(skipOptions(args, name), false);
		case 'builtin':
		case 'exec':
		case 'nice':
		case 'nohup':
		case 'setsid':
		case 'time':
		case 'stdbuf':
		case 'ionice':
		case 'chrt':
		case 'taskset':
		case 'unbuffer': {
			// chrt and taskset take a priority or CPU mask before the command.
			const i = skipOptions(args, name);
			const takesValue =
				(name === 'chrt' || name === 'taskset') && args[i]?.known && /^[0-9a-fx,-]+$/i.test(args[i].text);
			return inner(takesValue ? i + 1 : i, false);
		}
		case 'timeout':
			return inner(skipOptions(args, name) + 1, false);
		case 'xargs': {
			// xargs appends words from stdin: the inner command's arguments are not known.
			const i = skipOptions(args, name);
			return i < args.length
				? inner(i, false, [UNKNOWN])
				: inner(0, false, [{ text: 'echo', known: true }, UNKNOWN]);
		}
		case 'find': {
			out.argvs.push({ argv, needsAllow: true });
			for (let i = 0; i < args.length; i++) {
				if (args[i].known && /^-(?:exec|execdir|ok|okdir)$/.test(args[i].text)) {
					let end = i + 1;
					while (
						end < args.length &&
						!(args[end].known && (args[end].text === ';' || args[end].text === '+'))
					)
						end++;
					const cmd = args.slice(i + 1, end).map(w => (w.known && w.text.includes('{}') ? UNKNOWN : w));
					const rest = unwrap(cmd.length ? cmd : [UNKNOWN], depth + 1);
					out.argvs.push(...rest.argvs);
					out.nested.push(...rest.nested);
					out.opaque ??= rest.opaque;
					i = end;
				}
			}
			return out;
		}
		case 'eval':
			out.argvs.push({ argv, needsAllow: false });
			out.nested.push(args.every(a => a.known) ? args.map(a => a.text).join(' ') : undefined);
			return out;
		case 'trap':
			out.argvs.push({ argv, needsAllow: true });
			if (args[0] && !(args[0].known && /^-[lp]?$|^--$/.test(args[0].text))) {
				out.nested.push(args[0].known ? args[0].text : undefined);
			}
			return out;
		case 'watch': {
			const i = skipOptions(args, name);
			out.argvs.push({ argv, needsAllow: false });
			out.nested.push(
				args.slice(i).every(a => a.known)
					? args
							.slice(i)
							.map(a => a.text)
							.join(' ')
					: undefined,
			);
			return out;
		}
		case 'su': {
			const c = args.findIndex(a => a.known && (a.text === '-c' || a.text === '--command'));
			out.argvs.push({ argv, needsAllow: true });
			if (c === -1) {
				out.opaque = 'su starts a login shell';
			} else {
				out.nested.push(args[c + 1]?.known ? args[c + 1].text : undefined);
			}
			return out;
		}
		case 'busybox':
			return args.length && args[0].known && !SHELLS.has(args[0].text)
				? inner(0, false)
				: unwrapShell(argv, args.slice(1), args[0]?.text ?? 'busybox', out);
		case 'flock': {
			const c = args.findIndex(a => a.known && (a.text === '-c' || a.text === '--command'));
			if (c !== -1) {
				out.argvs.push({ argv, needsAllow: true });
				out.nested.push(args[c + 1]?.known ? args[c + 1].text : undefined);
				return out;
			}
			return everySuffix(argv, args, out, depth);
		}
		case 'script': {
			const c = args.findIndex(a => a.known && (a.text === '-c' || a.text === '--command'));
			out.argvs.push({ argv, needsAllow: true });
			if (c !== -1) out.nested.push(args[c + 1]?.known ? args[c + 1].text : undefined);
			else out.opaque = '"script" starts a shell';
			return out;
		}
		case 'source':
		case '.':
			out.argvs.push({ argv, needsAllow: true });
			out.opaque = `"${name}" runs a script file whose commands the rules do not see`;
			return out;
		case 'git':
			return unwrapGit(argv, args, out);
	}
	if (SHELLS.has(name)) {
		return unwrapShell(argv, args, name, out);
	}
	if (GENERIC_WRAPPERS.has(name)) {
		return everySuffix(argv, args, out, depth);
	}
	if (INTERPRETERS.test(name) && args.some(a => !a.known || INLINE_FLAGS.test(a.text))) {
		out.argvs.push({ argv, needsAllow: true });
		out.opaque = `"${name}" runs an inline program whose effects the rules do not see`;
		return out;
	}
	out.argvs.push({ argv, needsAllow: true });
	return out;
}

function unwrapShell(argv: WordValue[], args: WordValue[], name: string, out: Unwrapped): Unwrapped {
	let hasC = false;
	let plainOptions = true;
	let i = 0;
	for (
		;
		i < args.length && args[i].known && /^[-+]/.test(args[i].text) && args[i].text !== '-' && args[i].text !== '--';
		i++
	) {
		const flag = args[i].text;
		if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(flag)) {
			hasC = true;
		}
		if (!/^-[ceuxl]+$/.test(flag)) {
			plainOptions = false;
		}
		if (/^[-+]o$|^--(?:rcfile|init-file)$/.test(flag)) {
			i++;
		}
	}
	if (args[i]?.known && args[i].text === '--') i++;
	if (!hasC || name === 'busybox' || name === 'fish') {
		out.argvs.push({ argv, needsAllow: true });
		out.opaque = `"${name}" runs a script or its input, whose commands the rules do not see`;
		return out;
	}
	out.argvs.push({ argv, needsAllow: !plainOptions });
	out.nested.push(args[i]?.known ? args[i].text : undefined);
	return out;
}

/** git's global options before the subcommand; -c, --exec-path, --git-dir and --config-env can run programs, so they keep the whole line under the rules. */
function unwrapGit(argv: WordValue[], args: WordValue[], out: Unwrapped): Unwrapped {
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
