import type { NoticeCode } from '../noticeCodes';
import { AgentError, toAgentError } from '../../errors';
import type { CanonicalMessage } from '../../llm/canonical';
import type { ToolSpec } from '../../llm/chatModel';
import type { Clock } from '../../ports';
import type { ToolRegistry } from '../../tools/registry';
import { classifyFailure, type Classification } from './failureTable';
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
	/** Keeps a correction in the history where it was sent, so later requests extend this one. */
	onCorrection?(text: string): void;
}

export type RequestResult = { ok: true; output: StepOutput } | { ok: false; error: AgentError; partial: string };

/**
 * One model request with layers R1–R3 around it: backoff on transient failures, replay of
 * broken or stalled streams (their partial text retracted), recovery or reflection of
 * server-side tool-call parse errors, one squeeze on context overflow. Everything is a notice.
 */
export async function requestWithRecovery(ctx: RecoveryContext): Promise<RequestResult> {
	const attempts: Attempts = { reflections: 0, squeeze: false, retries: 0, unreachable: 0, extra: [] };
	for (;;) {
		if (ctx.signal.aborted) {
			// Stopped while waiting to retry: no further request.
			return cancelled('');
		}
		let partial = '';
		const plan = ctx.plan(attempts.squeeze);
		try {
			const output = await runModelStep({
				...ctx,
				messages: [...plan.messages, ...attempts.extra],
				tools: plan.tools,
				onPartialText: text => (partial = text),
				stopDegenerate: ctx.settings.enabled,
			});
			// Some SDKs end an aborted stream quietly; what arrived is not a complete response.
			return ctx.signal.aborted ? cancelled(partial) : { ok: true, output };
		} catch (thrown) {
			const failure = failureOf(thrown, ctx, plan, partial);
			const settled = await recover(failure, attempts, ctx);
			if (settled) {
				return settled;
			}
		}
	}
}

/** What the retries of one request have used so far. */
interface Attempts {
	reflections: number;
	/** The server said the request was too long: plan a smaller one (once). */
	squeeze: boolean;
	/** Transport and stream retries (R1, R2), for the backoff. */
	retries: number;
	unreachable: number;
	/** The correction sent after the request (a reflection), not kept in the history. */
	extra: CanonicalMessage[];
}

/** One failed attempt: the error, what the table says about it, and what the user saw of it. */
interface Failure {
	error: AgentError;
	c: Classification;
	plan: RequestPlan;
	partial: string;
	notice(level: 'info' | 'warning' | 'error', code: NoticeCode, text: string, notify?: boolean): void;
	/** The request fails for good, the reason added to the error's message. */
	giveUp(why?: string): RequestResult;
}

function failureOf(thrown: unknown, ctx: RecoveryContext, plan: RequestPlan, partial: string): Failure {
	const error = toAgentError(thrown);
	return {
		error,
		c: classifyFailure(error, ctx.clock.now),
		plan,
		partial,
		notice: (level, code, text, notify) =>
			ctx.emit({ type: 'notice', turnId: ctx.turnId, level, code, text, notify }),
		giveUp: why => ({
			ok: false,
			error: why ? new AgentError(error.code, `${error.message} ${why}`, error.details) : error,
			partial,
		}),
	};
}

/** Decides what a failed attempt leads to: a result to return, or undefined to send again. */
async function recover(f: Failure, attempts: Attempts, ctx: RecoveryContext): Promise<RequestResult | undefined> {
	const { c } = f;
	if (ctx.signal.aborted || c.failureClass === 'cancelled') {
		return cancelled(f.partial);
	}
	if (c.failureClass === 'billing' && ctx.settings.enabled) {
		return f.giveUp(
			'This is a billing or balance problem, not a rate limit, so Keel does not retry it: top up the account or choose another model.',
		);
	}
	if (!ctx.settings.enabled || c.action === 'stop') {
		return f.giveUp();
	}
	if (c.failureClass === 'format') {
		return reflect(f, attempts, ctx);
	}
	switch (c.action) {
		case 'dropReasoning':
			return dropReasoning(f, ctx);
		case 'textMode':
			return textMode(f, ctx);
		case 'compact':
			return compact(f, attempts, ctx);
		default:
			return backOff(f, attempts, ctx);
	}
}

/** R3: the server could not parse the model's call. Recover it from the raw text, or ask the model to correct it. */
async function reflect(f: Failure, attempts: Attempts, ctx: RecoveryContext): Promise<RequestResult | undefined> {
	const { c } = f;
	ctx.onNativeFailure();
	const recovered = c.raw === undefined ? undefined : recoverFromRaw(c.raw, ctx.offered, ctx.registry);
	if (recovered) {
		retract(ctx, f.partial, 'recovered');
		f.notice(
			'info',
			'recoveredFromError',
			`Recovered the ${recovered.map(call => call.name).join(', ')} call from the server's parse error (HTTP ${c.status}).`,
		);
		const calls = recovered.map((call, i) => ({
			...call,
			id: ctx.uniqueId(undefined, `${ctx.turnId}-s${ctx.step}-r${i}`),
		}));
		return { ok: true, output: { text: '', calls, finishReason: 'tool_calls', reasoning: '', harmonyCalls: [] } };
	}
	if (attempts.reflections >= ctx.settings.reflectionsPerRequest || !ctx.budget.take()) {
		return f.giveUp(`Gave up after ${attempts.reflections} correction(s) (keel.recovery.reflectionsPerRequest).`);
	}
	attempts.reflections++;
	retract(ctx, f.partial, 'retry');
	const correction = reflectionText(c.raw, f.error.message, ctx.offered);
	if (ctx.onCorrection) {
		ctx.onCorrection(correction);
	} else {
		attempts.extra = [{ kind: 'user', content: correction }];
	}
	f.notice(
		'warning',
		'reflection',
		`${c.label}: asked the model to correct its tool call (${attempts.reflections}/${ctx.settings.reflectionsPerRequest}, budget ${ctx.budget.label}).`,
	);
	await pause(ctx, ctx.settings.reflectionDelayMs);
	return undefined;
}

function dropReasoning(f: Failure, ctx: RecoveryContext): RequestResult | undefined {
	if (!ctx.onReasoningRefused?.()) {
		return f.giveUp();
	}
	f.notice(
		'info',
		'reasoningDropped',
		"The server did not accept the model's earlier reasoning sent back with its calls; sent the request again without it.",
	);
	return undefined;
}

function textMode(f: Failure, ctx: RecoveryContext): RequestResult | undefined {
	const vllm = f.c.status === 400 && /enable-auto-tool-choice|tool-call-parser/i.test(f.error.message);
	if (!ctx.onToolsUnsupported(vllm ? 'vllm' : 'server')) {
		return f.giveUp('Text-mode tool calls were already in use.');
	}
	retract(ctx, f.partial, 'retry');
	return undefined;
}

function compact(f: Failure, attempts: Attempts, ctx: RecoveryContext): RequestResult | undefined {
	if (attempts.squeeze) {
		const sent = estimateTokens(f.plan.messages, f.plan.tools);
		return f.giveUp(
			`Keel sent about ${sent} tokens after compacting old tool outputs (keel.model.contextWindow = ${ctx.settings.contextWindow}). Start a new chat, or raise the server's context size (Ollama num_ctx / OLLAMA_CONTEXT_LENGTH, llama.cpp --ctx-size, vLLM --max-model-len).`,
		);
	}
	attempts.squeeze = true;
	f.notice(
		'warning',
		'contextOverflow',
		"The request did not fit the model's context window; old tool outputs were compacted and it was sent again.",
	);
	return undefined;
}

/**
 * R1 and R2: the same request again after a pause. Nothing listening is usually a server that
 * is not running (or restarting): a few quick tries, then say how to start it.
 */
async function backOff(f: Failure, attempts: Attempts, ctx: RecoveryContext): Promise<RequestResult | undefined> {
	const { c, error, partial } = f;
	if (error.code === 'modelUnreachable' && ++attempts.unreachable > MAX_UNREACHABLE_RETRIES) {
		return f.giveUp(`Gave up after ${MAX_UNREACHABLE_RETRIES} retries.`);
	}
	if (!ctx.budget.take()) {
		return f.giveUp(`Gave up after ${ctx.budget.max} retries this turn (keel.recovery.maxRetriesPerTurn).`);
	}
	attempts.retries++;
	retract(ctx, partial, 'retry');
	const quick = c.action === 'retryStream' || error.code === 'modelUnreachable';
	const delay = quick
		? Math.min(retryDelayMs(attempts.retries, ctx.settings, undefined, ctx.random), UNREACHABLE_MAX_DELAY_MS)
		: retryDelayMs(attempts.retries, ctx.settings, c.retryAfterMs, ctx.random);
	const when = delay >= 1000 ? `in ${Math.round(delay / 1000)} s` : 'now';
	const why = c.action === 'retryStream' ? `${c.label}${partial ? ' (partial answer discarded)' : ''}` : c.label;
	// A long wait is worth a notification (with Cancel): the user may be looking elsewhere.
	f.notice(
		'warning',
		c.action === 'retryStream' ? 'streamRetry' : 'transportRetry',
		`${why}, retrying ${when} — ${ctx.budget.label}`,
		delay >= LONG_WAIT_MS || undefined,
	);
	await pause(ctx, delay);
	return undefined;
}

function cancelled(partial: string): RequestResult {
	return { ok: false, error: new AgentError('cancelled', 'Stopped.'), partial };
}

function retract(ctx: RecoveryContext, partial: string, reason: 'retry' | 'recovered'): void {
	if (partial) {
		ctx.emit({ type: 'textRetracted', turnId: ctx.turnId, reason });
	}
}

async function pause(ctx: RecoveryContext, ms: number): Promise<void> {
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
