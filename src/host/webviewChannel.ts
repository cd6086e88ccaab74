import type { HostToWebview, HostUpdate } from '../shared/protocol';

/**
 * Outbound side of the protocol: stamps monotonic versions, holds everything until the
 * webview said `ready`, and coalesces to about 30 Hz so a fast model does not flood the
 * webview with one message per token: appended text and output join, patches of one card
 * merge, a newer usage replaces the older.
 */
export class WebviewChannel {
	private _version = 0;
	private _ready = false;
	private _queue: HostUpdate[] = [];
	private _timer: ReturnType<typeof setTimeout> | undefined;
	private readonly _resetListeners = new Set<() => void>();

	constructor(
		private readonly _post: (message: HostToWebview) => void,
		private readonly _intervalMs = 33,
	) {}

	get version(): number {
		return this._version;
	}

	/** The webview (re)loaded: the queue is stale, the snapshot replaces it. */
	resetWithSnapshot(snapshot: HostUpdate & { type: 'didSnapshot' }): void {
		this._queue = [];
		this._ready = true;
		this._send(snapshot);
		// State kept beside the snapshot (the mode, the per-turn controls) follows it.
		this._resetListeners.forEach(listener => listener());
	}

	/** Called after every snapshot: a new webview, a new chat, a resumed or rewound one. */
	onDidReset(listener: () => void): { dispose(): void } {
		this._resetListeners.add(listener);
		return { dispose: () => void this._resetListeners.delete(listener) };
	}

	detach(): void {
		this._ready = false;
		this._queue = [];
		if (this._timer) {
			clearTimeout(this._timer);
			this._timer = undefined;
		}
	}

	push(update: HostUpdate): void {
		if (!this._ready) {
			// The next `ready` gets a full snapshot, which already contains this change.
			return;
		}
		if (!coalesce(this._queue[this._queue.length - 1], update)) {
			// A copy: coalescing later appends to the queued message, never to the caller's object.
			this._queue.push({ ...update } as HostUpdate);
		}
		this._timer ??= setTimeout(() => this.flush(), this._intervalMs);
	}

	flush(): void {
		if (this._timer) {
			clearTimeout(this._timer);
			this._timer = undefined;
		}
		const queue = this._queue;
		this._queue = [];
		for (const update of queue) {
			this._send(update);
		}
	}

	private _send(update: HostUpdate): void {
		this._post({ ...update, version: ++this._version } as HostToWebview);
	}
}

/** Folds `update` into the queued `last` when it only extends it; false when it must follow it. */
function coalesce(last: HostUpdate | undefined, update: HostUpdate): boolean {
	if (!last) {
		return false;
	}
	if ((update.type === 'didAppendText' || update.type === 'didAppendOutput') && last.type === update.type && last.itemId === update.itemId) {
		last.text += update.text;
		return true;
	}
	if (update.type === 'didPatchTool' && last.type === 'didPatchTool' && last.itemId === update.itemId) {
		last.patch = { ...last.patch, ...update.patch };
		return true;
	}
	if (update.type === 'didSetUsage' && last.type === 'didSetUsage') {
		last.usage = update.usage;
		return true;
	}
	return false;
}
