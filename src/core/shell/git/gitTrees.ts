/**
 * git commands that print files of a tree: `git grep` (its matching files, asked of git with
 * `-l`), `git archive` (every file of the tree-ish under its paths, listed with `ls-tree -r`),
 * `git blame` (the one file it names).
 */
import { splitNul } from '../../util/splitNul';
import { classify, splitObjectPath, type Asker, type Printed } from './gitPrinters';
import type { WordValue } from '../shellWords';

/** git grep's options: which take a value, which are passed on, which only shape the output. */
const GREP_VALUED = new Set([
	'-e',
	'-f',
	'--max-depth',
	'--threads',
	'-A',
	'-B',
	'-C',
	'-m',
	'--max-count',
	'--after-context',
	'--before-context',
	'--context',
]);
const GREP_KEPT =
	/^(?:-[EGFPiwvIar]|--(?:extended-regexp|basic-regexp|fixed-strings|perl-regexp|ignore-case|word-regexp|invert-match|text|recursive|no-recursive|cached|untracked|no-exclude-standard|exclude-standard|all-match|and|or|not|max-depth|textconv|no-textconv)|\(|\))$/;
const GREP_OUTPUT =
	/^(?:-[nlLhHcoqzpW]|-\d+|--(?:line-number|column|files-with-matches|name-only|files-without-match|full-name|count|only-matching|no-color|break|heading|show-function|function-context|quiet|null|color(?:=.*)?|open-files-in-pager(?:=.*)?)|-O.*)$/;

export async function printedByGrep(a: Asker, args: readonly WordValue[]): Promise<Printed> {
	if (args.some(w => !w.known)) return { paths: [], unknown: 'a word only known when it runs' };
	const texts = args.map(w => w.text);
	if (texts.includes('--no-index')) return { paths: [] };
	if (texts.includes('--recurse-submodules'))
		return { paths: [], unknown: 'git grep --recurse-submodules reads other repositories' };
	const keep: string[] = [];
	const patterns: string[] = [];
	const words: string[] = [];
	const pathspecs: string[] = [];
	for (let i = 0; i < texts.length; i++) {
		const text = texts[i];
		if (text === '--') {
			pathspecs.push(...texts.slice(i + 1));
			break;
		}
		const [name, attached] = text.startsWith('--')
			? [text.split('=')[0], text.includes('=')]
			: [text.slice(0, 2), text.length > 2];
		if (GREP_VALUED.has(name)) {
			const value = attached
				? text.startsWith('--')
					? text.slice(text.indexOf('=') + 1)
					: text.slice(2)
				: texts[++i];
			if (value === undefined) return { paths: [], unknown: `the value of ${name} is missing` };
			if (name === '-e' || name === '-f') patterns.push(name, value);
			else if (name === '--max-depth') keep.push(`--max-depth=${value}`);
			continue;
		}
		if (text.startsWith('-') && text !== '-' && !/^[()]$/.test(text)) {
			if (GREP_KEPT.test(text)) keep.push(text);
			else if (!GREP_OUTPUT.test(text))
				return { paths: [], unknown: `git grep option ${text}, which Keel cannot read` };
			continue;
		}
		if (/^[()]$/.test(text)) keep.push(text);
		else words.push(text);
	}
	if (!patterns.length) {
		const pattern = words.shift();
		if (pattern === undefined) return { paths: [] };
		patterns.push('-e', pattern);
	}
	const classified = await classify(a, words);
	if (!classified) return { paths: [], unknown: 'git could not read its revisions' };
	const trees = classified.filter(c => c.type !== 'missing' && c.type !== 'blob').map(c => c.word);
	pathspecs.unshift(...classified.filter(c => c.type === 'missing').map(c => c.word));
	const answer = await a.git.ask(
		a.cwd,
		['grep', '-l', '-z', '--full-name', '--no-color', ...keep, ...patterns, ...trees, '--', ...pathspecs],
		a.options,
	);
	// 1: nothing matched.
	if (answer?.code === 1) return { paths: [] };
	if (!answer || answer.code !== 0) return { paths: [], unknown: 'git could not say which files git grep searches' };
	const paths: string[] = [];
	for (const entry of splitNul(answer.stdout.toString('utf8'))) {
		const tree = trees.filter(t => entry.startsWith(`${t}:`)).sort((x, y) => y.length - x.length)[0];
		if (tree === undefined) {
			paths.push(entry);
			continue;
		}
		const inner = entry.slice(tree.length + 1);
		const split = splitObjectPath(tree);
		paths.push(split?.path ? `${split.path.replace(/\/$/, '')}/${inner}` : inner);
	}
	return { paths };
}

/** git archive's options that take a value in the next word. */
const ARCHIVE_VALUED = new Set([
	'--format',
	'--prefix',
	'-o',
	'--output',
	'--remote',
	'--exec',
	'--add-file',
	'--add-virtual-file',
	'--mtime',
]);

export async function printedByArchive(a: Asker, args: readonly WordValue[]): Promise<Printed> {
	if (args.some(w => !w.known)) return { paths: [], unknown: 'a word only known when it runs' };
	const texts = args.map(w => w.text);
	const words: string[] = [];
	for (let i = 0; i < texts.length; i++) {
		const text = texts[i];
		if (text === '--') {
			words.push(...texts.slice(i + 1));
			break;
		}
		if (text.startsWith('--remote')) return { paths: [] };
		if (ARCHIVE_VALUED.has(text)) {
			i++;
			continue;
		}
		if (
			text.startsWith('-') &&
			!/^-[0-9]$|^--(?:format|prefix|output|exec|add-file|add-virtual-file|mtime)=|^-o.+|^--worktree-attributes$|^-v$|^--verbose$/.test(
				text,
			)
		) {
			return { paths: [], unknown: `git archive option ${text}, which Keel cannot read` };
		}
		if (!text.startsWith('-')) words.push(text);
	}
	const [treeish, ...paths] = words;
	if (treeish === undefined) return { paths: [] };
	if (paths.some(p => /^:|[*?[]/.test(p)))
		return { paths: [], unknown: 'git archive with a pathspec Keel does not expand' };
	const [object] = (await classify(a, [treeish])) ?? [];
	if (!object || object.type === 'missing' || object.type === 'blob')
		return { paths: [], unknown: `${treeish}: not a tree Keel can list` };
	const split = splitObjectPath(treeish);
	const listed =
		object.type === 'tree' && split
			? await a.git.ask(a.cwd, ['ls-tree', '-r', '-z', '--name-only', object.oid!, '--', ...paths], a.options)
			: await a.git.ask(
					a.cwd,
					['ls-tree', '-r', '-z', '--name-only', '--full-name', treeish, '--', ...paths],
					a.options,
				);
	if (!listed || listed.code !== 0) return { paths: [], unknown: 'git could not list the archive' };
	const base =
		object.type === 'tree' && split ? split.path.replace(/^\.\//, `${a.repo.prefix}`).replace(/\/$/, '') : '';
	return { paths: splitNul(listed.stdout.toString('utf8')).map(p => (base ? `${base}/${p}` : p)) };
}

/** `git blame [rev] [--] file`: the file, from the cwd. */
export function printedByBlame(a: Asker, args: readonly WordValue[]): Printed {
	if (args.some(w => !w.known)) return { paths: [], unknown: 'a word only known when it runs' };
	const texts = args.map(w => w.text);
	const dashes = texts.indexOf('--');
	let file: string | undefined;
	if (dashes !== -1) file = texts[dashes + 1];
	else {
		const operands: string[] = [];
		for (let i = 0; i < texts.length; i++) {
			if (
				/^(?:-[LSM]|-C|--contents|--ignore-rev|--ignore-revs-file|--since|--until|--date|--encoding)$/.test(
					texts[i],
				)
			)
				i++;
			else if (!texts[i].startsWith('-')) operands.push(texts[i]);
		}
		file = operands.at(-1);
	}
	if (file === undefined) return { paths: [] };
	const parts = a.repo.prefix.split('/').filter(Boolean);
	for (const segment of file.split('/')) {
		if (segment === '..') {
			if (!parts.length) return { paths: [], unknown: `${file} is above the repository` };
			parts.pop();
		} else if (segment && segment !== '.') parts.push(segment);
	}
	return { paths: [parts.join('/')] };
}
