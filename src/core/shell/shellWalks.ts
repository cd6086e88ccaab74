/**
 * Commands that find their own files: a recursive search, an archive, a recursive copy, `find
 * … -exec`, and `xargs` (the names arrive on its input). No word of the line names the files
 * they open, so the folders they walk are what must be judged (shellOperands.ts walks them).
 */
import type { WordValue } from './shellWords';

const GREPS = /^(?:grep|egrep|fgrep|zgrep|ugrep)$/;
const ALWAYS_RECURSIVE = /^(?:rg|ag|ack|ack-grep|ugrep|tree|du|rsync|zip|7z|7za|tar|bsdtar|cpio|pax)$/;
const RECURSIVE_FLAG = /^-[a-zA-Z]*[rRa]|^--(?:recursive|dereference-recursive|archive|directories=recurse)$/;

/**
 * The folders `argv` reads every file below: its operands (the cwd when it names none);
 * `undefined` in the list when the names only exist at run time (xargs); [] for other commands.
 */
export function walkedFolders(argv: WordValue[]): Array<string | undefined> {
	const name = argv[0]?.known ? argv[0].text.slice(argv[0].text.lastIndexOf('/') + 1) : '';
	const args = argv.slice(1);
	const operands = () => {
		let words = args.filter(a => !a.known || !a.text.startsWith('-')).map(a => (a.known ? a.text : undefined));
		// A search's first operand is its pattern, unless -e/-f/--regexp gave it.
		const searches = GREPS.test(name) || /^(?:rg|ag|ack|ack-grep)$/.test(name);
		if (searches && !args.some(a => a.known && /^-[a-zA-Z]*[ef]|^--(?:regexp|file)\b/.test(a.text))) {
			words = words.slice(1);
		}
		return words.length ? words : ['.'];
	};
	if (name === 'xargs') {
		return [undefined];
	}
	if (name === 'find') {
		const runs = args.some(a => a.known && /^-(?:exec|execdir|ok|okdir|delete|fprint0?|fprintf|fls)$/.test(a.text));
		if (!runs) return [];
		const starts: Array<string | undefined> = [];
		for (const a of args) {
			if (a.known && (/^[-(!]/.test(a.text) || a.text === ')')) break;
			starts.push(a.known ? a.text : undefined);
		}
		return starts.length ? starts : ['.'];
	}
	if (name === 'git' && args.some(a => a.known && a.text === 'grep')) {
		return ['.'];
	}
	if (ALWAYS_RECURSIVE.test(name)) {
		return operands();
	}
	if (GREPS.test(name) || name === 'cp' || name === 'scp') {
		return args.some(a => a.known && RECURSIVE_FLAG.test(a.text)) ? operands() : [];
	}
	return [];
}

/** Where `cd dir` / `pushd dir` goes; undefined for `cd` (home), `cd -`, `popd` and what only bash knows. */
export function directoryOf(argv: WordValue[]): string | undefined {
	const name = argv[0].text.slice(argv[0].text.lastIndexOf('/') + 1);
	const operands = argv.slice(1).filter(a => !(a.known && /^-[LPe@]+$|^--$/.test(a.text)));
	const target = operands[0];
	return name === 'popd' || !target?.known || target.text === '-' || target.text.startsWith('+')
		? undefined
		: target.text;
}
