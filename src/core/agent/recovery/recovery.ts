import type { NoticeCode } from '../noticeCodes';
import { AgentError, toAgentError } from '../../errors';
import type { CanonicalMessage } from '../../llm/canonical';
import type { ToolSpec } from '../../llm/chatModel';
import type { Clock } from '../../ports';
import type { ToolRegistry } from '../../tools/registry';
import { classifyFailure } from './failureTable';
import { recoverFromRaw } from './callRepair';
import { estimateTokens } from '../loop/guards';
import { runModelStep, type StepContext, type StepOutput } from '../loop/modelStep';
import type { RecoverySettings } from './recoverySettings';
import { retryDelayMs, type RetryBudget } from './retryBudget';
import { exampleArguments } from './textMode';

const MAX_UNREACHABLE_RETRIES = 3;
const UNREACHABLE_MAX_DELAY_MS = 2000;
const LONG_WAIT_MS = 10_000;

export interface RequestPlan {
	messages: CanonicalMessage[];
	tools: readonly ToolSpec[];
}

export interface RecoveryContext extends Omit<StepContext, 'messages' | 'tools' | 'onPartialText'> {
	settings: RecoverySettings;
	clock: Clock;
	random(): number;
	budget: RetryBudget;
	registry: ToolRegistry;
	/** Tools offered this step (also in text mode, where none are sent natively). */
	offered: readonly ToolSpec[];
	/** Builds the request; `squeeze` asks for a smaller one after a context overflow. */
	plan(squeeze: boolean): RequestPlan;
	/** A native tool-calling failure the server reported (feeds the auto → text switch). */
	onNativeFailure(): void;
	/** The server takes no native tools for this model: switch to text mode; false when already there. */
	onToolsUnsupported(why: string): boolean;
	/** Sampling that breaks repetition (the re-ask after degenerate output). */
	avoidRepetition?: boolean;
	/** The server refused reasoning sent back: stop sending it; false when it was already off. */
	onReasoningRefused?(): boolean;
}

export type RequestResult = { ok: true; output: StepOutput } | { ok: false; error: AgentError; partial: string };

/**
 * One model request with layers R1–R3 around it: backoff on transient failures, replay of
 * broken or stalled streams (their partial text retracted), recovery or reflection of
 * server-side tool-call parse errors, one squeeze on context overflow. Everything is a notice.
 */
export async function requestWithRecovery(ctx: RecoveryContext): Promise<RequestResult> {
	const notice = (level: 'info' | 'warning' | 'error', code: NoticeCode, text: string, notify?: boolean) =>
		ctx.emit({ type: 'notice', turnId: ctx.turnId, level, code, text, notify });
	let reflections = 0;
	let squeeze = false;
	let attempt = 0;
	let unreachable = 0;
	let extra: CanonicalMessage[] = [];
	for (;;) {
		if (ctx.signal.aborted) {
			// Stopped while waiting to retry: no further request.
			return { ok: false, error: new AgentError('cancelled', 'Stopped.'), partial: '' };
		}
		let partial = '';
		const plan = ctx.plan(squeeze);
		try {
			const output = await runModelStep({
				...ctx,
				messages: [...plan.messages, ...extra],
				tools: plan.tools,
				onPartialText: text => (partial = text),
				stopDegenerate: ctx.settings.enabled,
			});
			if (ctx.signal.aborted) {
				// Some SDKs end an aborted stream quietly; what arrived is not a complete response.
				return { ok: false, error: new AgentError('cancelled', 'Stopped.'), partial };
			}
			return { ok: true, output };
		} catch (thrown) {
			const error = toAgentError(thrown);
			const c = classifyFailure(error, ctx.clock.now);
			if (ctx.signal.aborted || c.failureClass === 'cancelled') {
				return { ok: false, error: new AgentError('cancelled', 'Stopped.'), partial };
			}
			const giveUp = (why?: string) => ({
				ok: false as const,
				error: why ? new AgentError(error.code, `${error.message} ${why}`, error.details) : error,
				partial,
			});
			if (c.failureClass === 'billing' && ctx.settings.enabled) {
				return giveUp(
					'This is a billing or balance problem, not a rate limit, so Keel does not retry it: top up the account or choose another model.',
				);
			}
			if (!ctx.settings.enabled || c.action === 'stop') {
				return giveUp();
			}
			if (c.failureClass === 'format') {
				ctx.onNativeFailure();
				const recovered = c.raw === undefined ? undefined : recoverFromRaw(c.raw, ctx.offered, ctx.registry);
				if (recovered) {
					retract(ctx, partial, 'recovered');
					notice(
						'info',
						'recoveredFromError',
						`Recovered the ${recovered.map(call => call.name).join(', ')} call from the server's parse error (HTTP ${c.status}).`,
					);
					const calls = recovered.map((call, i) => ({
						...call,
						id: ctx.uniqueId(undefined, `${ctx.turnId}-s${ctx.step}-r${i}`),
					}));
					return {
						ok: true,
						output: { text: '', calls, finishReason: 'tool_calls', reasoning: '', harmonyCalls: [] },
					};
				}
				if (reflections >= ctx.settings.reflectionsPerRequest || !ctx.budget.take()) {
					return giveUp(`Gave up after ${reflections} correction(s) (keel.recovery.reflectionsPerRequest).`);
				}
				reflections++;
				retract(ctx, partial, 'retry');
				extra = [{ kind: 'user', content: reflectionText(c.raw, error.message, ctx.offered) }];
				notice(
					'warning',
					'reflection',
					`${c.label}: asked the model to correct its tool call (${reflections}/${ctx.settings.reflectionsPerRequest}, budget ${ctx.budget.label}).`,
				);
				await sleep(ctx, ctx.settings.reflectionDelayMs);
				continue;
			}
			if (c.action === 'dropReasoning') {
				if (!ctx.onReasoningRefused?.()) {
					return giveUp();
				}
				notice(
					'info',
					'reasoningDropped',
					"The server did not accept the model's earlier reasoning sent back with its calls; sent the request again without it.",
				);
				continue;
			}
			if (c.action === 'textMode') {
				if (
					!ctx.onToolsUnsupported(
						c.status === 400 && /enable-auto-tool-choice|tool-call-parser/i.test(error.message)
							? 'vllm'
							: 'server',
					)
				) {
					return giveUp('Text-mode tool calls were already in use.');
				}
				retract(ctx, partial, 'retry');
				continue;
			}
			if (c.action === 'compact') {
				if (squeeze) {
					const sent = estimateTokens(plan.messages, plan.tools);
					return giveUp(
						`Keel sent about ${sent} tokens after compacting old tool outputs (keel.model.contextWindow = ${ctx.settings.contextWindow}). Start a new chat, or raise the server's context size (Ollama num_ctx / OLLAMA_CONTEXT_LENGTH, llama.cpp --ctx-size, vLLM --max-model-len).`,
					);
				}
				squeeze = true;
				notice(
					'warning',
					'contextOverflow',
					"The request did not fit the model's context window; old tool outputs were compacted and it was sent again.",
				);
				continue;
			}
			// R1 and R2: the same request again after a pause. Nothing listening is usually a
			// server that is not running (or restarting): a few quick tries, then say how to start it.
			if (error.code === 'modelUnreachable' && ++unreachable > MAX_UNREACHABLE_RETRIES) {
				return giveUp(`Gave up after ${MAX_UNREACHABLE_RETRIES} retries.`);
			}
			if (!ctx.budget.take()) {
				return giveUp(`Gave up after ${ctx.budget.max} retries this turn (keel.recovery.maxRetriesPerTurn).`);
			}
			attempt++;
			retract(ctx, partial, 'retry');
			const quick = c.action === 'retryStream' || error.code === 'modelUnreachable';
			const delay = quick
				? Math.min(retryDelayMs(attempt, ctx.settings, undefined, ctx.random), UNREACHABLE_MAX_DELAY_MS)
				: retryDelayMs(attempt, ctx.settings, c.retryAfterMs, ctx.random);
			const when = delay >= 1000 ? `in ${Math.round(delay / 1000)} s` : 'now';
			const why =
				c.action === 'retryStream' ? `${c.label}${partial ? ' (partial answer discarded)' : ''}` : c.label;
			// A long wait is worth a notification (with Cancel): the user may be looking elsewhere.
			notice(
				'warning',
				c.action === 'retryStream' ? 'streamRetry' : 'transportRetry',
				`${why}, retrying ${when} — ${ctx.budget.label}`,
				delay >= LONG_WAIT_MS || undefined,
			);
			await sleep(ctx, delay);
		}
	}
}

function retract(ctx: RecoveryContext, partial: string, reason: 'retry' | 'recovered'): void {
	if (partial) {
		ctx.emit({ type: 'textRetracted', turnId: ctx.turnId, reason });
	}
}

async function sleep(ctx: RecoveryContext, ms: number): Promise<void> {
	if (ms > 0) {
		await ctx.clock.sleep(ms, ctx.signal).catch(() => undefined);
	}
}

/** What went wrong, what the model wrote, and a call it can copy. */
export function reflectionText(raw: string | undefined, serverMessage: string, tools: readonly ToolSpec[]): string {
	const example = tools[0]
		? JSON.stringify({ name: tools[0].name, arguments: exampleArguments(tools[0].parameters) })
		: '';
	return [
		'Your last tool call could not be parsed, so nothing ran.',
		raw !== undefined ? `You wrote: ${raw.slice(0, 400)}` : `The server said: ${serverMessage.slice(0, 300)}`,
		'Call the tool again with the name of one of the offered tools and its arguments as one JSON object matching its schema.',
		example ? `Example: ${example}` : '',
	]
		.filter(Boolean)
		.join('\n');
}
