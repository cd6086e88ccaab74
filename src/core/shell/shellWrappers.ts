/**
 * Commands that run another command: `sudo rm x` is `rm x` as far as a rule on `rm` goes.
 * `unwrap` walks through them and returns every command a simple command amounts to:
 * the inner command (argv), command strings that bash will parse again (`sh -c`, `eval`,
 * `trap`, `watch`, `su -c`, `env -S`) and whether the wrapper itself must also be allowed.
 */
import { unwrapGit } from './git/shellGit';
import { programTextConcern } from './writers/programTexts';
import type { WordValue } from './shellWords';

import type { Unwrapped } from './commandForms';

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'fish', 'busybox']);

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
			if (rest.gits) (out.gits ??= []).push(...rest.gits);
		}
	}
	return out;
}

/** A program's name without its folder (`/usr/bin/env` → `env`). */
export const programName = (name: string) => name.slice(name.lastIndexOf('/') + 1);

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

/** A simple command whose first word names a wrapper, and what unwrapping it has found so far. */
interface Wrapped {
	argv: WordValue[];
	/** The words after the wrapper's name. */
	args: WordValue[];
	name: string;
	out: Unwrapped;
	depth: number;
}

/** Returns undefined when the wrapper turns out to run nothing (`command -v`): judged as a plain command. */
type Unwrapper = (w: Wrapped) => Unwrapped | undefined;

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
	const w: Wrapped = { argv, args: argv.slice(1), name: programName(head.text), out, depth };
	const result = WRAPPERS.get(w.name)?.(w) ?? unwrapByKind(w);
	// A wrapper that also runs a program text of its own (gdb -ex) is opaque whatever it wraps.
	result.opaque ??= programTextConcern(w.name, w.args);
	return result;
}

/** The wrapper line itself, then what runs from `args[from]` on (with `extra` words appended). */
function runsRest(w: Wrapped, from: number, needsAllow: boolean, extra: WordValue[] = []): Unwrapped {
	const { argv, args, out } = w;
	out.argvs.push({ argv, needsAllow });
	if (from < args.length) {
		const rest = unwrap([...args.slice(from), ...extra], w.depth + 1);
		out.argvs.push(...rest.argvs);
		out.nested.push(...rest.nested);
		out.opaque ??= rest.opaque;
		if (rest.gits) (out.gits ??= []).push(...rest.gits);
	}
	return out;
}

/** Programs that run the rest of their words after their own options. */
function unwrapPrefix(w: Wrapped): Unwrapped {
	// chrt and taskset take a priority or CPU mask before the command.
	const i = skipOptions(w.args, w.name);
	const takesValue =
		(w.name === 'chrt' || w.name === 'taskset') && w.args[i]?.known && /^[0-9a-fx,-]+$/i.test(w.args[i].text);
	return runsRest(w, takesValue ? i + 1 : i, false);
}

function unwrapSudo(w: Wrapped): Unwrapped {
	const { argv, args, out } = w;
	let i = skipOptions(args, w.name);
	while (i < args.length && args[i].known && /^[A-Za-z_]\w*=/.test(args[i].text)) i++;
	runsRest(w, i, true);
	// sudo's options are many; whatever word could start the command is checked by deny rules too.
	const extra = everySuffix(argv, args, { argvs: [], nested: [] }, w.depth);
	out.argvs.push(...extra.argvs.slice(1));
	out.nested.push(...extra.nested);
	return out;
}

function unwrapEnv(w: Wrapped): Unwrapped {
	const { argv, args, out } = w;
	for (let i = 0; i < args.length; i++) {
		const a = args[i];
		if (a.known && (a.text === '-S' || a.text.startsWith('--split-string'))) {
			const value = a.text.includes('=')
				? { text: a.text.slice(a.text.indexOf('=') + 1), known: true }
				: (args[i + 1] ?? UNKNOWN);
			out.argvs.push({ argv, needsAllow: true });
			out.nested.push(value.known ? [value.text, ...args.slice(i + 2).map(v => v.text)].join(' ') : undefined);
			return out;
		}
	}
	let i = skipOptions(args, w.name);
	while (i < args.length && args[i].known && /^[A-Za-z_]\w*=/.test(args[i].text)) i++;
	return runsRest(w, i, false);
}

function unwrapXargs(w: Wrapped): Unwrapped {
	// xargs appends words from stdin: the inner command's arguments are not known.
	const i = skipOptions(w.args, w.name);
	return i < w.args.length
		? runsRest(w, i, false, [UNKNOWN])
		: runsRest(w, 0, false, [{ text: 'echo', known: true }, UNKNOWN]);
}

function unwrapFind(w: Wrapped): Unwrapped {
	const { argv, args, out } = w;
	out.argvs.push({ argv, needsAllow: true });
	for (let i = 0; i < args.length; i++) {
		if (args[i].known && /^-(?:exec|execdir|ok|okdir)$/.test(args[i].text)) {
			let end = i + 1;
			while (end < args.length && !(args[end].known && (args[end].text === ';' || args[end].text === '+'))) end++;
			const cmd = args.slice(i + 1, end).map(v => (v.known && v.text.includes('{}') ? UNKNOWN : v));
			const rest = unwrap(cmd.length ? cmd : [UNKNOWN], w.depth + 1);
			out.argvs.push(...rest.argvs);
			out.nested.push(...rest.nested);
			out.opaque ??= rest.opaque;
			if (rest.gits) (out.gits ??= []).push(...rest.gits);
			i = end;
		}
	}
	return out;
}

/** The words from `from` on as one command line, when every one of them is known. */
function joinedFrom(args: WordValue[], from: number): string | undefined {
	const words = args.slice(from);
	return words.every(a => a.known) ? words.map(a => a.text).join(' ') : undefined;
}

/** The value of `-c` / `--command`, or undefined when there is none. */
function commandOption(args: WordValue[]): WordValue | undefined {
	const c = args.findIndex(a => a.known && (a.text === '-c' || a.text === '--command'));
	return c === -1 ? undefined : (args[c + 1] ?? UNKNOWN);
}

function nestedOrOpaque(w: Wrapped, opaque: string): Unwrapped {
	const command = commandOption(w.args);
	w.out.argvs.push({ argv: w.argv, needsAllow: true });
	if (command) {
		w.out.nested.push(command.known ? command.text : undefined);
	} else {
		w.out.opaque = opaque;
	}
	return w.out;
}

const WRAPPERS = new Map<string, Unwrapper>([
	['sudo', unwrapSudo],
	['doas', unwrapSudo],
	['env', unwrapEnv],
	[
		'command',
		w =>
			w.args.some(a => a.known && /^-[a-zA-Z]*[vV]/.test(a.text))
				? undefined
				: runsRest(w, skipOptions(w.args, w.name), false),
	],
	...['builtin', 'exec', 'nice', 'nohup', 'setsid', 'time', 'stdbuf', 'ionice', 'chrt', 'taskset', 'unbuffer'].map(
		name => [name, unwrapPrefix] as const,
	),
	['timeout', w => runsRest(w, skipOptions(w.args, w.name) + 1, false)],
	['xargs', unwrapXargs],
	['find', unwrapFind],
	[
		'eval',
		w => {
			w.out.argvs.push({ argv: w.argv, needsAllow: false });
			w.out.nested.push(joinedFrom(w.args, 0));
			return w.out;
		},
	],
	[
		'trap',
		w => {
			const first = w.args[0];
			w.out.argvs.push({ argv: w.argv, needsAllow: true });
			if (first && !(first.known && /^-[lp]?$|^--$/.test(first.text))) {
				w.out.nested.push(first.known ? first.text : undefined);
			}
			return w.out;
		},
	],
	[
		'watch',
		w => {
			w.out.argvs.push({ argv: w.argv, needsAllow: false });
			w.out.nested.push(joinedFrom(w.args, skipOptions(w.args, w.name)));
			return w.out;
		},
	],
	['su', w => nestedOrOpaque(w, 'su starts a login shell')],
	['script', w => nestedOrOpaque(w, '"script" starts a shell')],
	['flock', w => (commandOption(w.args) ? nestedOrOpaque(w, '') : everySuffix(w.argv, w.args, w.out, w.depth))],
	[
		'busybox',
		w =>
			w.args.length && w.args[0].known && !SHELLS.has(w.args[0].text)
				? runsRest(w, 0, false)
				: unwrapShell(w.argv, w.args.slice(1), w.args[0]?.text ?? 'busybox', w.out),
	],
	...['source', '.'].map(
		name =>
			[
				name,
				(w: Wrapped) => {
					w.out.argvs.push({ argv: w.argv, needsAllow: true });
					w.out.opaque = `"${w.name}" runs a script file whose commands the rules do not see`;
					return w.out;
				},
			] as const,
	),
	['git', w => unwrapGit(w.argv, w.args, w.out)],
]);

/** Not a wrapper Keel knows by name: a shell, a wrapper of unknown options, an interpreter, or a plain command. */
function unwrapByKind(w: Wrapped): Unwrapped {
	const { argv, args, name, out } = w;
	if (SHELLS.has(name)) {
		return unwrapShell(argv, args, name, out);
	}
	if (GENERIC_WRAPPERS.has(name)) {
		return everySuffix(argv, args, out, w.depth);
	}
	const programText = programTextConcern(name, args);
	if (programText) {
		out.argvs.push({ argv, needsAllow: true });
		out.opaque = programText;
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
