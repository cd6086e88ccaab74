import {
	Virtualizer,
	elementScroll,
	measureElement,
	observeElementOffset,
	observeElementRect,
	type VirtualizerOptions,
} from '@tanstack/virtual-core';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CardGroup, ChatItemView } from './chatItems';
import { buildRows, type Row } from './rows';
import { OLDER_BAR_PX, keepsSeenRowsInPlace, listOptions } from './virtualList';
import type { ChatStore } from '../state/store';
import { post } from '../state/vscodeApi';

/** Closer than this to the end counts as "at the bottom". */
const BOTTOM_SLACK_PX = 40;
/** Scrolling within this distance of the top asks the host for the page before. */
const LOAD_OLDER_PX = 400;
/** How long after a wheel, key or pointer a scroll counts as the user's own. */
const USER_SCROLL_MS = 1000;
/** A row whose node appeared this recently is one the view has just brought in, not one that changed on screen. */
const JUST_SHOWN_MS = 500;

/**
 * The conversation as a virtualised list: only the rows near the viewport are in the DOM,
 * measured as they render. It follows new output only while the user is at the bottom; once
 * they scroll up it stays put and offers "Jump to latest".
 */
export function ChatList({ store, structure }: { store: ChatStore; structure: number; version: number }) {
	const scrollRef = useRef<HTMLDivElement>(null);
	const rows = useMemo(() => buildRows(store.items), [structure]);
	const [, setTick] = useState(0);
	const rerender = useCallback(() => setTick(tick => tick + 1), []);
	const older = store.olderCount > 0;
	const virtualizer = useVirtualizer(rows, older ? OLDER_BAR_PX : 0, () => scrollRef.current, rerender);
	const scroll = useStickToBottom(scrollRef, virtualizer, rows, store);
	const items = virtualizer.getVirtualItems();
	return (
		<div class="messages-frame">
			<div
				class="messages"
				ref={scrollRef}
				data-testid="messages"
				role="log"
				aria-live="polite"
				aria-relevant="additions"
				aria-label="Conversation"
				tabIndex={0}
				onScroll={scroll.onScroll}
				onWheel={scroll.onIntent}
				onPointerDown={scroll.onIntent}
				onKeyDown={scroll.onIntent}
			>
				<div class="virtual-space" style={{ height: `${virtualizer.getTotalSize()}px` }}>
					{older && <OlderBar store={store} />}
					<div class="virtual-window" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
						{items.map(entry => (
							<div
								key={entry.key}
								data-index={entry.index}
								data-key={entry.key}
								ref={virtualizer.measureElement}
								class="row"
							>
								<RowView row={rows[entry.index]} store={store} />
							</div>
						))}
					</div>
				</div>
			</div>
			{scroll.showJump && (
				<button
					class="jump-to-latest primary"
					data-testid="jump-to-latest"
					aria-label="Jump to latest message"
					onClick={scroll.jumpToLatest}
				>
					↓ Jump to latest
				</button>
			)}
		</div>
	);
}

/**
 * "Show N earlier items", in the space the list keeps free above its first row (its height is
 * fixed, so no measurement of it can move the rows below).
 */
function OlderBar({ store }: { store: ChatStore }) {
	const count = store.olderCount;
	return (
		<div class="older-bar" style={{ height: `${OLDER_BAR_PX}px`, overflow: 'hidden' }}>
			<button class="link load-older" data-testid="load-older" onClick={() => requestOlder(store)}>
				Show {count.toLocaleString()} earlier item{count === 1 ? '' : 's'}
			</button>
		</div>
	);
}

function RowView({ row, store }: { row: Row | undefined; store: ChatStore }) {
	if (!row) {
		return null;
	}
	const items = row.ids.flatMap(id => store.get(id) ?? []);
	if (row.groupLabel) {
		return <CardGroup groupKey={row.key} label={row.groupLabel} items={items} />;
	}
	return items[0] ? <ChatItemView item={items[0]} /> : null;
}

let olderRequestedFor: string | undefined;

/** Asks once per first item: the answer (didPrependItems) changes the first item. */
function requestOlder(store: ChatStore): void {
	const first = store.items[0]?.id;
	if (first && store.olderCount > 0 && olderRequestedFor !== first) {
		olderRequestedFor = first;
		post({ type: 'loadOlder', beforeId: first });
	}
}

function useVirtualizer(
	rows: Row[],
	paddingStart: number,
	scrollElement: () => HTMLDivElement | null,
	rerender: () => void,
): Virtualizer<HTMLDivElement, HTMLDivElement> {
	const options: VirtualizerOptions<HTMLDivElement, HTMLDivElement> = {
		...listOptions(rows, paddingStart),
		getScrollElement: scrollElement,
		scrollToFn: elementScroll,
		observeElementRect,
		observeElementOffset,
		measureElement,
		onChange: () => rerender(),
	};
	const [instance] = useState(() => {
		const created = new Virtualizer(options);
		// When each row's DOM node appeared: a row that has just come into view is told apart from one
		// that changes on screen (a card opened, an answer streaming).
		const shownAt = new WeakMap<Element, number>();
		const measure = created.measureElement;
		created.measureElement = node => {
			if (node && !shownAt.has(node)) {
				shownAt.set(node, performance.now());
			}
			measure(node);
		};
		created.shouldAdjustScrollPositionOnItemSizeChange = item => {
			const node = created.elementsCache.get(item.key);
			const shown = node ? shownAt.get(node) : undefined;
			return keepsSeenRowsInPlace(
				item,
				created,
				shown !== undefined && performance.now() - shown < JUST_SHOWN_MS,
			);
		};
		return created;
	});
	instance.setOptions(options);
	useLayoutEffect(() => instance._didMount(), []);
	useLayoutEffect(() => instance._willUpdate());
	return instance;
}

function useStickToBottom(
	scrollRef: { current: HTMLDivElement | null },
	virtualizer: Virtualizer<HTMLDivElement, HTMLDivElement>,
	rows: Row[],
	store: ChatStore,
) {
	const sticky = useRef(true);
	const intentAt = useRef(0);
	const [showJump, setShowJump] = useState(false);
	const last = useRef<{ firstKey?: string; count: number; total: number }>({ count: 0, total: 0 });

	// Older items arriving above keep the row the user was reading in place: the virtualiser does
	// that itself as the rows change (listOptions), before it renders them, so nothing here may
	// move the view then.
	useLayoutEffect(() => {
		const element = scrollRef.current;
		if (!element) {
			return;
		}
		const firstKey = rows[0]?.key;
		const previous = last.current;
		const total = virtualizer.getTotalSize();
		// Only when the list grew or moved: reading scrollHeight lays the page out, and a streamed
		// token that did not change a row's height must not pay for a layout.
		const changed = total !== previous.total || rows.length !== previous.count || firstKey !== previous.firstKey;
		last.current = { firstKey, count: rows.length, total };
		if (sticky.current && changed) {
			element.scrollTop = element.scrollHeight;
		}
	});

	// A new conversation, or a prompt the user just sent, starts following again.
	const lastUser = lastUserId(store);
	useEffect(() => {
		sticky.current = true;
		setShowJump(false);
	}, [store.header?.sessionId, lastUser]);

	return {
		showJump,
		onIntent: (event: Event) => {
			if (
				event.type !== 'keydown' ||
				['PageUp', 'ArrowUp', 'Home', 'PageDown', 'ArrowDown', 'End'].includes((event as KeyboardEvent).key)
			) {
				intentAt.current = performance.now();
			}
		},
		onScroll: () => {
			const element = scrollRef.current;
			if (!element) {
				return;
			}
			const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
			if (distance <= BOTTOM_SLACK_PX) {
				sticky.current = true;
				setShowJump(false);
			} else if (performance.now() - intentAt.current < USER_SCROLL_MS) {
				sticky.current = false;
				setShowJump(true);
			}
			if (element.scrollTop < LOAD_OLDER_PX && !sticky.current) {
				requestOlder(store);
			}
		},
		jumpToLatest: () => {
			sticky.current = true;
			setShowJump(false);
			const element = scrollRef.current;
			if (element) {
				element.scrollTop = element.scrollHeight;
			}
			virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
		},
	};
}

function lastUserId(store: ChatStore): string | undefined {
	for (let i = store.items.length - 1; i >= 0; i--) {
		if (store.items[i].kind === 'user') {
			return store.items[i].id;
		}
	}
	return undefined;
}
