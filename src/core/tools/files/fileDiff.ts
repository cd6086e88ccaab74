import { createTwoFilesPatch } from 'diff';
import type { FileDiff } from '../defineTool';

/** The diff a write/edit card shows. `before`/`after` travel with it so the host can open VS Code's diff editor on exactly this. */
export function fileDiff(path: string, before: string | undefined, after: string | undefined): FileDiff {
	const unified = createTwoFilesPatch(
		before === undefined ? '/dev/null' : `a/${path}`,
		after === undefined ? '/dev/null' : `b/${path}`,
		before ?? '',
		after ?? '',
		'',
		'',
		{ context: 3 },
	)
		// The "Index:" and "====" banner carry nothing a reader needs.
		.replace(/^(?:Index:.*\n)?=+\n/, '');
	return { path, before, after, unified };
}

/** "+3 −1" for a card header. */
export function diffStat(diff: FileDiff): { added: number; removed: number } {
	let added = 0;
	let removed = 0;
	for (const line of diff.unified.split('\n')) {
		if (line.startsWith('+') && !line.startsWith('+++')) {
			added++;
		} else if (line.startsWith('-') && !line.startsWith('---')) {
			removed++;
		}
	}
	return { added, removed };
}
