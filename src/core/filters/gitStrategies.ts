import type { StageResult } from './types';

const SECTIONS: Array<[RegExp, string]> = [
	[/^Changes to be committed:/, 'staged'],
	[/^Changes not staged for commit:/, 'unstaged'],
	[/^Untracked files:/, 'untracked'],
	[/^Unmerged paths:/, 'unmerged'],
	[/^Ignored files:/, 'ignored'],
];
const KIND: Record<string, string> = {
	'new file': 'A',
	modified: 'M',
	deleted: 'D',
	renamed: 'R',
	copied: 'C',
	typechange: 'T',
	'both modified': 'UU',
	'both added': 'AA',
	'deleted by us': 'DU',
	'deleted by them': 'UD',
	'added by us': 'AU',
	'added by them': 'UA',
	'both deleted': 'DD',
};
const MAX_FILES_PER_SECTION = 50;

/**
 * Long-form `git status` → branch line plus one line per section, "M src/a.ts" entries.
 * Short and porcelain forms are compact already and pass through. Anything unexpected
 * (a rebase in progress, a merge) keeps its text: only the `(use "git …")` hints go.
 */
export function gitStatus(lines: string[]): StageResult {
	if (!lines.some(l => /^(On branch |HEAD detached |Not currently on any branch)/.test(l))) {
		return {
			lines,
			confidence:
				lines.length > 0 && lines.every(l => /^(?:[ MADRCU?!]{2} |## )/.test(l) || l === '')
					? 'full'
					: 'fallback',
		};
	}
	const out: string[] = [];
	const sections = new Map<string, string[]>();
	let current: string | undefined;
	let unexpected = false;
	for (const line of lines) {
		if (
			/^\s*\(use "git |^\s*\(commit or discard|^\s*\(create\/copy files|^\s*\(all conflicts fixed/.test(line) ||
			line.trim() === ''
		) {
			continue;
		}
		const section = SECTIONS.find(([pattern]) => pattern.test(line));
		if (section) {
			current = section[1];
			sections.set(current, sections.get(current) ?? []);
			continue;
		}
		if (current && /^\t/.test(line)) {
			const m = /^\t([a-z ]+):\s+(.*)$/.exec(line);
			sections.get(current)!.push(m && KIND[m[1]] ? `${KIND[m[1]]} ${m[2]}` : line.trim());
			continue;
		}
		current = undefined;
		if (
			!/^(On branch|Your branch|HEAD detached|nothing to commit|nothing added to commit|no changes added to commit)/.test(
				line,
			)
		) {
			unexpected = true;
		}
		out.push(line.replace(/^no changes added to commit.*$/, '').trim());
	}
	for (const [name, files] of sections) {
		const shown = files.slice(0, MAX_FILES_PER_SECTION);
		const more = files.length > shown.length ? `, … ${files.length - shown.length} more` : '';
		out.push(`${name} (${files.length}): ${shown.join(', ')}${more}`);
	}
	const capped = [...sections.values()].some(files => files.length > MAX_FILES_PER_SECTION);
	return { lines: out.filter(l => l !== ''), confidence: unexpected || capped ? 'partial' : 'full' };
}

/**
 * Diffs up to `maxDiffLines`; past the cap only each file's header and its size survive, so
 * the model knows what else changed and can ask for one file. `index` lines carry nothing
 * a model uses.
 */
export function gitDiff(lines: string[], maxDiffLines: number): StageResult {
	const out: string[] = [];
	let budget = maxDiffLines;
	let omitted = 0;
	let fileOmitted = 0;
	let sawHeader = false;
	const flushOmitted = () => {
		if (fileOmitted > 0) {
			out.push(`[… ${fileOmitted} diff lines of this file omitted]`);
			fileOmitted = 0;
		}
	};
	for (const line of lines) {
		if (/^index [0-9a-f]+\.\.[0-9a-f]+/.test(line)) {
			continue;
		}
		if (/^diff --git /.test(line)) {
			sawHeader = true;
			flushOmitted();
			out.push(line);
			continue;
		}
		if (budget > 0) {
			out.push(line);
			budget--;
		} else {
			omitted++;
			fileOmitted++;
		}
	}
	flushOmitted();
	if (omitted > 0) {
		out.push(
			`[diff capped at ${maxDiffLines} lines: ${omitted} lines omitted; run git diff -- <file> for one file]`,
		);
	}
	return { lines: out, confidence: !sawHeader && lines.length > 0 ? 'fallback' : omitted > 0 ? 'partial' : 'full' };
}
