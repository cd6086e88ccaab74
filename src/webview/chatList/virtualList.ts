import type { VirtualItem, VirtualizerOptions } from '@tanstack/virtual-core';
import type { Row } from './rows';

type Key = VirtualItem['key'];

/** The height kept free above the first row for "Show N earlier items" while older items remain. */
export const OLDER_BAR_PX = 32;
/** A row's height before it is measured. */
export const ESTIMATED_ROW_PX = 120;

type ListOptions = Pick<
	VirtualizerOptions<never, never>,
	'count' | 'estimateSize' | 'getItemKey' | 'overscan' | 'paddingStart' | 'anchorTo'
>;

/**
 * How the conversation's rows are laid out, apart from the DOM. Rows are keyed by their first
 * item, and the list anchors at its end: whenever the rows change, the virtualiser finds the row
 * at the top of the view before the change and sets the scroll offset so that row keeps its place
 * after it, before anything renders. A page of older items inserted above (whatever its size, and
 * however far its rows' estimated heights are from their real ones) so leaves the view where the
 * user was reading; each older row then corrects its estimate when it is first measured, while it
 * is still above the view.
 */
export function listOptions(rows: readonly Row[], paddingStart: number): ListOptions {
	return {
		count: rows.length,
		estimateSize: () => ESTIMATED_ROW_PX,
		getItemKey: index => rows[index]?.key ?? index,
		overscan: 4,
		paddingStart,
		anchorTo: 'end',
	};
}

/** The parts of the virtualiser `keepsSeenRowsInPlace` reads. */
export interface ListState {
	scrollOffset: number | null;
	scrollRect: { height: number } | null;
	itemSizeCache: Map<Key, number>;
	getVirtualItems(): readonly { index: number; key: Key; start: number }[];
}

/**
 * Whether the view follows a row's change of height (scrolls by it), so that the rows below it
 * stay where they are on screen. Followed: a row above the view (measured for the first time, its
 * estimate replaced, when it starts above; measured again, when all of it is above), and a row
 * the view has just brought in above a row the user has already seen, whatever the scroll's
 * direction: scrolling up by more than the rows rendered around the view brings rows in at its
 * top, and their real heights must grow or shrink away from what the user was reading, not push
 * it. Not followed: a row already on screen that changes (a card opened, an answer streaming)
 * grows downwards, as a reader expects.
 */
export function keepsSeenRowsInPlace(
	item: { index: number; key: Key; start: number; end: number },
	list: ListState,
	justShown: boolean,
): boolean {
	const offset = list.scrollOffset ?? 0;
	const firstMeasure = !list.itemSizeCache.has(item.key);
	if (firstMeasure ? item.start < offset : item.end <= offset) {
		return true;
	}
	if (!firstMeasure && !justShown) {
		return false;
	}
	const viewEnd = offset + (list.scrollRect?.height ?? 0);
	return list
		.getVirtualItems()
		.some(other => other.index > item.index && other.start < viewEnd && list.itemSizeCache.has(other.key));
}
