import type { WebviewToHost } from '../../shared/protocol';
import type { SessionView } from '../../shared/views';

import { postToHost, vscodeApi as api } from './hostHandle';

/** The chat's commands to the host. */
export const post: (message: WebviewToHost) => void = postToHost;

/** A repaint cache only; the host's snapshot is the truth. */
export function cachedView(): SessionView | undefined {
	const view = (api.getState() as { view?: SessionView } | undefined)?.view;
	return view && Array.isArray(view.items) ? view : undefined;
}

/** What a repaint needs: the header and the last screenful of items. */
const CACHED_ITEMS = 20;
let pending: (() => SessionView) | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Stores at most once a second: serialising on every delta would cost more than the repaint saves. */
export function cacheView(read: () => SessionView): void {
	pending = read;
	timer ??= setTimeout(() => {
		timer = undefined;
		const view = pending?.();
		pending = undefined;
		if (view) {
			api.setState({
				view: {
					...view,
					items: view.items.slice(-CACHED_ITEMS),
					olderCount: view.olderCount + Math.max(0, view.items.length - CACHED_ITEMS),
				},
			});
		}
	}, 1000);
}
