import type { z } from 'zod';
import type { PreparedSubjects, Subject, ToolEffect } from '../gate/rules/subjects';
import type { Workspace } from '../ports';

// What permission rules judge of a tool is defined at the gate's floor; a tool's shape names it here.
export type { Subject, ToolEffect };

export interface ToolContext {
	workspace: Workspace;
	signal: AbortSignal;
	/** Streams partial output into the card while the tool runs. */
	progress(text: string): void;
	/** The chat session this call belongs to; scopes stored outputs (read_output). */
	sessionId?: string;
	/** What `prepare` returned before approval; `execute` applies exactly this, nothing recomputed. */
	prepared?: Preparation;
	/**
	 * The permission verdict for other subjects of this same call (e.g. where a redirect
	 * leads): what was approved covers the subjects shown, nothing they lead to. `asTool`
	 * judges them under another tool's rules (grep shows lines, so read_file's rules apply).
	 */
	recheck?(subjects: Subject[], asTool?: string): 'allow' | 'ask' | 'deny';
}

export interface FileDiff {
	path: string;
	/** undefined when the file does not exist yet. */
	before: string | undefined;
	/** undefined when the file is deleted. */
	after: string | undefined;
	/** Unified diff text, as shown on the card ('' when the change is too large to diff). */
	unified: string;
	/** The change was too large to diff within the card's bounds (fileDiff.ts): its size instead. */
	tooLarge?: { bytes: number; changedLines: number; added: number; removed: number };
}

/** The outcome of looking before leaping: computed before approval, shown, then applied as is. */
export interface Preparation extends PreparedSubjects {
	diffs?: FileDiff[];
	/** Replaces describe()'s card title once known, e.g. where run_command will really run. */
	title?: string;
	/** Tool-private payload handed to execute (e.g. the exact new content). */
	data?: unknown;
	/** What the user must know before approving, and the setting that changes it (a command that would run unsandboxed). */
	caution?: { text: string; setting?: string };
}

/**
 * The uniform result envelope. `display` is shown verbatim in the card and is what the model
 * reads; structured fields let the UI and guards reason without parsing prose.
 */
export interface ToolResult {
	ok: boolean;
	display: string;
	count?: number;
	hasMore?: boolean;
	truncated?: boolean;
	exitCode?: number;
	[key: string]: unknown;
}

export interface ToolDefinition<I = unknown> {
	name: string;
	description: string;
	input: z.ZodType<I>;
	/** Tools from a source (MCP, VS Code) bring their own JSON Schema; `input` then validates against it. */
	parameters?: Record<string, unknown>;
	/** Where a tool comes from when it is not built in, e.g. "mcp:github" or "vscode.lm"; used by tool selection. */
	source?: string;
	effect: ToolEffect;
	/**
	 * Optional: whether this call only reads (nothing written, nothing run that could write, nothing
	 * the loop relies on changed), proven from the input or declared by the tool's source. Such a
	 * call may run beside other reads and before the model's reply has ended; the approval still
	 * decides whether it runs. Without it, a `read` tool's calls only read.
	 */
	readsOnly?(input: I): boolean;
	/** The card title: what this call will do, e.g. "Read src/app.ts (lines 1–200)". */
	describe(input: I): string;
	/** Optional: what permission rules match on (see Subject, gate/rules/subjects.ts). Without it only tool-name rules apply. */
	subjects?(input: I): Subject[];
	/** Optional: runs before approval (resolve paths, compute the diff). A throw refuses the call. */
	prepare?(input: I, context: ToolContext): Promise<Preparation>;
	execute(input: I, context: ToolContext): Promise<ToolResult>;
}

/** Identity with inference: keeps each tool's input type tied to its schema. */
export function defineTool<S extends z.ZodType>(
	tool: ToolDefinition<z.infer<S>> & { input: S },
): ToolDefinition<z.infer<S>> {
	return tool;
}

export function ok(display: string, fields: Omit<ToolResult, 'ok' | 'display'> = {}): ToolResult {
	return { ok: true, display, ...fields };
}

/** A failure the model can act on: the message says what to do differently. */
export function fail(display: string, fields: Omit<ToolResult, 'ok' | 'display'> = {}): ToolResult {
	return { ok: false, display, ...fields };
}
