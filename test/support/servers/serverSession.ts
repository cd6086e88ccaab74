// A chat session against the model double as Keel builds it in VS Code: the provider's preset,
// its adapter and the server port (createChatModel), the real loop and real HTTP.
import { defaultApprovalSettings } from '../../../src/core/agent/approval/approvalPolicy';
import type { AgentEvent } from '../../../src/core/agent/events';
import type { RecoverySettings } from '../../../src/core/agent/recovery/recoverySettings';
import { createChatModel, resolveProvider, type ProviderKind } from '../../../src/core/llm/catalog/providers';
import { ChatSession } from '../../../src/core/session/chatSession';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { InMemoryWorkspace } from '../../fakes/inMemoryWorkspace';
import { fileTools } from '../../fakes/readTools';
import type { ModelDouble } from '../modelDouble';

export interface ServerSessionOptions {
	provider: ProviderKind;
	model: string;
	contextWindow?: number;
	recovery?: Partial<RecoverySettings>;
	files?: Record<string, string>;
	/** Warnings said once across chats, as the host keeps them. */
	shownOnce?: Set<string>;
}

export function serverSession(double: ModelDouble, options: ServerSessionOptions) {
	const events: AgentEvent[] = [];
	const baseUrl = options.provider === 'ollama' ? double.url : double.openaiBaseUrl;
	const contextWindow = options.contextWindow ?? 32_768;
	const resolved = resolveProvider({
		provider: options.provider,
		baseUrl,
		model: options.model,
		contextWindow,
		requestTimeoutSeconds: 600,
	});
	const chat = new ChatSession({
		sessionId: 'servers',
		createModel: async () => createChatModel(resolved, undefined),
		modelLabel: () => options.model,
		registry: new ToolRegistry(fileTools),
		workspace: new InMemoryWorkspace(options.files ?? { 'README.md': 'The answer is 42.' }),
		approvalSettings: () => defaultApprovalSettings,
		maxSteps: () => 25,
		systemPrompt: () => 'You are Keel.',
		recovery: () => ({ backoffBaseMs: 1, backoffMaxMs: 10, contextWindow, ...options.recovery }),
		shownOnce: options.shownOnce,
	});
	chat.onDidEvent(event => events.push(event));
	return {
		chat,
		events,
		notices: (code?: string) => events.flatMap(e => (e.type === 'notice' && (!code || e.code === code) ? [e] : [])),
		usages: () => events.flatMap(e => (e.type === 'usage' ? [e] : [])),
		prefills: () => events.flatMap(e => (e.type === 'prefill' ? [e] : [])),
	};
}
