// Drives the real session (ChatSession → runTurn → a real provider adapter → HTTP) against the
// model double, turn after turn, and hands back every model request it recorded, in order.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defaultApprovalSettings } from '../../../src/core/agent/approval/approvalPolicy';
import type { AgentEvent } from '../../../src/core/agent/events';
import { InMemoryToolModeMemory, type RecoverySettings } from '../../../src/core/agent/recovery/recoverySettings';
import { AnthropicChatModel } from '../../../src/core/llm/wires/anthropic/anthropicChatModel';
import type { ChatModel } from '../../../src/core/llm/chatModel';
import { OllamaChatModel } from '../../../src/core/llm/wires/ollama/ollamaChatModel';
import { OpenAIChatModel } from '../../../src/core/llm/wires/openai/openaiChatModel';
import { ChatSession } from '../../../src/core/session/chatSession';
import { nullLogger } from '../../../src/core/ports';
import { keepSession, reopenSession, type ReopenedSession } from '../../../src/core/store/sessionKeeping';
import { SessionStore } from '../../../src/core/store/sessionStore';
import type { ToolPolicy } from '../../../src/core/agent/toolPolicy/toolPolicy';
import type { ToolRegistry } from '../../../src/core/tools/registry';
import { InMemoryWorkspace } from '../../fakes/inMemoryWorkspace';
import type { ModelDouble, RecordedRequest, Step, Wire } from '../modelDouble';

export const WIRES: readonly Wire[] = ['openai', 'ollama', 'anthropic'];

export interface PrefillTurn {
	prompt: string;
	steps: Step[];
	/** The system prompt for this turn and the ones after (a mode change, reloaded rules). */
	systemPrompt?: string;
	/**
	 * The window closes before this turn and the conversation is reopened from the session store
	 * (a real SQLite file): the turn runs in a new session built from what the store kept.
	 */
	reopen?: boolean;
}

export interface PrefillSession {
	registry: ToolRegistry;
	/** The tool policy the host keeps per session (anomaly blocks, dependencies, TAFC). */
	toolPolicy?: ToolPolicy;
	files: Record<string, string>;
	turns: PrefillTurn[];
	recovery?: Partial<RecoverySettings>;
	model?: string;
	systemPrompt?: string;
}

export interface PrefillRun {
	requests: RecordedRequest[];
	events: AgentEvent[];
	session: ChatSession;
	/** The index in `requests` of each turn's first request. */
	turnStarts: number[];
}

export function modelFor(wire: Wire, double: ModelDouble, name: string, contextWindow: number): ChatModel {
	switch (wire) {
		case 'ollama':
			return new OllamaChatModel({ baseUrl: double.url, model: name, contextWindow });
		case 'anthropic':
			return new AnthropicChatModel({ baseUrl: double.url, model: name });
		default:
			return new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: name });
	}
}

/** Runs every turn of `spec` on `wire` in one session; the double is reset first. */
export async function runPrefillSession(
	double: ModelDouble,
	wire: Wire,
	spec: PrefillSession,
	sessionId = `prefill-${wire}`,
): Promise<PrefillRun> {
	double.reset();
	const recovery: Partial<RecoverySettings> = { backoffBaseMs: 1, reflectionDelayMs: 0, ...spec.recovery };
	const contextWindow = recovery.contextWindow ?? 32_768;
	let systemPrompt = spec.systemPrompt ?? 'You are Keel, a coding agent. Use the tools to look at files.';
	const events: AgentEvent[] = [];
	const workspace = new InMemoryWorkspace(spec.files);
	const toolModeMemory = new InMemoryToolModeMemory();
	// A session that reopens is kept as the host keeps it: every message and its memory in the store.
	const stored = spec.turns.some(turn => turn.reopen) ? storeFor(sessionId) : undefined;
	const open = (reopened?: ReopenedSession) => {
		const session = new ChatSession({
			sessionId,
			createModel: async () => modelFor(wire, double, spec.model ?? 'qwen3:8b', contextWindow),
			registry: spec.registry,
			toolPolicy: spec.toolPolicy,
			workspace,
			approvalSettings: () => defaultApprovalSettings,
			maxSteps: () => 60,
			systemPrompt: () => systemPrompt,
			recovery: () => recovery,
			toolModeMemory,
			...(reopened ? { history: reopened.history, memory: reopened.memory } : {}),
		});
		const kept =
			stored &&
			keepSession(session, {
				store: stored.store,
				sessionId,
				provider: () => ({ provider: wire, model: spec.model ?? 'qwen3:8b' }),
				logger: nullLogger,
			});
		session.onDidEvent(event => events.push(event));
		return { session, close: () => (kept?.dispose(), session.dispose()) };
	};
	let current = open();
	const turnStarts: number[] = [];
	try {
		for (const turn of spec.turns) {
			if (turn.reopen && stored) {
				current.close();
				current = open(reopenSession(stored.store, sessionId, nullLogger));
			}
			systemPrompt = turn.systemPrompt ?? systemPrompt;
			double.script(...turn.steps);
			turnStarts.push(double.modelRequests.length);
			await current.session.send(turn.prompt);
		}
	} finally {
		current.close();
		stored?.dispose();
	}
	return { requests: [...double.modelRequests], events, session: current.session, turnStarts };
}

function storeFor(sessionId: string): { store: SessionStore; dispose(): void } {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), `keel-${sessionId}-`));
	const store = SessionStore.open(path.join(folder, 'sessions.db'));
	return {
		store,
		dispose: () => {
			store.close();
			fs.rmSync(folder, { recursive: true, force: true });
		},
	};
}
