/** The files a command line writes besides its redirections: the file arguments of common programs. */
import type { WordValue } from './shellWords';

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
}

/** Common programs whose arguments name files they write (or delete): checked like redirect targets. */
const WRITES_ALL = new Set([
	'tee',
	'touch',
	'mkdir',
	'rm',
	'rmdir',
	'truncate',
	'chmod',
	'chown',
	'unlink',
	'shred',
	'mkfifo',
]);
const WRITES_LAST = new Set(['cp', 'mv', 'install', 'ln', 'rsync']);

export function writtenByArguments(argv: WordValue[]): RedirectTarget[] {
	const name = argv[0]?.known ? argv[0].text.slice(argv[0].text.lastIndexOf('/') + 1) : '';
	const args = argv.slice(1);
	const operands = args.filter(a => !a.known || !a.text.startsWith('-'));
	const target = (w: WordValue): RedirectTarget => ({
		path: w.known ? w.text : undefined,
		written: w.known ? w.text : `${w.text}…`,
	});
	let files: WordValue[] = [];
	if (WRITES_ALL.has(name)) {
		// chmod/chown take a mode or owner first.
		files = name === 'chmod' || name === 'chown' ? operands.slice(1) : operands;
	} else if (WRITES_LAST.has(name)) {
		const dir = args.findIndex(a => a.known && (a.text === '-t' || a.text.startsWith('--target-directory')));
		const folder: WordValue =
			dir === -1
				? (operands.at(-1) ?? { text: '', known: false })
				: args[dir].text.includes('=')
					? { text: args[dir].text.split('=')[1], known: true }
					: (args[dir + 1] ?? { text: '', known: false });
		const sources = (dir === -1 ? operands.slice(0, -1) : operands.filter(o => o !== folder)).map(o =>
			o.known ? o.text : undefined,
		);
		return folder.known && (folder.text === '' || folder.text === '-')
			? []
			: [{ ...target(folder), into: sources }];
	} else if (name === 'dd') {
		files = args
			.filter(a => !a.known || a.text.startsWith('of='))
			.map(a => (a.known ? { text: a.text.slice(3), known: true } : a));
	} else if ((name === 'sed' || name === 'perl') && args.some(a => a.known && /^-[a-zA-Z]*i/.test(a.text))) {
		files = operands.slice(1);
	}
	if (unpacksNamesFromData(name, args)) {
		// `tar xf a.tar` may write .git/hooks/pre-commit: the names are inside the archive or patch, not on the line.
		return [{ path: undefined, written: `${name} (the files it unpacks are named inside its input)` }];
	}
	return files.filter(f => !(f.known && (f.text === '' || f.text === '-'))).map(target);
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
