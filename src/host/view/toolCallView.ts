import type { ToolCallState } from '../../core/agent/events';
import type { ToolCallPatch } from '../../shared/protocol';
import type { DiffPreview, ToolCallView } from '../../shared/views';
import { tooLargeText } from '../../core/tools/files/fileDiff';

/** What a card shows of a write's change; "Open diff" shows the rest from the host. */
const DIFF_PREVIEW_LINES = 300;
const DIFF_PREVIEW_CHARS = 24_000;

const previews = new WeakMap<object, DiffPreview[]>();

// The card is the agent's own `ToolCallState` less the diffs' contents; src/shared may not import
// the engine, so the host, which sees both, fails to compile when the two drift apart.
type CallFields = Omit<ToolCallState, 'diffs'>;
const _toCard = (call: CallFields): Omit<ToolCallView, 'diffs'> => call;
const _fromCard = (call: Omit<ToolCallView, 'diffs'>): CallFields => call;
void _toCard;
void _fromCard;

/** The card for a call: the agent's state less the before/after contents of its diffs. */
export function toToolCallView(call: ToolCallState): ToolCallView {
	const { diffs, ...rest } = call;
	return diffs ? { ...rest, diffs: diffPreviews(diffs) } : { ...rest };
}

function diffPreviews(diffs: NonNullable<ToolCallState['diffs']>): DiffPreview[] {
	// The loop re-sends the same diffs with every status change: compute their preview once.
	let cached = previews.get(diffs);
	if (!cached) {
		cached = diffs.map(diff =>
			diff.tooLarge
				? {
						path: diff.path,
						unified: '',
						added: diff.tooLarge.added,
						removed: diff.tooLarge.removed,
						notice: tooLargeText(diff.tooLarge),
					}
				: diffPreview(diff.path, diff.unified),
		);
		previews.set(diffs, cached);
	}
	return cached;
}

export function diffPreview(path: string, unified: string): DiffPreview {
	const lines = unified.split('\n');
	let added = 0;
	let removed = 0;
	for (const line of lines) {
		if (line.startsWith('+') && !line.startsWith('+++')) {
			added++;
		} else if (line.startsWith('-') && !line.startsWith('---')) {
			removed++;
		}
	}
	let kept = lines.slice(0, DIFF_PREVIEW_LINES).join('\n');
	if (kept.length > DIFF_PREVIEW_CHARS) {
		kept = kept.slice(0, kept.lastIndexOf('\n', DIFF_PREVIEW_CHARS) + 1 || DIFF_PREVIEW_CHARS);
	}
	const keptLines = kept === '' ? 0 : kept.split('\n').length;
	const omittedLines = lines.length - keptLines;
	return { path, unified: kept, added, removed, ...(omittedLines > 0 ? { omittedLines } : {}) };
}

export interface ToolCallChange {
	patch: ToolCallPatch;
	/** Live output that only grew: sent as the appended part. */
	appendedProgress?: string;
}

/** What changed between two states of one card; undefined when nothing did. */
export function toolCallChange(previous: ToolCallView, next: ToolCallView): ToolCallChange | undefined {
	const patch: Record<string, unknown> = {};
	let appendedProgress: string | undefined;
	for (const key of Object.keys(next) as Array<keyof ToolCallView>) {
		const before = previous[key];
		const after = next[key];
		if (key === 'id' || before === after) {
			continue;
		}
		if (key === 'progress' && typeof before === 'string' && typeof after === 'string' && after.startsWith(before)) {
			appendedProgress = after.slice(before.length);
			continue;
		}
		if (typeof after === 'object' && after !== null && JSON.stringify(before) === JSON.stringify(after)) {
			continue;
		}
		patch[key] = after;
	}
	if (Object.keys(patch).length === 0 && !appendedProgress) {
		return undefined;
	}
	return { patch: patch as ToolCallPatch, ...(appendedProgress ? { appendedProgress } : {}) };
}
