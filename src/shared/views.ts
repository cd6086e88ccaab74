import * as z from 'zod';

/**
 * The view state: what the webview draws, projected by the host (src/host/view). A tool
 * call is the agent's own `ToolCallState`, less what the webview has no use for: a write's
 * before/after contents stay in the host ("Open diff" asks for them by id).
 */
export const ToolCallStatus = z.enum([
	'streaming',
	'awaitingApproval',
	'running',
	'succeeded',
	'failed',
	'denied',
	'cancelled',
	'interrupted',
]);

/** A write's change as the card shows it: the unified text capped, with its line counts. */
export const DiffPreview = z.object({
	path: z.string(),
	unified: z.string(),
	added: z.number().int().nonnegative(),
	removed: z.number().int().nonnegative(),
	/** Lines left out of `unified`; "Open diff" shows the whole change. */
	omittedLines: z.number().int().nonnegative().optional(),
	/** The change was too large to diff on the card: what to say instead ("diff too large to show: …"). */
	notice: z.string().optional(),
});

export type DiffPreview = z.infer<typeof DiffPreview>;
export type ToolCallView = z.infer<typeof ToolCallViewSchema>;

export const ToolCallViewSchema = z.object({
	id: z.string(),
	name: z.string(),
	title: z.string(),
	argumentsText: z.string(),
	status: ToolCallStatus,
	effect: z.enum(['read', 'write', 'exec', 'network']).optional(),
	output: z.string().optional(),
	progress: z.string().optional(),
	diffs: z.array(DiffPreview).optional(),
	policyReason: z.string().optional(),
	caution: z.object({ text: z.string(), setting: z.string().optional() }).optional(),
	suggestedRule: z.object({ tool: z.string(), match: z.string().optional(), action: z.literal('allow') }).optional(),
	filtered: z.object({ from: z.number(), to: z.number() }).optional(),
	redactions: z.number().optional(),
	filterConfidence: z.enum(['full', 'partial', 'fallback']).optional(),
	filterRule: z.string().optional(),
	/** Opaque reference of the unfiltered output; "Show unfiltered" asks the host for it by card id. */
	rawOutputRef: z.string().optional(),
	cached: z.boolean().optional(),
	errorCategory: z.string().optional(),
});

/**
 * A button on a notice or on the error banner: a way out of where the chat stopped. The host
 * decides which are offered; the webview sends back the action (`runAction`), which the host
 * checks again before doing it.
 */
export const ActionView = z.object({
	action: z.enum(['retryTurn', 'selectModel', 'setApiKey', 'manageTrust', 'openSetting', 'undoRewind']),
	label: z.string(),
	/** openSetting: the `keel.*` setting to show. */
	setting: z.string().optional(),
});

export const ChatItem = z.discriminatedUnion('kind', [
	/** `images` and `attachments`: what was attached (name, size), not the content: the chat stays small. */
	z.object({
		kind: z.literal('user'),
		id: z.string(),
		/** What the user typed; the files, selection or output Keel attached to it are `attachments`. */
		text: z.string(),
		images: z.array(z.object({ name: z.string(), bytes: z.number() })).optional(),
		attachments: z.array(z.object({ kind: z.string(), label: z.string(), detail: z.string() })).optional(),
	}),
	z.object({
		kind: z.literal('assistant'),
		id: z.string(),
		text: z.string(),
		streaming: z.boolean(),
		/** Text of a failed attempt that was retried, or a call written as text that was run: shown folded, never twice. */
		retracted: z.enum(['retry', 'recovered']).optional(),
		/** The user stopped the turn while or after this was written: it may be cut short. */
		stopped: z.boolean().optional(),
	}),
	/** The model's reasoning, folded; never part of the answer. */
	z.object({ kind: z.literal('thinking'), id: z.string(), text: z.string(), streaming: z.boolean() }),
	z.object({ kind: z.literal('tool'), id: z.string(), call: ToolCallViewSchema }),
	z.object({
		kind: z.literal('notice'),
		id: z.string(),
		level: z.enum(['info', 'warning', 'error']),
		code: z.string(),
		text: z.string(),
		actions: z.array(ActionView).optional(),
	}),
	/** The step cap asks whether the turn goes on. */
	z.object({
		kind: z.literal('continue'),
		id: z.string(),
		text: z.string(),
		state: z.enum(['pending', 'continued', 'stopped']),
	}),
]);

export const ErrorView = z.object({ code: z.string(), message: z.string(), actions: z.array(ActionView).optional() });

/** The context meter: the last request's tokens against the window, and the turn's totals. */
export const UsageView = z.object({
	contextTokens: z.number().nonnegative(),
	contextWindow: z.number().nonnegative(),
	estimated: z.boolean(),
	turnRequests: z.number().int().nonnegative(),
	turnTokens: z.number().nonnegative(),
	/** The last request's prompt tokens the server took from its cache, where it says. */
	cachedTokens: z.number().nonnegative().optional(),
	/** The last request's prompt tokens the server read anew (prefilled), where it says. */
	prefilledTokens: z.number().nonnegative().optional(),
	/** The last request's time to first token, in milliseconds. */
	ttftMs: z.number().nonnegative().optional(),
	/** Why the window is not keel.model.contextWindow: what the server runs, and where that was read. */
	windowNote: z.string().optional(),
});

/**
 * A request waiting for its first token while the server reads the prompt: the server's own
 * counts where it sends them (llama.cpp), else only the time. `elapsedMs` was true when sent;
 * the chat adds the time since.
 */
export const WaitingView = z.object({
	elapsedMs: z.number().nonnegative(),
	/** Prompt tokens in all, of them taken from the server's cache, and processed so far (the cached included). */
	total: z.number().nonnegative().optional(),
	cached: z.number().nonnegative().optional(),
	processed: z.number().nonnegative().optional(),
});

export const SessionView = z.object({
	sessionId: z.string(),
	busy: z.boolean(),
	/** The newest page of the conversation; older items come on request (`loadOlder`). */
	items: z.array(ChatItem),
	/** How many items come before `items`. */
	olderCount: z.number().int().nonnegative().default(0),
	error: ErrorView.optional(),
	modelLabel: z.string(),
	/** Where requests go (the base URL), named in the empty state. */
	endpoint: z.string().optional(),
	/** The workspace is not trusted (Restricted Mode): only read tools run; the empty chat says so. */
	restricted: z.boolean().optional(),
	usage: UsageView.optional(),
	/** The running request has not had its first token yet. */
	waiting: WaitingView.optional(),
});

export type ToolCallStatus = z.infer<typeof ToolCallStatus>;
export type ChatItem = z.infer<typeof ChatItem>;
export type ActionView = z.infer<typeof ActionView>;
export type ErrorView = z.infer<typeof ErrorView>;
export type UsageView = z.infer<typeof UsageView>;
export type WaitingView = z.infer<typeof WaitingView>;
export type SessionView = z.infer<typeof SessionView>;
