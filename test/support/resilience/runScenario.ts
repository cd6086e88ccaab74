// Runs one scenario through the REAL loop (runTurn), the REAL OpenAIChatModel and HTTP to the
// model double, with recovery on or with the naive loop (no repair, no reflection, SDK retries).

import type { AgentEvent } from '../../../src/core/agent/events';
import { InMemoryToolModeMemory, type RecoverySettings } from '../../../src/core/agent/recovery/recoverySettings';
import { runTurn, type TurnOutcome } from '../../../src/core/agent/loop/runAgent';
import { AnthropicChatModel } from '../../../src/core/llm/wires/anthropic/anthropicChatModel';
import type { ChatModel } from '../../../src/core/llm/chatModel';
import { OllamaChatModel } from '../../../src/core/llm/wires/ollama/ollamaChatModel';
import { OpenAIChatModel } from '../../../src/core/llm/wires/openai/openaiChatModel';
import { defaultToolPolicySettings, ToolPolicy } from '../../../src/core/agent/toolPolicy/toolPolicy';
import { ToolRegistry } from '../../../src/core/tools/registry';
import {
	startModelDouble,
	type DataStep,
	type ModelDouble,
	type RecordedRequest,
	type ServerBehaviour,
} from '../modelDouble';
import { InMemoryForcingMemory, type ForcingMemory } from '../../../src/core/agent/recovery/forcingMemory';
import { expectedOutput, initialFiles, scenarioBrain, scenarioPrompt, type Scenario } from './scenarios';
import { TaskFiles } from './taskTools';
import { logReadHistory } from './logHistory';

/** Budgets scaled down so hundreds of scenarios run in seconds; the logic is the shipped one. */
export const fastRecovery: Partial<RecoverySettings> = {
	backoffBaseMs: 5,
	backoffMaxMs: 50,
	retryAfterCapMs: 200,
	reflectionDelayMs: 5,
	streamIdleTimeoutMs: 3000,
};

export interface ScenarioResult {
	scenario: Scenario;
	recovery: boolean;
	completed: boolean;
	reason: TurnOutcome['reason'];
	requests: number;
	duplicates: number;
	events: AgentEvent[];
	outcome: TurnOutcome;
	/** Model replies whose tool call Keel could not take as written (repaired, reflected, or refused by the schema). */
	argumentErrors: number;
	/** Estimated tokens over the turn (characters / 4): every request body as sent plus every reply's text and arguments. */
	tokens: number;
}

/** Notices that mean the model's call was malformed and Keel had to repair it or ask again. */
const ARGUMENT_NOTICES = new Set(['repair', 'reflection', 'recoveredFromError', 'truncatedCall']);

function countArgumentErrors(events: AgentEvent[]): number {
	const notices = events.filter(e => e.type === 'notice' && ARGUMENT_NOTICES.has(e.code)).length;
	const refused = new Set<string>();
	for (const e of events) {
		if (
			e.type === 'toolCallUpdated' &&
			(e.call.errorCategory === 'invalid_parameters' || e.call.errorCategory === 'type_mismatch')
		) {
			refused.add(e.call.id);
		}
	}
	return notices + refused.size;
}

function replyChars(step: DataStep): number {
	if (step.kind !== 'reply') {
		return 0;
	}
	const args = (step.toolCalls ?? []).reduce((n, c) => n + c.arguments.length, 0);
	return (step.text ?? '').length + args;
}

/** 4 requests solve the task with no fault: list, read, write, answer. */
export const BASELINE_REQUESTS = 4;

/**
 * The server the scenarios run against: its behaviours (what it does with a forced call), and
 * what Keel remembers of it across the arm's tasks, as a user's VS Code would.
 */
export interface Arm {
	server?: ServerBehaviour;
	forcingMemory?: ForcingMemory;
}

export async function runScenario(scenario: Scenario, recovery: boolean, arm: Arm = {}): Promise<ScenarioResult> {
	const double = await startModelDouble({ server: arm.server });
	try {
		const files = new TaskFiles(initialFiles(scenario));
		const inner = scenarioBrain(scenario);
		let completionChars = 0;
		const brain = (req: RecordedRequest): DataStep => {
			const step = inner(req);
			completionChars += replyChars(step);
			return step;
		};
		double.script(...Array.from({ length: 40 }, () => brain));
		const registry = new ToolRegistry(files.tools());
		// Both arms carry the same policy; only TAFC differs. Threshold 0: the task's tools are simple
		// (complexity ≤ 0.25), so at the default 0.6 none of them would get the field at all.
		const toolPolicy =
			scenario.tafc === undefined
				? undefined
				: new ToolPolicy(() => ({
						...defaultToolPolicySettings,
						tafc: { enabled: scenario.tafc === true, complexityThreshold: 0 },
					}));
		const model = modelFor(scenario, double, recovery);
		const events: AgentEvent[] = [];
		const abort = new AbortController();
		// The naive loop has no idle timeout: a stalled stream would hang it, so the harness gives up.
		// Generous otherwise, so a busy machine does not turn into failed scenarios.
		const timer = setTimeout(
			() => abort.abort(),
			!recovery && (scenario.fault === 'streamStall' || scenario.fault === 'heldOpen') ? 3_000 : 60_000,
		);
		const outcome = await runTurn(
			{
				model,
				registry,
				toolPolicy,
				approvals: undefined,
				approvalSettings: { autoApprove: { read: true, write: true } },
				workspace: files.workspace,
				systemPrompt: 'You are a careful agent. Use the tools.',
				maxSteps: 10,
				emit: event => events.push(event),
				recovery: recovery ? fastRecovery : { enabled: false },
				toolModeMemory: new InMemoryToolModeMemory(),
				forcingMemory: oneServer(arm.forcingMemory ?? new InMemoryForcingMemory()),
			},
			scenario.fault === 'contextOverflow' || scenario.fault === 'contextAnyShape' ? bigHistory() : [],
			scenarioPrompt(scenario),
			`t${scenario.id}`,
			abort.signal,
		).finally(() => clearTimeout(timer));
		const out = `out/${scenario.key}.txt`;
		// Reasoning or control tokens left in the answer are a failure too: the user would read them.
		const clean = outcome.messages.every(
			m =>
				m.kind !== 'assistant' ||
				!/<\/?think>|<\|channel\|>|<\|message\|>|\[TOOL_CALLS\]|tool▁call|INVENTED-RESULT/.test(m.content),
		);
		const duplicates = Math.max(0, files.writeCount(out) - 1);
		// The user must see the final answer: an empty or repeated-phrase ending is not a completion.
		const answered = outcome.messages.some(
			m =>
				m.kind === 'assistant' && m.content.includes(`Done: out/${scenario.key}.txt`) && m.content.length < 200,
		);
		return {
			scenario,
			recovery,
			completed:
				outcome.reason === 'completed' &&
				files.files.get(out) === expectedOutput(scenario) &&
				clean &&
				answered &&
				duplicates === 0,
			reason: outcome.reason,
			requests: double.modelRequests.length,
			duplicates,
			events,
			outcome,
			argumentErrors: countArgumentErrors(events),
			tokens: Math.ceil(
				(double.modelRequests.reduce((n, r) => n + JSON.stringify(r.body ?? '').length, 0) + completionChars) /
					4,
			),
		};
	} finally {
		await double.close();
	}
}

/**
 * Each scenario has a double of its own on its own port, but an arm is one server: what Keel
 * learned of it in one task holds in the next, as it would for a user of that server.
 */
function oneServer(memory: ForcingMemory): ForcingMemory {
	const server = (id: string) => id.replace(/127\.0\.0\.1:\d+/, '127.0.0.1');
	return {
		get: (id, kind) => memory.get(server(id), kind),
		set: (id, kind, verdict) => memory.set(server(id), kind, verdict),
	};
}

/** The real adapter for the scenario's wire; the naive loop keeps the SDKs' own 2 retries. */
function modelFor(scenario: Scenario, double: ModelDouble, recovery: boolean): ChatModel {
	const timeoutMs = 10_000;
	switch (scenario.wire) {
		case 'ollama':
			return new OllamaChatModel({ baseUrl: double.url, model: 'double-model', timeoutMs });
		case 'anthropic':
			return new AnthropicChatModel({
				baseUrl: double.url,
				model: 'double-model',
				maxRetries: recovery ? 0 : 2,
				timeoutMs,
			});
		default:
			return new OpenAIChatModel({
				baseUrl: double.openaiBaseUrl,
				model: 'double-model',
				maxRetries: recovery ? 0 : 2,
				timeoutMs,
			});
	}
}

/** An earlier turn that read four large files: fits our configured window, not the server's. */
const bigHistory = () => logReadHistory(4, 'line of an old log file', 900, 'The logs are long and boring.');

/** Runs many scenarios with bounded concurrency (each has its own double on its own port). */
export async function runAll(
	scenarios: Scenario[],
	recovery: boolean,
	arm: Arm = {},
	concurrency = 12,
): Promise<ScenarioResult[]> {
	const results: ScenarioResult[] = new Array(scenarios.length);
	let next = 0;
	const worker = async () => {
		while (next < scenarios.length) {
			const index = next++;
			results[index] = await runScenario(scenarios[index], recovery, arm);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, scenarios.length) }, worker));
	return results;
}
