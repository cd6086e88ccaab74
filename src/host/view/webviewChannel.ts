import { PROTOCOL_VERSION, type HostToWebview, type HostUpdate, type ProtocolRefusal } from '../../shared/protocol';

type Snapshot = HostUpdate & { type: 'didSnapshot' };

/** Shown by the webview when its protocol differs from the host's; its button reloads the window. */
export const PROTOCOL_REFUSAL_TEXT = 'Keel was updated: reload the window.';

/**
 * Outbound side of the protocol: stamps monotonic versions, sends nothing until the webview
 * said `ready` (the only thing that opens it), and coalesces to about 30 Hz so a fast model
 * does not flood the webview with one message per token: appended text and output join,
 * patches of one card merge, a newer usage replaces the older.
 */
export class WebviewChannel {
	private _version = 0;
	/** Where messages go; set only by `open`, i.e. by the webview's `ready`. */
	private _post: ((message: HostToWebview) => void) | undefined;
	private _refused = false;
	private _queue: HostUpdate[] = [];
	private _timer: ReturnType<typeof setTimeout> | undefined;
	private readonly _resetListeners = new Set<() => void>();

	constructor(private readonly _intervalMs = 33) {}

	get version(): number {
		return this._version;
	}

	/** The webview said `ready` and is listening. */
	get isOpen(): boolean {
		return this._post !== undefined;
	}

	/** True after a `ready` of another protocol version, until a matching one: a reload may be asked for. */
	get refused(): boolean {
		return this._refused;
	}

	/**
	 * The webview said `ready`. With the host's protocol version the channel opens and a snapshot
	 * replaces anything queued; with another, the webview is told to reload and the channel stays
	 * closed, because neither side could read the other's messages reliably.
	 */
	open(
		post: (message: HostToWebview | ProtocolRefusal) => void,
		protocolVersion: number,
		snapshot: () => Snapshot,
		followUpLater?: (followUp: () => void) => void,
	): boolean {
		this.close();
		if (protocolVersion !== PROTOCOL_VERSION) {
			this._refused = true;
			post({ type: 'didRefuseProtocol', hostVersion: PROTOCOL_VERSION, message: PROTOCOL_REFUSAL_TEXT });
			return false;
		}
		this._refused = false;
		this._post = post;
		this.reset(snapshot(), followUpLater);
		return true;
	}

	/**
	 * A new chat, a resumed or rewound one: the queue is stale, the snapshot replaces it. Nothing
	 * while closed: the next `ready` gets one. `followUpLater` runs what follows the snapshot when
	 * it chooses (after the snapshot has left), instead of at once.
	 */
	reset(snapshot: Snapshot, followUpLater?: (followUp: () => void) => void): void {
		if (!this._post) {
			return;
		}
		this._queue = [];
		this._send(snapshot);
		// State kept beside the snapshot (the mode, the per-turn controls) follows it.
		const followUp = () => this._resetListeners.forEach(listener => listener());
		if (followUpLater) {
			followUpLater(followUp);
		} else {
			followUp();
		}
	}

	/** Called after every snapshot: a new webview, a new chat, a resumed or rewound one. */
	onDidReset(listener: () => void): { dispose(): void } {
		this._resetListeners.add(listener);
		return { dispose: () => void this._resetListeners.delete(listener) };
	}

	/** The webview went away: nothing is sent until it says `ready` again. */
	close(): void {
		this._post = undefined;
		this._queue = [];
		if (this._timer) {
			clearTimeout(this._timer);
			this._timer = undefined;
		}
	}

	push(update: HostUpdate): void {
		if (!this._post) {
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
		this._post?.({ ...update, version: ++this._version } as HostToWebview);
	}
}

/** Folds `update` into the queued `last` when it only extends it; false when it must follow it. */
function coalesce(last: HostUpdate | undefined, update: HostUpdate): boolean {
	if (!last) {
		return false;
	}
	if (
		(update.type === 'didAppendText' || update.type === 'didAppendOutput') &&
		last.type === update.type &&
		last.itemId === update.itemId
	) {
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
