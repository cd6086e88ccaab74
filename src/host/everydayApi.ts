import type { TurnOutcome } from '../core/agent/loop/runAgent';
import type { RestoreOutcome } from '../core/checkpoints/checkpoints';
import type { ChangedFile } from '../core/checkpoints/checkpointStore';
import type { Attachment } from '../core/mentions/mentions';
import type { CommandInfo } from '../core/prompts/slashCommands';
import type { TurnDiff } from './checkpoints/checkpointDiff';
import type { ConflictChoice } from './checkpoints/checkpointsHost';
import type { MentionCandidate } from './composer/mentionsHost';
import type { SubmitResult } from './composer/slashHost';

/** One turn of the current conversation, as the chat's per-turn controls need it. */
export interface TurnInfo {
	turnId: string;
	prompt: string;
	/** Files the turn changed ("N files changed"); undefined when it took no checkpoint. */
	changes?: ChangedFile[];
	/** The session's last restore (not undone) went back to this turn: "Undo restore" is offered on it. */
	restored?: boolean;
}

/**
 * Rules, checkpoints, modes, history search, slash commands and mentions: what activate()
 * returns beside the turn API, and what the chat view calls for its controls.
 */
export interface EverydayApi {
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
	turns(): Promise<TurnInfo[]>;
	/** A turn's changes as before/after documents; opens VS Code's multi-file diff unless `open` is false. */
	turnDiff(turnId: string, open?: boolean): Promise<TurnDiff>;
	restoreCheckpoint(turnId: string, onConflict?: ConflictChoice): Promise<RestoreOutcome>;
	undoRestore(onConflict?: ConflictChoice): Promise<RestoreOutcome>;
	/** Rewinds the conversation to before `turnId` (optionally its files too); returns that turn's prompt to edit and resend. */
	rewindTo(
		turnId: string,
		options?: { restoreFiles?: boolean; onConflict?: ConflictChoice },
	): Promise<{ prompt: string; restored?: RestoreOutcome }>;
	undoRewind(): boolean;
	searchHistory(query: string): Array<{ sessionId: string; title: string; snippet: string; updatedAt: number }>;
	renameSession(sessionId: string, title: string): void;
	deleteSession(sessionId: string): void;
	exportSession(sessionId: string, format: 'markdown' | 'json'): string;
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
	compact(): Promise<string>;
	/** Fires when the rules, the current chat's mode, or its checkpoints changed: the view refreshes what it shows. */
	onDidChangeState(listener: (what: 'rules' | 'mode' | 'checkpoints') => void): { dispose(): void };
}

/** The method names, so the activation shim can forward them without loading the host. */
export const EVERYDAY_API_METHODS = [
	'rules',
	'reloadRules',
	'draftAgentsMd',
	'mode',
	'modes',
	'setMode',
	'turns',
	'turnDiff',
	'restoreCheckpoint',
	'undoRestore',
	'rewindTo',
	'undoRewind',
	'searchHistory',
	'renameSession',
	'deleteSession',
	'exportSession',
	'submit',
	'slashCompletions',
	'mentionCandidates',
	'resolveMentions',
	'mentionsForUris',
	'compact',
	'onDidChangeState',
] as const satisfies ReadonlyArray<keyof EverydayApi>;

/** Palette commands of these features (everydayCommands.ts); registered by the activation shim. */
export const EVERYDAY_COMMANDS = [
	'keel.draftAgentsMd',
	'keel.showTurnChanges',
	'keel.restoreCheckpoint',
	'keel.undoRestore',
	'keel.rewindConversation',
	'keel.undoRewind',
	'keel.switchMode',
	'keel.planMode',
	'keel.actMode',
	'keel.compact',
] as const;
