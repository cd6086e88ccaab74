import type * as vscode from 'vscode';
import type { AgentEvent } from '../core/agent/events';
import type { TurnOutcome } from '../core/agent/loop/runAgent';
import type { CanonicalMessage } from '../core/llm/canonical';
import type { SessionView } from '../shared/views';
import { EVERYDAY_API_METHODS, type EverydayApi } from './everydayApi';

/**
 * What activate() returns: lets tests and other extensions drive a turn and read the result.
 * Declared here only; the host implements it (keelHost.ts) and the activation shim forwards
 * every method by name (KEEL_API_METHODS), so this module must stay free of runtime imports
 * beyond the name lists.
 */
export interface KeelApi extends EverydayApi {
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
	/** Tools the anomaly guard blocked in the current chat; unblockTool(name) (or all) lets them be offered again. */
	blockedTools(): string[];
	unblockTool(name?: string): string[];
	/** MCP servers as Keel: MCP Servers shows them (state, error, offered tool names). */
	mcpServers(): Promise<Array<{ name: string; scope: string; status: string; error?: string; tools: string[] }>>;
}

const TURN_API_METHODS = [
	'runTurn',
	'decideToolCall',
	'pendingApprovals',
	'transcript',
	'view',
	'newChat',
	'sessionId',
	'resumeSession',
	'onDidEvent',
	'blockedTools',
	'unblockTool',
	'mcpServers',
] as const satisfies ReadonlyArray<keyof KeelApi>;

/** Every method of KeelApi; the type below fails to compile when one is missing. */
export const KEEL_API_METHODS = [...TURN_API_METHODS, ...EVERYDAY_API_METHODS] as const;

// A compile error here names a KeelApi method missing from the lists above.
type NoneMissing<T extends never> = T;
export type KeelApiMethodsComplete = NoneMissing<Exclude<keyof KeelApi, (typeof KEEL_API_METHODS)[number]>>;
