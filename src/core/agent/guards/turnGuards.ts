import type { NoticeCode } from '../noticeCodes';
import type { CanonicalMessage, ToolResultData } from '../../llm/canonical';
import type { ToolSpec } from '../../llm/chatModel';
import type { ToolRegistry } from '../../tools/registry';
import { explainToolError, ToolRetryBudget } from '../recovery/review/callRepair';
import type { NoticeLevel } from '../events';
import { compactToolOutputs, estimateTokens, LoopGuard, promptWasCut, withStubs } from './guards';
import { cutNewestResults, withCuts, type KeepWhole } from './resultCuts';
import { SessionMemory } from '../memory/sessionMemory';
import type { StepCall } from '../loop/modelStep';
import type { RequestPlan } from '../recovery/recovery';
import type { RecoverySettings } from '../recovery/recoverySettings';
import { textModeInstructions, toTextModeMessages } from '../recovery/review/textMode';

type Notice = (level: NoticeLevel, code: NoticeCode, text: string, notify?: boolean) => void;

/**
 * The per-turn guards the loop consults: context budget (estimate, compact, refuse), Ollama
 * truncation, per-tool retry budgets and doom loops. One instance per turn.
 */
export class TurnGuards {
	private readonly _loop: LoopGuard;
	private readonly _toolBudget: ToolRetryBudget;
	private _estimate = 0;
	private _truncationNoticed = false;
	private _loopStopped = false;
	private _loopRelaxed = false;
	private _planned: { messages: readonly CanonicalMessage[]; estimate: number } | undefined;

	constructor(
		private readonly _settings: RecoverySettings,
		private readonly _notice: Notice,
		private readonly _memory: SessionMemory = new SessionMemory(),
		/** Where a result sent in part is kept whole for read_output; without it the model is told to ask for less. */
		private readonly _keepWhole?: KeepWhole,
	) {
		this._loop = new LoopGuard(_settings.loopRepeats);
		this._toolBudget = new ToolRetryBudget({
			read: _settings.readToolRetries,
			sideEffect: _settings.sideEffectToolRetries,
		});
	}

	/** Keel's estimate of the last planned request, in tokens (chars/4 over messages and tools). */
	get estimate(): number {
		return this._estimate;
	}

	/**
	 * The request for this step: system prompt (+ text-mode catalog), history, tools. Outputs
	 * the session compacted before stay compacted. Past the threshold (keel.recovery.compactAt)
	 * old outputs are compacted in one step well below it, so the next steps append again.
	 */
	plan(
		systemPrompt: string,
		history: readonly CanonicalMessage[],
		offered: readonly ToolSpec[],
		textMode: boolean,
		squeeze: boolean,
		fitTo?: number,
	): RequestPlan {
		const system = textMode ? `${systemPrompt}\n\n${textModeInstructions(offered)}` : systemPrompt;
		const tools = textMode ? [] : offered;
		let canonical = withCuts(
			withStubs([{ kind: 'system', content: system }, ...history], this._memory.stubbed),
			this._memory.cut,
		);
		this._estimate = estimateTokens(canonical, tools);
		if (this._settings.enabled) {
			canonical = this._compact(canonical, tools, squeeze, fitTo);
		}
		const messages = textMode ? toTextModeMessages(canonical) : canonical;
		this._planned = { messages, estimate: this._estimate };
		return { messages, tools };
	}

	private _compact(
		messages: CanonicalMessage[],
		tools: readonly ToolSpec[],
		squeeze: boolean,
		fitTo?: number,
	): CanonicalMessage[] {
		const window = this._settings.contextWindow;
		const threshold = Math.floor(window * this._settings.compactAt);
		const memory = this._memory;
		// After the server said "too long", stay well below what it refused for the rest of the session.
		// A size the server named is a ceiling too, with room for the answer and for Keel's estimate being short.
		if (squeeze) {
			memory.budgetCap = Math.min(
				memory.budgetCap ?? threshold,
				Math.floor(this._estimate * 0.5),
				fitTo ? Math.floor(fitTo * 0.75) : Infinity,
			);
		}
		const limit = Math.min(threshold, memory.budgetCap ?? threshold);
		if (this._estimate <= limit) {
			return messages;
		}
		// The server re-reads everything after the first output replaced, so every old output after
		// it goes in the same step: the re-read is no longer, and the next compaction is far off.
		const before = this._estimate;
		const compacted = compactToolOutputs(messages, tools, 0, squeeze || memory.budgetCap ? 1 : 2);
		compacted.stubbedIds.forEach(id => memory.stubbed.add(id));
		this._estimate = compacted.estimate;
		if (compacted.compacted > 0) {
			this._notice(
				'info',
				'compacted',
				`Context near its limit (~${before} of ${window} tokens): compacted ${compacted.compacted} old tool output(s) (${compacted.summary}) to ~${compacted.estimate} tokens at once; they stay compacted in this chat.`,
			);
		}
		// Cut only when the request could not go as it is: the server refused it, or it would not fit the window at all.
		const mustFit = squeeze || compacted.estimate > window * 0.95;
		if (!mustFit || compacted.estimate <= limit) {
			return compacted.messages;
		}
		// The server refused the request and the old outputs were not what made it too big: the newest large result was.
		const cut = cutNewestResults(compacted.messages, tools, limit, this._keepWhole);
		cut.cuts.forEach((kept, id) => memory.cut.set(id, kept));
		this._estimate = cut.estimate;
		if (cut.cuts.size > 0) {
			this._notice(
				'info',
				'compacted',
				`The newest tool output${cut.cuts.size > 1 ? 's were' : ' was'} too large for the server's context window: sent in part (its start and end, ~${cut.estimate} tokens in all); the chat keeps ${cut.cuts.size > 1 ? 'them' : 'it'} whole and the model was told how to read the rest.`,
			);
		}
		return cut.messages;
	}

	/** The last planned request, for the session's record of what the server has cached. */
	get planned(): { messages: readonly CanonicalMessage[]; estimate: number } | undefined {
		return this._planned;
	}

	overBudget(plan: RequestPlan): boolean {
		return (
			this._settings.enabled && estimateTokens(plan.messages, plan.tools) > this._settings.contextWindow * 0.95
		);
	}

	/**
	 * `expected`: what the server had to read beyond its cache. A count that small is the cache
	 * at work (Ollama counts only what it evaluated), not a prompt cut short.
	 */
	checkTruncation(promptTokens: number | undefined, expected = this._estimate): void {
		if (
			!this._settings.enabled ||
			this._truncationNoticed ||
			!promptWasCut(this._estimate, promptTokens, expected)
		) {
			return;
		}
		this._truncationNoticed = true;
		this._notice(
			'warning',
			'truncated',
			`The server read only ${promptTokens} prompt tokens of about ${this._estimate} sent: it is probably cutting the conversation. ${capitalise(this._settings.serverContextHint ?? "Raise the server's context size")}, or lower keel.model.contextWindow.`,
			true,
		);
	}

	/** A tool that kept failing this turn is not run again; the result says why. */
	refuseRetry(call: StepCall, registry: ToolRegistry): ToolResultData | undefined {
		const effect = registry.get(call.name)?.effect;
		// A call that can run always may: the budget only stops the same mistake being repeated.
		if (
			!this._settings.enabled ||
			!this._toolBudget.exhausted(call.name, effect) ||
			registry.parse(call.name, call.rawArguments).ok
		) {
			return undefined;
		}
		const limit = this._toolBudget.limit(effect);
		this._notice(
			'warning',
			'toolBudget',
			`${call.name} could not run ${limit + 1} times in a row (invalid arguments or unknown tool); not running it again this turn.`,
		);
		return {
			toolCallId: call.id,
			name: call.name,
			ok: false,
			errorKind: 'retryBudget',
			output: `${call.name} was called with arguments that could not be used ${limit + 1} times in a row and will not run again in this turn. Use another tool or answer with what you have.`,
		};
	}

	/** Explains schema errors, counts failures, watches for loops; returns the result to record. */
	afterTool(call: StepCall, result: ToolResultData, offered: readonly ToolSpec[]): ToolResultData {
		if (!this._settings.enabled) {
			return result;
		}
		const explained = explainToolError(result, offered);
		this._toolBudget.record(explained);
		const verdict = this._loop.observe(call.name, call.rawArguments, explained.output);
		if (verdict === 'stop' && !this._loopRelaxed) {
			this._loopStopped = true;
		}
		if (verdict === 'warn') {
			this._notice(
				'warning',
				'loopWarning',
				`${call.name}: ${this.loopDescription}; told the model to change approach.`,
			);
			return {
				...explained,
				output: `${explained.output}\n\n[Keel: you have repeated this call and got the same result (${this.loopDescription}). Do not call it again with the same arguments; try a different approach or give your answer.]`,
			};
		}
		return explained;
	}

	get loopStopped(): boolean {
		return this._loopStopped;
	}

	/** The user chose Continue at a loop: no further loop stops this turn (the step cap still applies). */
	relaxLoopGuard(): void {
		this._loopRelaxed = true;
		this._loopStopped = false;
	}

	get loopDescription(): string {
		return this._loop.describeLast();
	}
}

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
