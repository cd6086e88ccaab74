/**
 * Every notice a turn or the host can show, by code. The chat draws each inline; the notifier
 * (notifier.ts) and the retry progress (retryProgress.ts) decide from this list which also
 * become a VS Code notification, and which a progress notification with Cancel.
 */
export const NOTICE_CODES = [
	// Recovery of one model request (recovery.ts).
	'transportRetry',
	'streamRetry',
	'reflection',
	'recoveredFromError',
	'reasoningDropped',
	'contextOverflow',
	'outputBudget',
	'toolSchema',
	'forcedCall',
	// What the server said about itself (serverWindow.ts).
	'serverWindow',
	// The loop and its guards (runAgent.ts, turnGuards.ts, responseReview.ts).
	'repair',
	'truncatedCall',
	'truncated',
	'textMode',
	'toolsOffered',
	'toolBudget',
	'contextBudget',
	'compacted',
	'loopWarning',
	'loopStopped',
	'stepLimit',
	'reask',
	'noAnswer',
	'degenerate',
	'stopReason',
	// Tool calls (toolExecution.ts).
	'toolBlocked',
	'toolRetry',
	'ruleAdded',
	'ruleNotSaved',
	// From the host: rules, modes, mentions, checkpoints, slash commands.
	'rules',
	'mode',
	'mention',
	'turnChanges',
	'checkpointFailed',
	'restore',
	'command',
	'everyday',
	'images',
	'untrusted',
	'sandbox',
	'rewound',
	'mcp',
	'waiting',
] as const;

/** `command-<name>`: what a slash command reported (`/new`, `/mode` …). */
export type NoticeCode = (typeof NOTICE_CODES)[number] | `command-${string}`;

/** Retries the user may wait on: a progress notification with Cancel, never a plain one. */
export const RETRY_NOTICE_CODES: ReadonlySet<NoticeCode> = new Set<NoticeCode>([
	'transportRetry',
	'streamRetry',
	'reflection',
]);
