import type * as vscode from 'vscode';
import type { AgentEvent } from '../../core/agent/events';
import type { TurnOutcome } from '../../core/agent/loop/runAgent';
import type { RestoreOutcome } from '../../core/checkpoints/checkpoints';
import type { ChangedFile } from '../../core/checkpoints/checkpointStore';
import type { CanonicalMessage } from '../../core/llm/canonical';
import type { Attachment, MentionKind } from '../../core/mentions/mentions';
import type { CommandInfo } from '../../core/prompts/slashCommands';
import type { SessionView } from '../../shared/views';

/**
 * What activate() returns: lets tests and other extensions drive a turn, the composer, the
 * checkpoints and the history, and read the result. Declared here only; the features implement
 * their parts (keelHost.ts puts them together) and the activation shim forwards every method by
 * name (KEEL_API_METHODS), so this module must stay free of runtime imports beyond the name list.
 */
export interface KeelApi {
	// The conversation (session/).
	runTurn(prompt: string): Promise<TurnOutcome>;
	/** `always`: approve and save the card's suggested rule ("Always allow"). */
	decideToolCall(toolCallId: string, approved: boolean, reason?: string, always?: boolean): boolean;
	pendingApprovals(): string[];
	transcript(): CanonicalMessage[];
	view(): SessionView;
	newChat(): void;
	/** The current session's id in the history store; resumeSession switches to a stored one. */
	sessionId(): string;
	resumeSession(sessionId: string): boolean;
	onDidEvent(listener: (event: AgentEvent) => void): vscode.Disposable;
	searchHistory(query: string): Array<{ sessionId: string; title: string; snippet: string; updatedAt: number }>;
	renameSession(sessionId: string, title: string): void;
	deleteSession(sessionId: string): void;
	exportSession(sessionId: string, format: 'markdown' | 'json'): string;
	compact(): Promise<string>;
	/** Rewinds the conversation to before `turnId` (optionally its files too); returns that turn's prompt to edit and resend. */
	rewindTo(
		turnId: string,
		options?: { restoreFiles?: boolean; onConflict?: ConflictChoice },
	): Promise<{ prompt: string; restored?: RestoreOutcome }>;
	undoRewind(): boolean;

	// Tools (tools/, mcp/).
	/** Tools the anomaly guard blocked in the current chat; unblockTool(name) (or all) lets them be offered again. */
	blockedTools(): string[];
	unblockTool(name?: string): string[];
	/** MCP servers as Keel: MCP Servers shows them (state, error, offered tool names). */
	mcpServers(): Promise<Array<{ name: string; scope: string; status: string; error?: string; tools: string[] }>>;

	// Rules and modes (projectContext/).
	rules(): {
		applied: boolean;
		files: Array<{ path: string; tokens: number; scope: string }>;
		skipped: Array<{ path: string; tokens: number; reason: string }>;
	};
	reloadRules(): Promise<void>;
	draftAgentsMd(): Promise<TurnOutcome>;
	mode(): { id: string; name: string };
	modes(): Array<{ id: string; name: string; description: string }>;
	setMode(name: string): { id: string; name: string };
	/** Fires when the rules, the current chat's mode, or its checkpoints changed: the view refreshes what it shows. */
	onDidChangeState(listener: (what: 'rules' | 'mode' | 'checkpoints') => void): { dispose(): void };

	// Checkpoints (checkpoints/).
	turns(): Promise<TurnInfo[]>;
	/** A turn's changes as before/after documents; opens VS Code's multi-file diff unless `open` is false. */
	turnDiff(turnId: string, open?: boolean): Promise<TurnDiff>;
	restoreCheckpoint(turnId: string, onConflict?: ConflictChoice): Promise<RestoreOutcome>;
	undoRestore(onConflict?: ConflictChoice): Promise<RestoreOutcome>;

	// The composer (composer/).
	/**
	 * The composer's send: slash commands, prompt files, @-mentions, or a plain prompt; `images`
	 * (base64 PNG, JPEG, GIF or WebP) go with a prompt to a model that takes them, else it throws.
	 */
	submit(text: string, options?: { images?: Array<{ name: string; data: string }> }): Promise<SubmitResult>;
	slashCompletions(prefix: string): Promise<CommandInfo[]>;
	mentionCandidates(query: string): Promise<MentionCandidate[]>;
	resolveMentions(text: string): Promise<{ prompt: string; attachments: Attachment[] }>;
	/** Files and folders dropped from the Explorer → their mentions (workspace-relative), and what was refused and why. */
	mentionsForUris(uris: readonly string[]): Promise<{ values: string[]; refused: string[] }>;
}

/** Every method of KeelApi, so the activation shim can forward them without loading the host. */
export const KEEL_API_METHODS = [
	'runTurn',
	'decideToolCall',
	'pendingApprovals',
	'transcript',
	'view',
	'newChat',
	'sessionId',
	'resumeSession',
	'onDidEvent',
	'searchHistory',
	'renameSession',
	'deleteSession',
	'exportSession',
	'compact',
	'rewindTo',
	'undoRewind',
	'blockedTools',
	'unblockTool',
	'mcpServers',
	'rules',
	'reloadRules',
	'draftAgentsMd',
	'mode',
	'modes',
	'setMode',
	'onDidChangeState',
	'turns',
	'turnDiff',
	'restoreCheckpoint',
	'undoRestore',
	'submit',
	'slashCompletions',
	'mentionCandidates',
	'resolveMentions',
	'mentionsForUris',
] as const satisfies ReadonlyArray<keyof KeelApi>;

// What the methods carry, declared with the API so the features that produce them stand above it.

/** One turn of the current conversation, as the chat's per-turn controls need it. */
export interface TurnInfo {
	turnId: string;
	prompt: string;
	/** Files the turn changed ("N files changed"); undefined when it took no checkpoint. */
	changes?: ChangedFile[];
	/** The session's last restore (not undone) went back to this turn: "Undo restore" is offered on it. */
	restored?: boolean;
}

/** A turn's changes as before/after documents (checkpoints/checkpointDiff.ts). */
export interface TurnDiff {
	title: string;
	files: Array<ChangedFile & { before: string; after: string }>;
}

/** How a restore answers "you edited these files since": ask in a dialog, or decided up front (API, webview). */
export type ConflictChoice = 'ask' | 'overwrite' | 'skip' | 'cancel';

/** What the composer's text turned into. */
export type SubmitResult =
	| { kind: 'prompt'; outcome: TurnOutcome; attachments: Attachment[]; command?: string }
	| { kind: 'command'; command: string; message: string };

/** A completion of `@` in the composer. */
export interface MentionCandidate {
	kind: MentionKind;
	/** What goes after `@` in the prompt. */
	value: string;
	label: string;
}

// A compile error here names a KeelApi method missing from the list above.
type NoneMissing<T extends never> = T;
export type KeelApiMethodsComplete = NoneMissing<Exclude<keyof KeelApi, (typeof KEEL_API_METHODS)[number]>>;
