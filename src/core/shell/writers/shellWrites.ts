/**
 * The files a command line writes besides its redirections: the file arguments of programs, read
 * the way each program reads its options (writerTable.ts is the data, getopt.ts the reader).
 */
import { hasOption, optionValues, parseArgs, type ParsedArgs } from './getopt';
import type { WordValue } from '../shellWords';
import { programName } from '../shellWrappers';
import { COMPRESSED_SUFFIX, DECOMPRESSORS, WRITERS, type WriteRole, type WriterEntry } from './writerTable';

export interface RedirectTarget {
	/** The target after quote removal; undefined when only bash can know it ($VAR, glob, ~). */
	path: string | undefined;
	/** As written, for messages. */
	written: string;
	/**
	 * cp, mv, install, ln, rsync: what they copy. When the target is a folder, each lands inside
	 * it under its own name, so the real targets are folder/<name> (undefined: a name only bash knows).
	 */
	into?: Array<string | undefined>;
	/**
	 * Named by an option or argument of a program that writes it (`sort -o x`): a rule that allows
	 * the command covers it, as it covers the program's other arguments; deny and ask rules on the
	 * path, and the guard's own reasons (outside, deny-listed, protected), still apply.
	 */
	byArgument?: true;
}

/** Programs whose every operand is a file they change or remove. */
const WRITES_ALL = new Set(['rm', 'rmdir', 'chmod', 'chown', 'chgrp', 'unlink', 'shred', 'mkfifo', 'mknod']);
/** Programs that copy or link their operands into the last one (or into `-t folder`). */
const WRITES_LAST: Readonly<Record<string, string>> = { cp: 'St', mv: 'St', install: 'gmoSt', ln: 'St', rsync: 'eBfT' };
const WRITES_LAST_LONG = ['target-directory', 'suffix', 'backup', 'mode', 'owner', 'group', 'rsh', 'filter'];

/** The program's name, and the table's key (`git init` for git's subcommands). */
function writerKey(argv: WordValue[]): { name: string; key: string; args: WordValue[] } {
	const name = argv[0]?.known ? programName(argv[0].text) : '';
	if (name === 'git' && argv[1]?.known) {
		return { name, key: `git ${argv[1].text}`, args: argv.slice(2) };
	}
	return { name, key: name, args: argv.slice(1) };
}

const target = (w: WordValue, path?: string): RedirectTarget => ({
	path: w.known ? (path ?? w.text) : undefined,
	written: w.known ? w.text : `${w.text}…`,
});

/** The names one written value stands for. */
function named(value: WordValue, role: WriteRole, name: string, parsed: ParsedArgs): RedirectTarget[] {
	if (!value.known) return [target(value)];
	const text = value.text;
	switch (role) {
		case 'file':
		case 'folder':
		case 'prefix':
			return [target(value)];
		case 'zip':
			return /\.[^/]*$/.test(programName(text)) ? [target(value)] : [target(value), target(value, `${text}.zip`)];
		case 'urlName': {
			const last = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(text)?.[1]?.replace(/[?#].*$/, '') ?? '';
			const file = programName(last) || 'index.html';
			const folder = optionValues(parsed, '-P', '--directory-prefix', '--output-dir').at(-1);
			return [
				folder === undefined
					? target(value, file)
					: folder.known
						? target(value, `${folder.text}/${file}`)
						: target(folder),
			];
		}
		case 'compressed': {
			const suffix = optionValues(parsed, '-S', '--suffix').at(-1);
			if (suffix && !suffix.known) return [target(suffix)];
			const ending = suffix?.text ?? COMPRESSED_SUFFIX[name] ?? '.gz';
			const decompressing = DECOMPRESSORS.has(name) || hasOption(parsed, '-d', '--decompress', '--uncompress');
			return [target(value, decompressing ? text.replace(/\.[^./]+$/, '') : `${text}${ending}`)];
		}
	}
}

/** The files `entry` says the command writes; a name only known when it runs is `path: undefined`. */
function fromTable(entry: WriterEntry, name: string, args: WordValue[]): RedirectTarget[] {
	const parsed = parseArgs(args, entry.grammar);
	if (entry.when && !entry.when(parsed)) return [];
	const out: RedirectTarget[] = [];
	for (const option of parsed.options) {
		// An abbreviation the grammar finds ambiguous (`--outp` for --output and --output-dir) may still be a written one.
		const prefixOf = option.name.startsWith('--')
			? Object.keys(entry.writes ?? {}).find(name => name.startsWith(option.name))
			: undefined;
		const role = entry.writes?.[option.name] ?? (prefixOf ? entry.writes![prefixOf] : undefined);
		if (role && option.value) out.push(...named(option.value, role, name, parsed));
		if (entry.unknownWith?.includes(option.name)) {
			out.push({
				path: undefined,
				written: `${name} ${option.name} (the names it writes are only known when it runs)`,
			});
		}
	}
	const operands = parsed.operands;
	const positions =
		entry.operands === 'all'
			? operands.map((_w, i) => i)
			: (entry.operands ?? [])
					.map(i => (i < 0 ? operands.length + i : i))
					.filter(i => i >= 0 && i < operands.length);
	for (const i of positions) {
		const word = operands[i];
		if (word.known && (word.text === '' || word.text === '-')) continue;
		out.push(...named(word, entry.operandRole ?? 'file', name, parsed));
	}
	for (const operand of operands) {
		const eq = operand.known ? operand.text.indexOf('=') : -1;
		const role = eq > 0 ? entry.keys?.[operand.text.slice(0, eq)] : undefined;
		if (role) out.push(...named({ text: operand.text.slice(eq + 1), known: true }, role, name, parsed));
	}
	return out;
}

/** Command lines a program runs from its options (`sort --compress-program`, `tar -I`, `split --filter`). */
export function commandsRunByOptions(argv: WordValue[]): Array<string | undefined> {
	const { name, key, args } = writerKey(argv);
	const entry = WRITERS[key] ?? WRITERS[name];
	if (!entry?.runs?.length) return [];
	const parsed = parseArgs(args, entry.grammar);
	return optionValues(parsed, ...entry.runs).map(v => (v.known ? v.text : undefined));
}

function copiesInto(name: string, args: WordValue[]): RedirectTarget[] {
	const parsed = parseArgs(args, { valued: WRITES_LAST[name], longValued: WRITES_LAST_LONG });
	const folderOption = optionValues(parsed, '-t', '--target-directory').at(-1);
	const operands = parsed.operands;
	const folder: WordValue = folderOption ?? operands.at(-1) ?? { text: '', known: false };
	const sources = (folderOption ? operands : operands.slice(0, -1)).map(o => (o.known ? o.text : undefined));
	return folder.known && (folder.text === '' || folder.text === '-') ? [] : [{ ...target(folder), into: sources }];
}

export function writtenByArguments(argv: WordValue[]): RedirectTarget[] {
	const { name, key, args } = writerKey(argv);
	// Its own arguments from the subcommand on: `git apply x` is judged on `apply x`.
	if (unpacksNamesFromData(name, argv.slice(1))) {
		// `tar xf a.tar` may write .git/hooks/pre-commit: the names are inside the archive or patch, not on the line.
		return [{ path: undefined, written: `${name} (the files it unpacks are named inside its input)` }];
	}
	if (WRITES_LAST[name]) return copiesInto(name, args);
	const entry = WRITERS[key];
	if (entry) return fromTable(entry, name, args).map(t => ({ ...t, byArgument: true as const }));
	let files: WordValue[] = [];
	const operands = args.filter(a => !a.known || !a.text.startsWith('-'));
	if (WRITES_ALL.has(name)) {
		// chmod/chown take a mode or owner first.
		files = /^(?:chmod|chown|chgrp)$/.test(name) ? operands.slice(1) : operands;
	} else if (name === 'perl' && args.some(a => a.known && /^-[a-zA-Z]*i/.test(a.text))) {
		files = operands.slice(1);
	}
	return files.filter(f => !(f.known && (f.text === '' || f.text === '-'))).map(f => target(f));
}

/**
 * `ln -s TARGET LINK`: the link's target is read from the folder the link is in, not from the
 * cwd, so `ln -s .. a/b/up` makes a link out of the workspace. Each target, with the folder it
 * will be resolved from (relative to the cwd; undefined when only bash knows).
 */
export function linkTargets(argv: WordValue[]): Array<{ target: WordValue; folder: string | undefined }> {
	const { name, args } = writerKey(argv);
	if (name !== 'ln') return [];
	const parsed = parseArgs(args, {
		valued: 'St',
		longValued: WRITES_LAST_LONG,
		longFlags: ['symbolic', 'relative', 'force'],
	});
	if (!hasOption(parsed, '-s', '--symbolic')) return [];
	const folderOption = optionValues(parsed, '-t', '--target-directory').at(-1);
	const operands = parsed.operands;
	const link = folderOption ?? (operands.length > 1 ? operands.at(-1) : undefined);
	const targets = folderOption || operands.length > 1 ? operands.slice(0, folderOption ? undefined : -1) : operands;
	// The link lands in the folder given, or beside the name given (a folder operand puts it inside: both are tried).
	const folders = !link
		? ['.']
		: !link.known
			? [undefined]
			: folderOption
				? [link.text]
				: [link.text, dirname(link.text)];
	return targets.flatMap(t => folders.map(folder => ({ target: t, folder })));
}

function dirname(path: string): string {
	const cut = path.replace(/\/+$/, '').lastIndexOf('/');
	return cut <= 0 ? (path.startsWith('/') ? '/' : '.') : path.slice(0, cut);
}

/** Programs that write files whose names come from their input: archives unpacked, patches applied. */
function unpacksNamesFromData(name: string, args: WordValue[]): boolean {
	const has = (re: RegExp) => args.some(a => a.known && re.test(a.text));
	const first = args[0]?.known ? args[0].text : '';
	switch (name) {
		case 'tar':
		case 'bsdtar':
		case 'gtar':
			return (!first.startsWith('-') && first.includes('x')) || has(/^-[a-zA-Z]*x|^--(?:extract|get)$/);
		case 'unzip':
			return !has(/^-[a-zA-Z]*[lptvzZ]/);
		case '7z':
		case '7za':
		case '7zz':
			return first === 'x' || first === 'e';
		case 'cpio':
			return has(/^-[a-zA-Z]*i|^--extract$/);
		case 'patch':
			return !has(/^--dry-run$/);
		case 'git': {
			const sub = args.find(a => !(a.known && a.text.startsWith('-')));
			const applies = sub?.known && (sub.text === 'apply' || sub.text === 'am');
			return (
				Boolean(applies) &&
				!(sub!.text === 'apply' && has(/^--(?:check|stat|numstat|summary)$/) && !has(/^--apply$/))
			);
		}
		default:
			return false;
	}
}

/** The name a copied path gets inside a folder: its last segment (rsync's "src/" copies the contents: unknown). */
export function landingName(source: string | undefined): string | undefined {
	if (source === undefined || /\/\.?$/.test(source)) {
		return undefined;
	}
	const name = source.slice(source.lastIndexOf('/') + 1);
	return name === '' || name === '.' || name === '..' ? undefined : name;
}
