/**
 * git's options for the commands that print what a repository holds, as data: whether each
 * takes a value and how, whether it changes *which* commits or files are printed (kept when
 * Keel asks git the same question with names only), and whether it makes the command print
 * file content or names at all. An option missing here is one Keel cannot read, so the
 * command asks.
 */
import type { WordValue } from '../shellWords';

/** `req`: a value, attached with `=` or in the next word; `opt`: only an attached `=value`; `none`. */
type Takes = 'req' | 'opt' | 'none';
interface GitOption {
	takes: Takes;
	/** Changes which commits or files are printed: passed on to the names-only question. */
	keep?: boolean;
	/** Makes a log print file names or content. */
	prints?: boolean;
}

const opt = (takes: Takes, flags: { keep?: boolean; prints?: boolean } = {}): GitOption => ({ takes, ...flags });
const optionTable = (names: string, option: GitOption) =>
	Object.fromEntries(
		names
			.trim()
			.split(/\s+/)
			.map(n => [n, option]),
	);

/** Long options of log, show, diff, whatchanged, format-patch, stash show, range-diff, blame. */
const LONG: Readonly<Record<string, GitOption>> = {
	...optionTable(
		'all reflog walk-reflogs indexed-objects alternate-refs not do-walk reverse topo-order date-order author-date-order',
		opt('none', { keep: true }),
	),
	...optionTable('branches tags remotes no-walk ancestry-path ignore-submodules', opt('opt', { keep: true })),
	...optionTable(
		'glob exclude exclude-hidden max-count skip since after until before since-as-filter author committer grep grep-reflog min-parents max-parents diff-filter find-object',
		opt('req', { keep: true }),
	),
	...optionTable(
		'all-match invert-grep regexp-ignore-case basic-regexp extended-regexp fixed-strings perl-regexp merges no-merges no-min-parents no-max-parents first-parent exclude-first-parent-only simplify-by-decoration simplify-merges full-history dense sparse show-pulls left-only right-only cherry cherry-mark cherry-pick boundary follow cached staged merge-base pickaxe-all pickaxe-regex remerge-diff combined-all-paths full-diff root ignore-missing single-worktree include-untracked only-untracked no-index',
		opt('none', { keep: true }),
	),
	...optionTable('cc', opt('none', { keep: true, prints: true })),
	...optionTable('diff-merges', opt('opt', { keep: true })),
	...optionTable(
		'patch patch-with-stat patch-with-raw numstat shortstat cumulative summary name-only name-status raw compact-summary binary check full-index',
		opt('none', { prints: true }),
	),
	...optionTable('stat dirstat dirstat-by-file word-diff color-words unified', opt('opt', { prints: true })),
	...optionTable(
		'no-patch oneline graph no-decorate clear-decorations no-abbrev abbrev-commit no-abbrev-commit no-color no-color-moved function-context ext-diff no-ext-diff textconv no-textconv no-prefix default-prefix no-relative text ignore-space-at-eol ignore-cr-at-eol ignore-space-change ignore-all-space ignore-blank-lines indent-heuristic no-indent-heuristic minimal patience histogram exit-code quiet find-copies-harder no-renames rename-empty no-rename-empty irreversible-delete relative-date parents children left-right log-size source use-mailmap mailmap no-mailmap no-expand-tabs no-notes standard-notes no-standard-notes show-signature z null show-linear-break stdout numbered no-numbered numbered-files keep-subject signoff cover-letter no-cover-letter rfc no-thread zero-commit progress ignore-if-in-upstream no-binary incremental porcelain line-porcelain show-stats show-email show-name show-number score-debug',
		opt('none'),
	),
	...optionTable(
		'stat-width stat-name-width stat-graph-width stat-count format pretty decorate abbrev color color-moved color-moved-ws submodule relative date encoding expand-tabs notes show-notes find-renames find-copies break-rewrites from thread attach inline',
		opt('opt'),
	),
	...optionTable(
		'decorate-refs decorate-refs-exclude word-diff-regex inter-hunk-context src-prefix dst-prefix line-prefix ignore-matching-lines anchored diff-algorithm ws-error-highlight output output-indicator-new output-indicator-old output-indicator-context rotate-to skip-to start-number suffix output-directory subject-prefix in-reply-to to add-header base interdiff range-diff creation-factor filename-max-length reroll-count contents ignore-rev ignore-revs-file orderfile',
		opt('req'),
	),
};

/** Short options: one per word (git's revision parser does not bundle), a value attached or next. */
const SHORT: Readonly<Record<string, GitOption>> = {
	p: opt('none', { prints: true }),
	u: opt('none', { prints: true }),
	c: opt('none', { keep: true, prints: true }),
	m: opt('none', { keep: true }),
	t: opt('none'),
	r: opt('none', { keep: true }),
	s: opt('none'),
	z: opt('none'),
	w: opt('none'),
	b: opt('none'),
	a: opt('none'),
	W: opt('none'),
	D: opt('none'),
	R: opt('none', { keep: true }),
	i: opt('none', { keep: true }),
	E: opt('none', { keep: true }),
	F: opt('none', { keep: true }),
	P: opt('none', { keep: true }),
	g: opt('none', { keep: true }),
	n: opt('req', { keep: true }),
	S: opt('req', { keep: true }),
	G: opt('req', { keep: true }),
	O: opt('req'),
	I: opt('req'),
	k: opt('none'),
	o: opt('req'),
	v: opt('req'),
	U: opt('opt', { prints: true }),
	M: opt('opt'),
	C: opt('opt'),
	B: opt('opt'),
	X: opt('opt', { prints: true }),
	l: opt('opt'),
	L: opt('req', { prints: true }),
};

export interface ReadArgs {
	/** Options passed on to the names-only question (with their values). */
	keep: string[];
	/** Words before `--` that are not options: revisions, objects, or paths when nothing else. */
	words: WordValue[];
	/** Words after `--`. */
	pathspecs: WordValue[];
	/** A diff format was asked for (a log prints only messages without one). */
	prints: boolean;
	/** `-L` line ranges: each names a file (after the last `:`). */
	lineRanges: string[];
	/** An option Keel does not know, or a word only bash knows: the command asks. */
	unknown?: string;
}

export function readGitArgs(args: readonly WordValue[]): ReadArgs {
	const out: ReadArgs = { keep: [], words: [], pathspecs: [], prints: false, lineRanges: [] };
	for (let i = 0; i < args.length; i++) {
		const word = args[i];
		if (!word.known) {
			out.unknown ??= `${word.text}… is only known when it runs`;
			continue;
		}
		const text = word.text;
		if (text === '--') {
			out.pathspecs.push(...args.slice(i + 1));
			if (args.slice(i + 1).some(w => !w.known)) out.unknown ??= 'a path only known when it runs';
			break;
		}
		if (!text.startsWith('-') || text === '-') {
			out.words.push(word);
			continue;
		}
		if (/^-\d+$/.test(text)) {
			out.keep.push(text);
			continue;
		}
		let option: GitOption | undefined;
		let value: string | undefined;
		let name: string;
		if (text.startsWith('--')) {
			const eq = text.indexOf('=');
			name = text.slice(2, eq === -1 ? undefined : eq);
			option = LONG[name];
			if (eq !== -1) value = text.slice(eq + 1);
			else if (option?.takes === 'req') value = args[++i]?.known ? args[i].text : undefined;
			if (option?.takes === 'req' && value === undefined)
				out.unknown ??= `the value of --${name} is only known when it runs`;
			if (option?.takes === 'none' && eq !== -1) option = undefined;
		} else {
			name = text[1];
			option = SHORT[name];
			const rest = text.slice(2);
			if (option?.takes === 'req') value = rest || (args[++i]?.known ? args[i].text : undefined);
			else if (option?.takes === 'opt') value = rest || undefined;
			else if (rest) option = undefined;
			if (option?.takes === 'req' && value === undefined)
				out.unknown ??= `the value of -${name} is only known when it runs`;
		}
		if (!option) {
			out.unknown ??= `git option ${text}, which Keel cannot read`;
			continue;
		}
		out.prints ||= Boolean(option.prints);
		if (name === 'L' && value !== undefined) out.lineRanges.push(value);
		if (option.keep) {
			const dashes = text.startsWith('--') ? '--' : '-';
			out.keep.push(
				value === undefined ? `${dashes}${name}` : dashes === '--' ? `--${name}=${value}` : `-${name}${value}`,
			);
		}
	}
	return out;
}
