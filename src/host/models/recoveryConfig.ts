import type * as vscode from 'vscode';
import type { RecoverySettings, ToolModeMemory } from '../../core/agent/recovery/recoverySettings';
import type { ForcingMemory } from '../../core/agent/recovery/forcingMemory';
import type { ForceKind, ForcingVerdict } from '../../core/llm/forcing';
import { readSetting } from '../settings/settings';
import { serverHints } from '../../core/llm/stream/serverHints';
import { readResolvedProvider } from './providerConfig';

/** keel.recovery.* (and the model's context window) → the recovery layer's budgets, read per turn. */
export function readRecoverySettings(): Partial<RecoverySettings> {
	const seconds = (key: Parameters<typeof readSetting>[0] & `recovery.${string}Seconds`) =>
		Math.max(0, readSetting(key)) * 1000;
	return {
		enabled: readSetting('recovery.enabled'),
		maxRetriesPerTurn: readSetting('recovery.maxRetriesPerTurn'),
		backoffBaseMs: seconds('recovery.backoffBaseSeconds'),
		backoffMaxMs: seconds('recovery.backoffMaxSeconds'),
		retryAfterCapMs: seconds('recovery.retryAfterCapSeconds'),
		streamIdleTimeoutMs: seconds('recovery.streamIdleTimeoutSeconds'),
		firstTokenTimeoutMs: Math.max(1, readSetting('model.requestTimeoutSeconds')) * 1000,
		reflectionsPerRequest: readSetting('recovery.reflectionsPerRequest'),
		reflectionDelayMs: seconds('recovery.reflectionDelaySeconds'),
		readToolRetries: readSetting('recovery.readToolRetries'),
		sideEffectToolRetries: readSetting('recovery.sideEffectToolRetries'),
		toolMode: readSetting('recovery.toolMode'),
		textModeAfterFailures: readSetting('recovery.textModeAfterFailures'),
		loopRepeats: readSetting('agent.loopRepeats'),
		compactAt: readSetting('agent.compactAt'),
		contextWindow: readSetting('model.contextWindow'),
		reasoningBudget: Math.max(0, readSetting('model.reasoningBudget')),
		// Advice about a server's context names that server only (no Ollama advice for llama.cpp).
		serverContextHint: serverHints(readResolvedProvider().preset.kind).context,
	};
}

/** What each server and model did with a forced call (Check Model's probe, the loop's last rung), kept across sessions. */
export class GlobalStateForcingMemory implements ForcingMemory {
	private static readonly KEY = 'keel.forcingByModel';

	constructor(private readonly _state: vscode.Memento) {}

	get(modelId: string, kind: ForceKind): ForcingVerdict | undefined {
		return this._state.get<Record<string, ForcingVerdict>>(GlobalStateForcingMemory.KEY, {})[`${kind} ${modelId}`];
	}

	set(modelId: string, kind: ForceKind, verdict: ForcingVerdict): void {
		const all = {
			...this._state.get<Record<string, ForcingVerdict>>(GlobalStateForcingMemory.KEY, {}),
			[`${kind} ${modelId}`]: verdict,
		};
		void this._state.update(GlobalStateForcingMemory.KEY, all);
	}
}

/** Per-model tool-call dialect, kept across sessions in the extension's global state. */
export class GlobalStateToolModeMemory implements ToolModeMemory {
	private static readonly KEY = 'keel.toolModeByModel';

	constructor(private readonly _state: vscode.Memento) {}

	get(modelId: string): 'native' | 'text' | undefined {
		return this._state.get<Record<string, 'native' | 'text'>>(GlobalStateToolModeMemory.KEY, {})[modelId];
	}

	set(modelId: string, mode: 'native' | 'text'): void {
		const all = {
			...this._state.get<Record<string, 'native' | 'text'>>(GlobalStateToolModeMemory.KEY, {}),
			[modelId]: mode,
		};
		void this._state.update(GlobalStateToolModeMemory.KEY, all);
	}
}
