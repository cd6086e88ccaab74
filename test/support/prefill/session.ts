// Drives the real session (ChatSession → runTurn → a real provider adapter → HTTP) against the
// model double, turn after turn, and hands back every model request it recorded, in order.
import { defaultApprovalSettings } from '../../../src/core/agent/approval/approvalPolicy';
import type { AgentEvent } from '../../../src/core/agent/events';
import { InMemoryToolModeMemory, type RecoverySettings } from '../../../src/core/agent/recovery/recoverySettings';
import { AnthropicChatModel } from '../../../src/core/llm/wires/anthropic/anthropicChatModel';
import type { ChatModel } from '../../../src/core/llm/chatModel';
import { OllamaChatModel } from '../../../src/core/llm/wires/ollama/ollamaChatModel';
import { OpenAIChatModel } from '../../../src/core/llm/wires/openai/openaiChatModel';
import { ChatSession } from '../../../src/core/session/chatSession';
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
	const session = new ChatSession({
		sessionId,
		createModel: async () => modelFor(wire, double, spec.model ?? 'qwen3:8b', contextWindow),
		registry: spec.registry,
		toolPolicy: spec.toolPolicy,
		workspace: new InMemoryWorkspace(spec.files),
		approvalSettings: () => defaultApprovalSettings,
		maxSteps: () => 60,
		systemPrompt: () => systemPrompt,
		recovery: () => recovery,
		toolModeMemory: new InMemoryToolModeMemory(),
	});
	session.onDidEvent(event => events.push(event));
	try {
		for (const turn of spec.turns) {
			systemPrompt = turn.systemPrompt ?? systemPrompt;
			double.script(...turn.steps);
			await session.send(turn.prompt);
		}
	} finally {
		session.dispose();
	}
	return { requests: [...double.modelRequests], events, session };
}
