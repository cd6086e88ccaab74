import * as z from 'zod';
import { ActionView, ChatItem, ErrorView, SessionView, ToolCallViewSchema, UsageView, WaitingView } from './views';

/**
 * The one host ⇄ webview protocol. Webview → host are commands; host → webview are `did*`
 * notifications with a monotonic version. Both ends validate and drop what fails.
 * Messages are sized to the change: a status, an appended chunk, a page of items on request;
 * nothing the webview receives grows with the session's length unless it asked.
 */
export const PROTOCOL_VERSION = 2;

const MAX_PROMPT = 100_000;
/** 4 MB of image as base64, with room for the rounding: the host gives the precise refusal. */
const MAX_IMAGE_BASE64 = 5_600_000;
const id = z.string().min(1).max(200);

export const WebviewToHost = z.discriminatedUnion('type', [
	z.object({ type: z.literal('ready'), protocolVersion: z.number().int() }).strict(),
	z.object({ type: z.literal('sendPrompt'), text: z.string().trim().min(1).max(MAX_PROMPT) }).strict(),
	z
		.object({
			type: z.literal('decideToolCall'),
			toolCallId: id,
			approved: z.boolean(),
			reason: z.string().max(2000).optional(),
			/** "Always allow": approve and save the card's suggested rule to the workspace settings. */
			always: z.boolean().optional(),
		})
		.strict(),
	/** Opens a pending or finished write's diff in VS Code's diff editor; the host looks the diff up by id. */
	z
		.object({ type: z.literal('openDiff'), toolCallId: id, index: z.number().int().min(0).max(100).optional() })
		.strict(),
	z.object({ type: z.literal('cancelTurn') }).strict(),
	z.object({ type: z.literal('decideContinue'), id, proceed: z.boolean() }).strict(),
	z.object({ type: z.literal('newSession') }).strict(),
	// The chat painted the snapshot it was sent: the host may now do what would have held it up.
	z.object({ type: z.literal('drawn') }).strict(),
	/** The user scrolled to the top of what is loaded: the page before `beforeId`. */
	z.object({ type: z.literal('loadOlder'), beforeId: id }).strict(),
	/** Copy buttons: the host writes VS Code's clipboard (the webview's may be denied). */
	z.object({ type: z.literal('copyText'), text: z.string().max(1_000_000) }).strict(),
	/** "Insert at cursor" on a code block: into the active editor, replacing its selection. */
	z.object({ type: z.literal('insertText'), text: z.string().max(1_000_000) }).strict(),
	/** "Show unfiltered": a page of a card's stored raw output; the host finds the reference by card id. */
	z
		.object({
			type: z.literal('readRawOutput'),
			toolCallId: id,
			offset: z.number().int().min(0).max(1_000_000_000).default(0),
		})
		.strict(),
	/** The composer's send: slash commands, prompt files and @-mentions are resolved by the host. */
	z
		.object({
			type: z.literal('submit'),
			text: z.string().trim().min(1).max(MAX_PROMPT),
			/** Pasted or dropped images, base64; the host checks format and size (imageParts.ts) and whether the model takes images. */
			images: z
				.array(z.object({ name: z.string().max(200), data: z.string().max(MAX_IMAGE_BASE64) }).strict())
				.max(4)
				.optional(),
		})
		.strict(),
	/** The composer's completion list: `/` commands or `@` mentions matching `query`; answered by `didComplete`. */
	z
		.object({
			type: z.literal('complete'),
			requestId: z.number().int().nonnegative(),
			kind: z.enum(['slash', 'mention']),
			query: z.string().max(500),
		})
		.strict(),
	z.object({ type: z.literal('setMode'), name: z.string().min(1).max(200) }).strict(),
	/** Per-turn controls: "N files changed" (diff), "Restore files to here", "Rewind the conversation to here". */
	z.object({ type: z.literal('openTurnChanges'), turnId: id }).strict(),
	z.object({ type: z.literal('restoreCheckpoint'), turnId: id }).strict(),
	z.object({ type: z.literal('undoRestore') }).strict(),
	z.object({ type: z.literal('rewindTo'), turnId: id }).strict(),
	/** A mention chip's token cost: the host resolves `@value` as sending would; answered by `didMeasureMention`. */
	z.object({ type: z.literal('measureMention'), value: z.string().min(1).max(2000) }).strict(),
	/** The in-chat card asking to start a workspace's MCP server: Allow (remembered) or Deny. */
	z.object({ type: z.literal('decideMcpConsent'), id, allow: z.boolean() }).strict(),
	/** Files or folders dropped from the Explorer (a uri-list): answered by `didAddMentions`. */
	z.object({ type: z.literal('dropUris'), uris: z.array(z.string().min(1).max(4000)).min(1).max(50) }).strict(),
	/** A notice's or the error banner's button (ActionView); the host checks it is one it offered. */
	z
		.object({
			type: z.literal('runAction'),
			action: ActionView.shape.action,
			setting: z
				.string()
				.regex(/^keel\.[\w.]+$/)
				.max(200)
				.optional(),
		})
		.strict(),
	/** The button of the protocol refusal: the host reloads the window (honoured only after a refusal). */
	z.object({ type: z.literal('reloadWindow') }).strict(),
	/** The empty chat's "Check this model" button: runs Keel: Check Model. */
	z.object({ type: z.literal('checkModel') }).strict(),
]);

/** A user turn's controls: which chat item shows them, and how many files the turn changed (none: no checkpoint). */
export const TurnControl = z.object({
	itemId: z.string(),
	turnId: z.string(),
	filesChanged: z.number().int().nonnegative().optional(),
	/** Files were restored to this turn (and not undone since): "Undo restore" shows on it. */
	undoRestore: z.boolean().optional(),
});
export const ModeView = z.object({ id: z.string(), name: z.string(), description: z.string().optional() });
/** A workspace MCP server waiting for the user's permission to start or to offer changed tools (or the answer just given). */
export const McpConsentView = z.object({
	id: z.string(),
	server: z.string(),
	/** Where it is configured, e.g. `.vscode/mcp.json`. */
	source: z.string(),
	/** What starting it does: the command line, or the URL it connects to (or, for `tools`, what changed). */
	runs: z.string(),
	/** The rest of the launch plan: the program's real path, folder, env, envFile, your variables it reads. */
	details: z.array(z.string()).optional(),
	/** `tools`: the server changed tool definitions since it was allowed; Allow offers them. */
	kind: z.literal('tools').optional(),
	state: z.enum(['pending', 'allowed', 'denied']),
});
export const CompletionView = z.object({
	value: z.string(),
	label: z.string(),
	description: z.string().optional(),
	kind: z.string().optional(),
});

const versioned = { version: z.number().int().nonnegative() };

/** The fields of a tool card that changed, e.g. only `status`. */
const ToolCallPatch = ToolCallViewSchema.omit({ id: true }).partial();

export const HostToWebview = z.discriminatedUnion('type', [
	z.object({ type: z.literal('didSnapshot'), ...versioned, state: SessionView }),
	/** A new item, or one whose shape changed (rare: a retracted answer, a decided continue). */
	z.object({ type: z.literal('didUpsertItem'), ...versioned, item: ChatItem }),
	/** Streamed text appended to an assistant answer or a thinking block. */
	z.object({ type: z.literal('didAppendText'), ...versioned, itemId: z.string(), text: z.string() }),
	/** A streaming answer or thinking block is complete. */
	z.object({ type: z.literal('didFinishText'), ...versioned, itemId: z.string() }),
	z.object({ type: z.literal('didPatchTool'), ...versioned, itemId: z.string(), patch: ToolCallPatch }),
	/** Live output of a running tool, appended to its progress. */
	z.object({ type: z.literal('didAppendOutput'), ...versioned, itemId: z.string(), text: z.string() }),
	/** The answer to `loadOlder`: the page before the first loaded item. */
	z.object({
		type: z.literal('didPrependItems'),
		...versioned,
		items: z.array(ChatItem),
		olderCount: z.number().int().nonnegative(),
	}),
	z.object({ type: z.literal('didSetStatus'), ...versioned, busy: z.boolean(), error: ErrorView.optional() }),
	z.object({ type: z.literal('didSetUsage'), ...versioned, usage: UsageView }),
	/** The running request waits for its first token (the server reads the prompt); absent: it ended. */
	z.object({ type: z.literal('didSetWaiting'), ...versioned, waiting: WaitingView.optional() }),
	z.object({ type: z.literal('didSetModel'), ...versioned, modelLabel: z.string(), endpoint: z.string().optional() }),
	/** The answer to `readRawOutput`: one page of the unfiltered text, or why there is none. */
	z.object({
		type: z.literal('didRawOutput'),
		...versioned,
		toolCallId: z.string(),
		offset: z.number().int().nonnegative(),
		text: z.string(),
		/** Characters in the whole stored output. */
		total: z.number().int().nonnegative(),
		/** Where the next page starts; absent on the last page. */
		nextOffset: z.number().int().nonnegative().optional(),
		error: z.string().optional(),
	}),
	/** The session's mode and the modes to switch to (the composer's mode control). */
	z.object({ type: z.literal('didSetMode'), ...versioned, mode: ModeView, modes: z.array(ModeView) }),
	/** The per-turn controls of the loaded conversation, replacing the previous list. */
	z.object({ type: z.literal('didSetTurns'), ...versioned, turns: z.array(TurnControl) }),
	/** The answer to `complete`; a reply to an older request is ignored by the webview. */
	z.object({
		type: z.literal('didComplete'),
		...versioned,
		requestId: z.number().int(),
		items: z.array(CompletionView),
	}),
	/** Puts text in the composer for editing (a rewound turn's prompt). */
	/** Text (and images) back into the composer: a rewound turn's prompt, or a send the host refused. */
	z.object({
		type: z.literal('didFillComposer'),
		...versioned,
		text: z.string(),
		images: z.array(z.object({ name: z.string(), data: z.string() })).optional(),
	}),
	/** Mentions to add to the composer's text (a drop from the Explorer). */
	z.object({ type: z.literal('didAddMentions'), ...versioned, values: z.array(z.string()) }),
	z.object({
		type: z.literal('didMeasureMention'),
		...versioned,
		value: z.string(),
		label: z.string(),
		tokens: z.number().nonnegative(),
		error: z.string().optional(),
	}),
	/** Workspace Trust changed (the folder was trusted): the empty state follows. */
	z.object({ type: z.literal('didSetRestricted'), ...versioned, restricted: z.boolean() }),
	/** Put the caret in the composer (Keel: Focus Chat, its keybinding). */
	z.object({ type: z.literal('didFocusComposer'), ...versioned }),
	/** The MCP consent cards, replacing the previous list. */
	z.object({ type: z.literal('didSetMcpConsents'), ...versioned, consents: z.array(McpConsentView) }),
]);

/**
 * The host's answer to a `ready` whose protocol version differs from its own (the extension was
 * updated under a live webview): the channel stays closed and the webview shows `message` with a
 * button that asks for `reloadWindow`. Outside the versioned stream, so no version check drops it.
 */
export const ProtocolRefusal = z.object({
	type: z.literal('didRefuseProtocol'),
	hostVersion: z.number().int(),
	message: z.string(),
});

export type WebviewToHost = z.infer<typeof WebviewToHost>;
export type ProtocolRefusal = z.infer<typeof ProtocolRefusal>;
export type HostToWebview = z.infer<typeof HostToWebview>;
export type ToolCallPatch = z.infer<typeof ToolCallPatch>;
export type TurnControl = z.infer<typeof TurnControl>;
export type ModeView = z.infer<typeof ModeView>;
export type CompletionView = z.infer<typeof CompletionView>;
export type McpConsentView = z.infer<typeof McpConsentView>;

/** A notification before the host stamps its version. */
export type HostUpdate = HostToWebview extends infer M
	? M extends { version: number }
		? Omit<M, 'version'>
		: never
	: never;

export function parseWebviewMessage(raw: unknown): WebviewToHost | undefined {
	const result = WebviewToHost.safeParse(raw);
	return result.success ? result.data : undefined;
}

export function parseProtocolRefusal(raw: unknown): ProtocolRefusal | undefined {
	const result = ProtocolRefusal.safeParse(raw);
	return result.success ? result.data : undefined;
}

export function parseHostMessage(raw: unknown): HostToWebview | undefined {
	const result = HostToWebview.safeParse(raw);
	return result.success ? result.data : undefined;
}
