// One turn through the real loop against the model double on any wire, with the events at hand.

import type { AgentEvent } from '../../../src/core/agent/events';
import { runTurn, type AgentOptions } from '../../../src/core/agent/loop/runAgent';
import type { CanonicalMessage } from '../../../src/core/llm/canonical';
import { AnthropicChatModel } from '../../../src/core/llm/wires/anthropic/anthropicChatModel';
import type { ChatModel } from '../../../src/core/llm/chatModel';
import { OllamaChatModel } from '../../../src/core/llm/wires/ollama/ollamaChatModel';
import { OpenAIChatModel } from '../../../src/core/llm/wires/openai/openaiChatModel';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ModelDouble, Wire } from '../modelDouble';
import { fastRecovery } from './runScenario';
import { TaskFiles } from './taskTools';

export function modelOn(double: ModelDouble, wire: Wire): ChatModel {
	if (wire === 'ollama') {
		return new OllamaChatModel({ baseUrl: double.url, model: 'qwen3:8b' });
	}
	if (wire === 'anthropic') {
		return new AnthropicChatModel({ baseUrl: double.url, model: 'claude-double' });
	}
	return new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'qwen3:8b' });
}

export function harness(double: ModelDouble, wire: Wire = 'openai', overrides: Partial<AgentOptions> = {}) {
	const files = new TaskFiles({ 'notes/a.txt': 'alpha' });
	const events: AgentEvent[] = [];
	const options: AgentOptions = {
		model: modelOn(double, wire),
		registry: new ToolRegistry(files.tools()),
		approvals: undefined,
		approvalSettings: { autoApprove: { read: true, write: true } },
		workspace: files.workspace,
		systemPrompt: 'sys',
		maxSteps: 10,
		emit: event => events.push(event),
		recovery: fastRecovery,
		...overrides,
	};
	const of = <T extends AgentEvent['type']>(type: T) =>
		events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
	return {
		files,
		events,
		model: options.model,
		notices: () => of('notice'),
		reasoning: () =>
			of('reasoningDelta')
				.map(e => e.text)
				.join(''),
		shown: () =>
			of('textDelta')
				.map(e => e.text)
				.join(''),
		run: (prompt = 'go', history: CanonicalMessage[] = []) =>
			runTurn(options, history, prompt, `t${Math.random().toString(36).slice(2)}`, new AbortController().signal),
	};
}
