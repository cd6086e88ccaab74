/**
 * What a git command that prints from a repository will print, asked of git itself: the same
 * revisions, objects and pathspecs, asked with names only (`--name-only`), with every option that
 * changes which commits or files it shows, and none that runs or writes anything. Objects named
 * by the command (`rev:path`, `:0:path`, `HEAD^{/msg}:path`, an object id, a tag of a blob) are
 * resolved by git's own revision parser (`cat-file --batch-check`), a blob's path taken from its
 * name and checked against git, a tree listed with `ls-tree -r`. The result is every repository
 * path (relative to the work tree's top) whose content or name the command prints, or why Keel
 * cannot tell.
 */
import type { GitAskOptions, GitQuestions, GitRepository } from './gitQuestions';
import { readGitArgs, type ReadArgs } from './gitOptions';
import { splitNul } from '../../util/splitNul';
import type { WordValue } from '../shellWords';

export interface Printed {
	paths: string[];
	/** Why Keel cannot tell what it prints (the command asks). */
	unknown?: string;
}

export interface Asker {
	git: GitQuestions;
	cwd: string;
	options: GitAskOptions;
	repo: GitRepository;
}

async function askGit(a: Asker, args: string[], input?: string): Promise<Buffer | undefined> {
	const answer = await a.git.ask(a.cwd, args, { ...a.options, input });
	return answer && answer.code === 0 ? answer.stdout : undefined;
}

/** `rev:path`, `:N:path`, `:path` as git splits them (a `:` inside `^{…}` is not the split). */
export function splitObjectPath(word: string): { rev: string; path: string } | undefined {
	if (word.startsWith(':/')) return undefined;
	const stage = /^:([0-3]):(.*)$/s.exec(word);
	if (stage) return { rev: `:${stage[1]}`, path: stage[2] };
	if (word.startsWith(':')) return { rev: '', path: word.slice(1) };
	let depth = 0;
	for (let i = 0; i < word.length; i++) {
		if (word[i] === '{') depth++;
		else if (word[i] === '}' && depth) depth--;
		else if (word[i] === ':' && depth === 0) return { rev: word.slice(0, i), path: word.slice(i + 1) };
	}
	return undefined;
}

/** A path of `rev:path` from the top: `./x` and `../x` are from the cwd, anything else from the top. */
function fromTop(path: string, prefix: string): string | undefined {
	const relative = /^\.\.?(?:\/|$)/.test(path);
	const parts: string[] = relative ? prefix.split('/').filter(Boolean) : [];
	for (const segment of path.split('/')) {
		if (segment === '' || segment === '.') continue;
		if (segment === '..') {
			if (!parts.length) return undefined;
			parts.pop();
		} else parts.push(segment);
	}
	return parts.join('/');
}

export interface Classified {
	type: 'blob' | 'tree' | 'commit' | 'tag' | 'missing';
	oid?: string;
	word: string;
}

/** Each word as git's revision parser reads it. */
export async function classify(a: Asker, words: readonly string[]): Promise<Classified[] | undefined> {
	if (!words.length) return [];
	if (words.some(w => /[\n\r]/.test(w))) return undefined;
	const out = await askGit(a, ['cat-file', '--batch-check=%(objecttype) %(objectname)'], `${words.join('\n')}\n`);
	if (!out) return undefined;
	const lines = out.toString('utf8').split('\n');
	const classified = words.map((word, i): Classified => {
		const [type, oid] = (lines[i] ?? '').split(' ');
		return /^(?:blob|tree|commit|tag)$/.test(type)
			? { type: type as Classified['type'], oid, word }
			: { type: 'missing', word };
	});
	// An annotated tag prints what it points at: a tag of a blob is that blob.
	const tags = classified.filter(c => c.type === 'tag');
	if (tags.length) {
		const peeled = await askGit(
			a,
			['cat-file', '--batch-check=%(objecttype) %(objectname)'],
			tags.map(t => `${t.oid}^{}\n`).join(''),
		);
		const kinds = peeled?.toString('utf8').split('\n') ?? [];
		tags.forEach((tag, i) => {
			const [type, oid] = (kinds[i] ?? '').split(' ');
			if (type === 'blob' || type === 'tree') Object.assign(tag, { type, oid });
		});
	}
	return classified;
}

/** The repository paths a blob named by `word` is: from its name (checked with git), else wherever history has it. */
async function blobPaths(a: Asker, object: Classified): Promise<Printed> {
	const split = splitObjectPath(object.word);
	if (split) {
		const top = fromTop(split.path, a.repo.prefix);
		if (top === undefined) return { paths: [], unknown: `${object.word} names a path above the repository` };
		const check = await classify(a, [`${split.rev}:${top}`]);
		if (check?.[0]?.oid === object.oid) return { paths: [top] };
		return { paths: [], unknown: `${object.word}: git and Keel read its path differently` };
	}
	// An object id or a tag of a blob: where does history (or the index) hold it?
	const history = await askGit(a, [
		'log',
		'--all',
		'--reflog',
		'--format=',
		'-z',
		'--name-only',
		'--no-renames',
		`--find-object=${object.oid}`,
	]);
	const index = await askGit(a, ['ls-files', '-s', '-z']);
	if (!history || !index) return { paths: [], unknown: `${object.word}: git could not say which file it is` };
	const staged = splitNul(index.toString('utf8'))
		.filter(entry => entry.split(' ')[1] === object.oid)
		.map(entry => entry.slice(entry.indexOf('\t') + 1));
	const paths = [...new Set([...splitNul(history.toString('utf8')), ...staged])];
	return paths.length
		? { paths }
		: { paths: [], unknown: `${object.word} is an object no file of the repository's history holds` };
}

/** Every file under a tree named by `word`. */
async function treePaths(a: Asker, object: Classified): Promise<Printed> {
	const split = splitObjectPath(object.word);
	const base = split ? fromTop(split.path, a.repo.prefix) : /\^\{tree\}$|^[^:]*$/.test(object.word) ? '' : undefined;
	const listed = await askGit(a, ['ls-tree', '-r', '-z', '--name-only', object.oid!]);
	if (base === undefined || !listed)
		return { paths: [], unknown: `${object.word}: Keel cannot tell where this tree is` };
	return { paths: splitNul(listed.toString('utf8')).map(p => (base ? `${base}/${p}` : p)) };
}

/** Paths of the blobs (and, when `trees` print content, the trees) among `objects`. */
async function objectPaths(a: Asker, objects: readonly Classified[], trees: boolean): Promise<Printed> {
	const out: Printed = { paths: [] };
	for (const object of objects) {
		const found =
			object.type === 'blob'
				? await blobPaths(a, object)
				: object.type === 'tree' && trees
					? await treePaths(a, object)
					: undefined;
		if (!found) continue;
		out.paths.push(...found.paths);
		out.unknown ??= found.unknown;
	}
	return out;
}

/** The names-only question: `git <sub> <names options> <kept options> <revisions> -- <pathspecs>`. */
async function namesOf(
	a: Asker,
	sub: string[],
	parsed: ReadArgs,
	revisions: string[],
	pathspecs: string[],
): Promise<Printed> {
	const out = await askGit(a, [...sub, ...parsed.keep, ...revisions, '--', ...pathspecs]);
	return out
		? { paths: splitNul(out.toString('utf8')) }
		: { paths: [], unknown: `git could not list what \`git ${sub[0]}\` prints here` };
}

const NAMES = ['--name-only', '-z', '--no-ext-diff', '--no-textconv', '--no-relative'];

/**
 * A command of the log family, diff family or show: its words split into objects, revisions
 * and paths by git, then asked with names only.
 */
export async function printedByHistory(a: Asker, sub: string, args: readonly WordValue[]): Promise<Printed> {
	const parsed = readGitArgs(sub === 'stash' ? args.slice(1) : args);
	if (parsed.unknown) return { paths: [], unknown: parsed.unknown };
	if ((sub === 'log' || sub === 'reflog' || (sub === 'stash' && args[0]?.text === 'list')) && !parsed.prints) {
		return { paths: [] };
	}
	if (parsed.keep.includes('--no-index')) return { paths: [] };
	const words = parsed.words.map(w => w.text);
	const revisionLike = (w: string) => /\.\.|^\^|\^[!@-]\d*$/.test(w);
	const classified = await classify(
		a,
		words.filter(w => !revisionLike(w)),
	);
	if (!classified) return { paths: [], unknown: 'git could not read its revisions' };
	const out: Printed = { paths: [] };
	const diffLike = /^diff/.test(sub) || sub === 'difftool';
	const objects = await objectPaths(a, classified, diffLike);
	out.paths.push(...objects.paths);
	out.unknown ??= objects.unknown;
	// A word git does not know as an object but that looks like one (`newbranch:.env`) may exist by the time it runs.
	const missing = classified.filter(c => c.type === 'missing');
	const objectLike = missing.find(c => splitObjectPath(c.word) || /^[0-9a-f]{7,}$/i.test(c.word));
	if (objectLike) out.unknown ??= `${objectLike.word} names no object yet`;
	const revisions = [
		...words.filter(revisionLike),
		...classified.filter(c => c.type === 'commit' || (c.type === 'tag' && sub !== 'cat-file')).map(c => c.word),
	];
	const pathspecs = [...missing.map(c => c.word), ...parsed.pathspecs.map(w => w.text)];
	for (const range of parsed.lineRanges) {
		const file = range.slice(range.lastIndexOf(':') + 1);
		const top = fromTop(file.startsWith('/') ? file : `./${file}`, a.repo.prefix);
		if (top !== undefined) out.paths.push(top);
	}
	const onlyObjects = classified.length > 0 && classified.every(c => c.type === 'blob' || c.type === 'tree');
	if (onlyObjects && !missing.length && !parsed.pathspecs.length) return out;
	const question = historyQuestion(sub, args, parsed, revisions, onlyObjects);
	const names =
		sub === 'stash'
			? await namesOf(
					a,
					question,
					{ ...parsed, keep: parsed.keep.filter(k => /untracked|^-u$/.test(k)) },
					revisions,
					[],
				)
			: await namesOf(a, question, parsed, revisions, pathspecs);
	out.paths.push(...names.paths);
	out.unknown ??= names.unknown;
	return out;
}

/**
 * The names-only form of a history command that git is asked; fills in the revisions git would
 * assume (HEAD for show, `rev..HEAD` for format-patch, both ranges of range-diff).
 */
function historyQuestion(
	sub: string,
	args: readonly WordValue[],
	parsed: ReturnType<typeof readGitArgs>,
	revisions: string[],
	onlyObjects: boolean,
): string[] {
	const diffLike = /^diff/.test(sub) || sub === 'difftool';
	let question: string[];
	if (diffLike) {
		const real = sub === 'difftool' ? 'diff' : sub;
		question = [real, ...NAMES, '--no-renames', ...(real === 'diff-tree' ? ['-r', '--no-commit-id'] : [])];
	} else if (sub === 'show') {
		question = ['show', ...NAMES, '--format=', '--no-renames'];
		if (!revisions.length && !onlyObjects) revisions.push('HEAD');
	} else if (sub === 'stash') {
		question = [
			'stash',
			args[0]?.text === 'list' ? 'list' : 'show',
			...NAMES,
			...(args[0]?.text === 'list' ? ['--format='] : []),
		];
	} else {
		const follow = parsed.keep.includes('--follow');
		question = [
			'log',
			...NAMES,
			'--format=',
			...(follow ? [] : ['--no-renames']),
			...(sub === 'log' || sub === 'whatchanged' || sub === 'reflog' ? [] : ['-m', '--root']),
		];
		if (sub === 'reflog') question.push('-g');
		if (
			sub === 'format-patch' &&
			revisions.length === 1 &&
			!/\.\./.test(revisions[0]) &&
			!parsed.keep.some(k => /^-\d|^-n|^--max-count|^--root/.test(k))
		) {
			revisions[0] = `${revisions[0]}..HEAD`;
		}
		if (sub === 'range-diff' && revisions.length === 3 && !revisions.some(r => r.includes('..'))) {
			revisions.splice(0, 3, `${revisions[0]}..${revisions[1]}`, `${revisions[0]}..${revisions[2]}`);
		}
	}
	return question;
}

/** `git cat-file`: content only with -p, a type, --textconv or --filters; `--batch` reads names from its input. */
export async function printedByCatFile(a: Asker, args: readonly WordValue[]): Promise<Printed> {
	if (args.some(w => !w.known)) return { paths: [], unknown: 'an object only known when it runs' };
	const texts = args.map(w => w.text);
	if (texts.some(t => /^--batch(?:-command)?(?:=|$)|^--batch-all-objects$/.test(t) && !/^--batch-check/.test(t))) {
		if (texts.some(t => /^--batch(?:-command)?(?:=|$)/.test(t))) {
			return {
				paths: [],
				unknown: 'git cat-file --batch prints objects named on its input, which Keel cannot see',
			};
		}
	}
	const content = texts.some(t => /^(?:-p|--textconv|--filters|blob|tree|commit|tag)$/.test(t));
	if (!content) return { paths: [] };
	const words = texts.filter(t => !t.startsWith('-') && !/^(?:blob|tree|commit|tag)$/.test(t));
	const classified = await classify(a, words);
	if (!classified) return { paths: [], unknown: 'git could not read the object' };
	const missing = classified.find(c => c.type === 'missing');
	if (missing) return { paths: [], unknown: `${missing.word} names no object yet` };
	return objectPaths(a, classified, false);
}
