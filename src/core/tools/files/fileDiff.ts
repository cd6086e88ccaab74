import { structuredPatch, formatPatch } from 'diff';
import type { FileDiff } from '../defineTool';

/**
 * The `diff` package's work is quadratic in the worst case (every line different): a write card
 * stops it at these bounds and says so, instead of stalling the extension host. Past them the
 * card shows the size and how many lines changed, and "Open diff" shows the change in VS Code's
 * diff editor, which is built for it.
 */
export const DIFF_LIMITS = {
	/** Both sides together, in characters: above it no diff is computed. */
	chars: 2_000_000,
	/** Edits (lines added plus removed) the diff may explore before it gives up. */
	edits: 2_000,
	/** Wall time the diff may take (it also splits both sides into lines first). */
	timeoutMs: 50,
};

/** The diff a write/edit card shows. `before`/`after` travel with it so the host can open VS Code's diff editor on exactly this. */
export function fileDiff(path: string, before: string | undefined, after: string | undefined): FileDiff {
	const diff = boundedDiff(path, before, after);
	return diff.unified === undefined
		? { path, before, after, unified: '', tooLarge: changeSize(before ?? '', after ?? '') }
		: (diff as FileDiff);
}

/**
 * The same, with a turn of the event loop between the diff and, when it gave up, the count of
 * changed lines: each is one bounded block, not both in one.
 */
export async function fileDiffAsync(
	path: string,
	before: string | undefined,
	after: string | undefined,
): Promise<FileDiff> {
	const diff = boundedDiff(path, before, after);
	if (diff.unified !== undefined) return diff as FileDiff;
	await new Promise(resolve => setImmediate(resolve));
	return { path, before, after, unified: '', tooLarge: changeSize(before ?? '', after ?? '') };
}

/** The unified diff within DIFF_LIMITS, or `unified: undefined` when the change is past them. */
function boundedDiff(
	path: string,
	before: string | undefined,
	after: string | undefined,
): Omit<FileDiff, 'unified'> & { unified: string | undefined } {
	const oldText = before ?? '';
	const newText = after ?? '';
	const tooLarge = () => ({ path, before, after, unified: undefined });
	if (oldText.length + newText.length > DIFF_LIMITS.chars) {
		return tooLarge();
	}
	const patch = structuredPatch(
		before === undefined ? '/dev/null' : `a/${path}`,
		after === undefined ? '/dev/null' : `b/${path}`,
		oldText,
		newText,
		'',
		'',
		{ context: 3, maxEditLength: DIFF_LIMITS.edits, timeout: DIFF_LIMITS.timeoutMs },
	);
	if (!patch) {
		return tooLarge();
	}
	const unified = formatPatch(patch)
		// The "Index:" and "====" banner carry nothing a reader needs.
		.replace(/^(?:Index:.*\n)?=+\n/, '');
	return { path, before, after, unified };
}

/**
 * How big a change is without diffing it: its size, and the lines one side has that the other
 * has not (each line counted as often as it occurs), an upper bound of what a diff would mark,
 * found in one pass over each side.
 */
export function changeSize(
	before: string,
	after: string,
): { bytes: number; changedLines: number; added: number; removed: number } {
	const counts = new Map<string, number>();
	const lines = (text: string) => (text === '' ? [] : text.split('\n'));
	for (const line of lines(before)) counts.set(line, (counts.get(line) ?? 0) + 1);
	let added = 0;
	for (const line of lines(after)) {
		const n = counts.get(line) ?? 0;
		if (n > 0) counts.set(line, n - 1);
		else added++;
	}
	let removed = 0;
	for (const n of counts.values()) removed += n;
	return {
		// The size a reader knows the file by: the larger side.
		bytes: Math.max(Buffer.byteLength(before), Buffer.byteLength(after)),
		changedLines: added + removed,
		added,
		removed,
	};
}

/** "+3 −1" for a card header. */
export function diffStat(diff: FileDiff): { added: number; removed: number } {
	if (diff.tooLarge) {
		return { added: diff.tooLarge.added, removed: diff.tooLarge.removed };
	}
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

/** "1.5 MB, 40,000 changed lines": a change too large to show, in words. */
export function tooLargeText(size: { bytes: number; changedLines: number }): string {
	const mb = size.bytes / 1_000_000;
	const amount = mb >= 1 ? `${mb.toFixed(1)} MB` : `${Math.max(1, Math.round(size.bytes / 1000))} KB`;
	return `diff too large to show: ${amount}, ${size.changedLines.toLocaleString('en-US')} changed lines — Open diff shows it in the editor`;
}
