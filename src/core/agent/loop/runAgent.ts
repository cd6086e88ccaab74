import type { NoticeCode } from '../noticeCodes';
import { AgentError } from '../../errors';
import type { ImagePart } from '../../llm/imageParts';
import type { ChatModel } from '../../llm/chatModel';
import { toolCallMessage, toolResultMessage, type CanonicalMessage } from '../../llm/canonical';
import { systemClock, type Clock, type Workspace } from '../../ports';
import type { ToolRegistry } from '../../tools/registry';
import type { Approver } from '../approval/approvalGate';
import { isToolOffered, type ApprovalSettings } from '../approval/approvalPolicy';
import type { AgentEvent, NoticeLevel, TurnEndReason } from '../events';
import { askToContinue, type ContinueDecider } from './continueGate';
import { requestWithRecovery, type RequestPlan } from '../recovery/recovery';
import { defaultRecoverySettings, type RecoverySettings, type ToolModeMemory } from '../recovery/recoverySettings';
import { RetryBudget, withIdleTimeout } from '../recovery/retryBudget';
import { noToolCalls } from './stopConditions';
import { ToolModeState } from '../recovery/textMode';
import { runToolCall } from './toolExecution';
import { looksDegenerate } from './guards';
import { reviewResponse } from '../recovery/responseReview';
import { nudgeText, shortfallLabel, type Shortfall } from '../recovery/stepReview';
import { fencedShellCommands } from '../recovery/fencedShell';
import { TurnGuards } from './turnGuards';
import { selectTools } from '../toolPolicy/toolSelection';

export interface AgentOptions {
	model: ChatModel;
	registry: ToolRegistry;
	approvals: Approver | undefined;
	approvalSettings: ApprovalSettings;
	workspace: Workspace;
	systemPrompt: string;
	maxSteps: number;
	emit(event: AgentEvent): void;
	/** The conversation this turn belongs to; scopes stored tool outputs (read_output). */
	sessionId?: string;
	/** Recovery budgets (keel.recovery.*); defaults apply to what is left out. `enabled: false` is the naive loop. */
	recovery?: Partial<RecoverySettings>;
	/** Asked "Continue / Stop" at the step cap; none means Stop. */
	continueDecider?: ContinueDecider;
	toolModeMemory?: ToolModeMemory;
	clock?: Clock;
	random?: () => number;
}

export interface TurnOutcome {
	turnId: string;
	reason: TurnEndReason;
	/** The messages this turn added to the history, in order. */
	messages: CanonicalMessage[];
	error?: AgentError;
}

/**
 * One user turn: model → tool calls → approval → execution → results → model, until the
 * model answers without calling a tool, the step cap is hit, the user stops, or it fails.
 * History is append-only: every message is emitted as `messageAppended` when it happens.
 */
export async function runTurn(
	options: AgentOptions,
	history: readonly CanonicalMessage[],
	prompt: string,
	turnId: string,
	signal: AbortSignal,
	images?: ImagePart[],
): Promise<TurnOutcome> {
	const added: CanonicalMessage[] = [];
	const append = (message: CanonicalMessage) => {
		added.push(message);
		options.emit({ type: 'messageAppended', turnId, message });
	};
	const usedIds = new Set(history.flatMap(m => (m.kind === 'tool_call' ? [m.data.id] : [])));
	const uniqueId = (preferred: string | undefined, fallback: string) => {
		let id = preferred || fallback;
		for (let n = 2; usedIds.has(id); n++) {
			id = `${preferred || fallback}-${n}`;
		}
		usedIds.add(id);
		return id;
	};
	const finish = (reason: TurnEndReason, error?: AgentError): TurnOutcome => {
		options.emit({
			type: 'turnFinished',
			turnId,
			reason,
			error: error && { code: error.code, message: error.message },
		});
		return { turnId, reason, messages: added, error };
	};

	options.emit({
		type: 'turnStarted',
		turnId,
		prompt,
		...(images?.length ? { images: images.map(i => ({ name: i.name, bytes: i.bytes })) } : {}),
	});
	append(images?.length ? { kind: 'user', content: prompt, images } : { kind: 'user', content: prompt });
	const settings: RecoverySettings = { ...defaultRecoverySettings, ...options.recovery };
	const notice = (level: NoticeLevel, code: NoticeCode, text: string, notify?: boolean) =>
		options.emit({ type: 'notice', turnId, level, code, text, notify });
	// Denied and (in an untrusted workspace) non-read tools are not even offered to the model.
	// Over the tool budget (count, or tokens against the context window) only the relevant ones go (toolSelection.ts).
	const offerable = selectTools(
		options.registry.specs(tool => isToolOffered(tool, options.approvalSettings)),
		options.registry,
		{
			messages: [...history, { kind: 'user', content: prompt }],
			contextWindow: settings.contextWindow,
			signal,
			notice: text => notice('info', 'toolsOffered', text),
		},
	);
	// The tool policy (anomaly blocks, dependencies, TAFC) may change what is offered after each step.
	const toolState = options.registry.policy?.session(options.sessionId ?? '');
	let offered = toolState ? toolState.offer(offerable) : offerable;
	const mode = new ToolModeState(
		settings.enabled ? settings.toolMode : 'native',
		settings.textModeAfterFailures,
		options.model.id,
		options.toolModeMemory,
		failures =>
			notice(
				'warning',
				'textMode',
				`${options.model.id.split('#').pop()} failed native tool calling ${failures} times; switched it to text-mode tool calls (remembered for this model).`,
			),
	);
	const guards = new TurnGuards(settings, options.maxSteps, notice);
	const budget = new RetryBudget(settings.maxRetriesPerTurn);
	const model = settings.enabled ? withIdleTimeout(options.model, settings.streamIdleTimeoutMs) : options.model;
	let turnRequests = 0;
	let turnTokens = 0;
	// A response that gave nothing to do is re-asked once with a precise correction, sent with
	// the next request only (not kept in the history); a second one in a row ends the turn.
	let nudge: { text: string; avoidRepetition?: boolean } | undefined;
	let sendReasoning = true;
	let shortfalls = 0;

	for (let step = 1; ; step++) {
		offered = toolState && step > 1 ? toolState.offer(offerable) : offered;
		const plan = (squeeze: boolean) => {
			const planned = guards.plan(
				options.systemPrompt,
				sendReasoning ? [...history, ...added] : withoutReasoning([...history, ...added]),
				offered,
				mode.mode === 'text',
				squeeze,
			);
			return nudge
				? { ...planned, messages: [...planned.messages, { kind: 'user' as const, content: nudge.text }] }
				: planned;
		};
		if (guards.overBudget(plan(false))) {
			const message = `This conversation no longer fits the model's context window (${settings.contextWindow} tokens, keel.model.contextWindow) even after compacting old tool outputs. Start a new chat.`;
			notice('error', 'contextBudget', message, true);
			return finish('failed', new AgentError('contextOverflow', message));
		}
		const request = (step: number, plan: (squeeze: boolean) => RequestPlan, avoidRepetition?: boolean) =>
			requestWithRecovery({
				turnId,
				step,
				model,
				signal,
				emit: options.emit,
				uniqueId,
				settings,
				budget,
				plan,
				offered,
				registry: options.registry,
				clock: options.clock ?? systemClock,
				random: options.random ?? Math.random,
				onNativeFailure: () => mode.nativeFailure(),
				onToolsUnsupported: why => {
					const switched = mode.forceText();
					if (switched) {
						const flag =
							why === 'vllm'
								? ' (vLLM serves native tool calls only when started with --enable-auto-tool-choice and --tool-call-parser)'
								: '';
						notice(
							'warning',
							'textMode',
							`The server does not take native tool calls for ${options.model.id.split('#').pop()}${flag}; switched to text-mode tool calls and sent the request again.`,
						);
					}
					return switched;
				},
				avoidRepetition,
				onReasoningRefused: () => {
					const was = sendReasoning;
					sendReasoning = false;
					return was;
				},
			});
		const result = await request(step, plan, nudge?.avoidRepetition);
		nudge = undefined;
		if (!result.ok) {
			// Keep what the user already saw: the partial answer stays in the history.
			if (result.partial) {
				append({ kind: 'assistant', content: result.partial });
			}
			return signal.aborted || result.error.code === 'cancelled'
				? finish('cancelled')
				: finish('failed', result.error);
		}
		let output = result.output;
		guards.checkTruncation(output.usage?.promptTokens);
		{
			// Provider counts where the server sent them; otherwise Keel's own estimate.
			const estimated = output.usage?.promptTokens === undefined;
			const promptTokens = output.usage?.promptTokens ?? guards.estimate;
			const completionTokens =
				output.usage?.completionTokens ??
				Math.ceil((output.text.length + output.calls.reduce((n, c) => n + c.rawArguments.length, 0)) / 4);
			turnRequests += 1;
			turnTokens += promptTokens + completionTokens;
			options.emit({
				type: 'usage',
				turnId,
				promptTokens,
				completionTokens,
				estimated,
				contextWindow: settings.contextWindow,
				turnRequests,
				turnTokens,
			});
		}
		let shortfall: Shortfall | undefined;
		let detail = '';
		if (settings.enabled) {
			const review = reviewResponse(output, {
				turnId,
				registry: options.registry,
				offered,
				mode,
				notice,
				emit: options.emit,
				makeId: (tag, i) => uniqueId(undefined, `${turnId}-s${step}-${tag}${i}`),
			});
			({ output, shortfall, detail } = review);
			if (review.followUp) {
				nudge = { text: review.followUp };
			}
		}
		if (shortfall) {
			if ((output.degenerate || shortfall === 'unofferedCall') && result.output.text) {
				// Fold what was shown: it stays visible as a discarded attempt, never as the answer.
				options.emit({ type: 'textRetracted', turnId, reason: 'retry' });
			}
			if (shortfalls++ === 0) {
				notice(
					'warning',
					'reask',
					`${shortfallLabel(shortfall, detail)}; asked it again with a correction${shortfall === 'degenerate' ? ' and sampling that discourages repetition' : ''}.`,
				);
				nudge = { text: nudgeText(shortfall, detail), avoidRepetition: shortfall === 'degenerate' };
				continue;
			}
			const message = `${shortfallLabel(shortfall, detail)}, again after a correction, so the turn ended with no answer. Rephrase the request, or try a larger model${shortfall === 'degenerate' ? ' or a lower temperature' : ''}.`;
			notice('error', 'noAnswer', message, true);
			return finish('failed', new AgentError('modelFormat', message));
		}
		shortfalls = 0;
		// Text mode: a reply ending in a ```bash block is a run_command call (approved like any other).
		if (mode.mode === 'text' && output.calls.length === 0 && offered.some(tool => tool.name === 'run_command')) {
			const fenced = fencedShellCommands(output.text);
			if (fenced.length) {
				options.emit({ type: 'textRetracted', turnId, reason: 'recovered' });
				if (fenced[0].prose) {
					options.emit({ type: 'textDelta', turnId, text: fenced[0].prose });
				}
				output = {
					...output,
					text: fenced[0].prose,
					calls: fenced.map((f, i) => ({
						id: uniqueId(undefined, `${turnId}-s${step}-b${i}`),
						name: 'run_command',
						rawArguments: JSON.stringify({ command: f.command }),
					})),
				};
			}
		}

		if (output.text) {
			append({ kind: 'assistant', content: output.text });
			if (settings.enabled && output.calls.length === 0 && looksDegenerate(output.text)) {
				notice(
					'warning',
					'degenerate',
					'The model repeated one phrase instead of answering. Ask again, or try a larger model or a lower temperature.',
				);
			}
		}
		if (noToolCalls()({ step, toolCalls: output.calls.length })) {
			return finish(signal.aborted ? 'cancelled' : 'completed');
		}

		// Every call is recorded before any runs, so an interruption leaves a call without a
		// result that can be answered "interrupted" later, never a result without a call.
		output.calls.forEach((call, i) => {
			const reasoning =
				i === 0 && output.reasoningField && output.reasoning
					? { text: output.reasoning, field: output.reasoningField }
					: undefined;
			append(
				toolCallMessage({
					id: call.id,
					name: call.name,
					rawArguments: call.rawArguments,
					arguments: safeParse(call.rawArguments),
					...(reasoning ? { reasoning } : {}),
				}),
			);
		});
		for (const call of output.calls) {
			const refused = guards.refuseRetry(call, options.registry);
			let raw = refused ?? (await runToolCall(call, { ...options, turnId, signal }));
			const pause = refused
				? undefined
				: guards.transientToolFailure(raw, options.registry.get(call.name)?.effect, 1);
			if (pause !== undefined && !signal.aborted) {
				notice(
					'info',
					'toolRetry',
					`${call.name} hit a passing failure; trying it once more in ${Math.max(1, Math.round(pause / 1000))} s.`,
				);
				await (options.clock ?? systemClock).sleep(pause, signal).catch(() => undefined);
				if (!signal.aborted) {
					raw = await runToolCall(call, { ...options, turnId, signal });
				}
			}
			if (refused) {
				options.emit({
					type: 'toolCallUpdated',
					turnId,
					call: {
						id: call.id,
						name: call.name,
						title: call.name,
						argumentsText: call.rawArguments,
						status: 'failed',
						output: refused.output,
					},
				});
			}
			append(toolResultMessage(guards.afterTool(call, raw, offered)));
		}
		if (signal.aborted) {
			return finish('cancelled');
		}
		if (guards.loopStopped) {
			const message = `Stopped: ${guards.loopDescription}. The model did not change approach after a warning.`;
			notice('error', 'loopStopped', message, true);
			return finish('failed', new AgentError('loopDetected', message));
		}
		if (guards.stepCapReached()) {
			const id = `${turnId}-continue-${step}`;
			const text = `Keel has made ${step} model requests in this turn (keel.agent.maxSteps = ${options.maxSteps}) without a final answer. Continue?`;
			options.emit({ type: 'continueRequested', turnId, id, text });
			const proceed = await askToContinue(options.continueDecider, { id, text }, signal);
			options.emit({ type: 'continueDecided', turnId, id, proceed });
			if (!proceed || signal.aborted) {
				const message = `Stopped after ${step} model steps (keel.agent.maxSteps) without a final answer. Send a message to continue, or raise the limit.`;
				notice('warning', 'stepLimit', message);
				if (signal.aborted) {
					return finish('cancelled');
				}
				if (settings.enabled && !options.continueDecider) {
					// Nobody to ask (and so nobody who said Stop): the model is told, in one last request
					// without tools, so it says where it got to. A user's Stop sends nothing more.
					const wrapUp = await request(step + 1, squeeze => {
						const planned = guards.plan(
							options.systemPrompt,
							[...history, ...added],
							offered,
							false,
							squeeze,
						);
						return {
							messages: [...planned.messages, { kind: 'user', content: stepLimitNote(step) }],
							tools: [],
						};
					});
					if (wrapUp.ok && wrapUp.output.text.trim()) {
						append({ kind: 'assistant', content: wrapUp.output.text });
					}
				}
				return finish('stepLimit', new AgentError('stepLimit', message));
			}
			guards.extendSteps();
			if (settings.enabled) {
				nudge = {
					text: `[Keel: the step limit was reached (${step} model requests in this turn); the user let you continue for up to ${options.maxSteps} more. Finish the task or give your answer soon.]`,
				};
			}
		}
	}
}

function withoutReasoning(messages: CanonicalMessage[]): CanonicalMessage[] {
	return messages.map(m =>
		m.kind === 'tool_call' && m.data.reasoning ? { ...m, data: { ...m.data, reasoning: undefined } } : m,
	);
}

function stepLimitNote(steps: number): string {
	return `[Keel: the step limit was reached (${steps} model requests in this turn); no more tools will run now. In a few sentences, tell the user what you did, what is left, and what to ask you next.]`;
}

function safeParse(raw: string): unknown {
	try {
		return JSON.parse(raw);
	} catch {
		return undefined;
	}
}
