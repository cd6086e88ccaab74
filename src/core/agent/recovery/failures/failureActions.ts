import { AgentError } from '../../../errors';
import type { ToolSpec } from '../../../llm/chatModel';
import { estimateTokens } from '../../guards/guards';
import { serverHints } from '../../../llm/stream/serverHints';
import { recoverFromRaw } from '../review/callRepair';
import type { Classification } from './failureTable';
import { stopAdvice } from './failureAdvice';
import type { RecoveryContext, RequestResult } from '../recoveryContext';
import { retryDelayMs, type RetryBudget } from './retryBudget';
import { exampleArguments } from '../review/textMode';
import { simplifyTools } from './schemaRefusal';
import { giveUp, retract } from './giveUp';
import type { Attempt, Failure } from './failure';

const MAX_UNREACHABLE_RETRIES = 3;
/** An error nobody recognises is sent again at most this often, then shown as it came. */
export const MAX_UNKNOWN_RETRIES = 2;
const UNREACHABLE_MAX_DELAY_MS = 2000;
const LONG_WAIT_MS = 10_000;

// What one failure is handed, in a file of its own so each failure's handler can name it too.
export type { Attempt, Failure };

/** Decides what one failure leads to: a final result, or undefined to send the request again. */
export async function handleFailure(f: Failure): Promise<RequestResult | undefined> {
	const { ctx, c } = f;
	if (ctx.signal.aborted || c.failureClass === 'cancelled') {
		return { ok: false, error: new AgentError('cancelled', 'Stopped.'), partial: f.partial };
	}
	if (!ctx.settings.enabled) {
		return giveUp(f);
	}
	if (ctx.toolChoice && refusesForcing(f)) {
		return { ...giveUp(f), forceRefused: true };
	}
	switch (c.action) {
		case 'stop':
			return giveUp(f, stopAdvice(c, ctx.settings, ctx.clock.now()));
		case 'reflect':
			return reflect(f);
		case 'dropReasoning':
			if (!ctx.onReasoningRefused?.()) {
				return giveUp(f);
			}
			f.notice(
				'info',
				'reasoningDropped',
				"The server did not accept the model's earlier reasoning sent back with its calls; sent the request again without it.",
			);
			return undefined;
		case 'textMode':
			if (
				!ctx.onToolsUnsupported(/enable-auto-tool-choice|tool-call-parser/i.test(c.words) ? 'vllm' : 'server')
			) {
				return giveUp(f, 'Text-mode tool calls were already in use.');
			}
			retract(ctx, f.partial, 'retry');
			return undefined;
		case 'simplifyTools':
			return simplifyTools(f);
		case 'compact':
			return compact(f);
		case 'lowerMaxTokens':
			return lowerMaxTokens(f);
		case 'retry':
		case 'retryStream':
		case 'retryUnknown':
			return retry(f);
	}
}

/**
 * A forced request the server turned down as a request (a 4xx, or 501), for what it asked rather
 * than for its size, its account or a passing fault: the forced call is what it refused.
 */
function refusesForcing(f: Failure): boolean {
	const status = f.c.status;
	const clientError =
		status !== undefined &&
		((status >= 400 && status < 500 && ![408, 425, 429].includes(status)) || status === 501);
	const notAboutForcing = new Set([
		'contextOverflow',
		'outputBudget',
		'billing',
		'outOfMemory',
		'format',
		'cancelled',
	]);
	return clientError && !notAboutForcing.has(f.c.failureClass) && status !== 401 && status !== 403 && status !== 404;
}

/** R3: a call recovered from the server's parse error runs; otherwise the model is told what was wrong. */
async function reflect(f: Failure): Promise<RequestResult | undefined> {
	const { ctx, c, attempt } = f;
	ctx.onNativeFailure();
	const recovered = recoverFromFailure(c, ctx);
	if (recovered) {
		retract(ctx, f.partial, 'recovered');
		const where = c.status ? `HTTP ${c.status}` : 'inside the response';
		f.notice(
			'info',
			'recoveredFromError',
			`Recovered the ${recovered.map(call => call.name).join(', ')} call from the server's parse error (${where}).`,
		);
		const calls = recovered.map((call, i) => ({
			...call,
			id: ctx.uniqueId(undefined, `${ctx.turnId}-s${ctx.step}-r${i}`),
		}));
		return { ok: true, output: { text: '', calls, finishReason: 'tool_calls', reasoning: '', harmonyCalls: [] } };
	}
	const limit = retryLimit(ctx.settings.reflectionsPerRequest - attempt.reflections, ctx.budget);
	if (!limit.canRetry || !ctx.budget.take()) {
		const cap = `keel.recovery.reflectionsPerRequest = ${ctx.settings.reflectionsPerRequest}`;
		return giveUp(f, gaveUp(ctx.budget, limit.bound(cap)));
	}
	attempt.reflections++;
	retract(ctx, f.partial, 'retry');
	const correction = reflectionText(c.raw, c.words, ctx.offered);
	if (ctx.onCorrection) {
		ctx.onCorrection(correction);
	} else {
		attempt.extra = [{ kind: 'user', content: correction }];
	}
	f.notice(
		'warning',
		'reflection',
		`${c.label}: asked the model to correct its tool call — ${ctx.budget.used}/${limit.max}`,
	);
	await pause(ctx, ctx.settings.reflectionDelayMs);
	return undefined;
}

/** The model's call out of the error: its raw text (Ollama, llama.cpp), or any field of the body (Groq's failed_generation). */
function recoverFromFailure(c: Classification, ctx: RecoveryContext) {
	const candidates = [...(c.raw !== undefined ? [c.raw] : []), ...c.leaves.filter(leaf => leaf !== c.raw)];
	for (const text of candidates) {
		const found = recoverFromRaw(text, ctx.offered, ctx.registry, text === c.raw);
		if (found) {
			return found;
		}
	}
	return undefined;
}

function compact(f: Failure): RequestResult | undefined {
	const { ctx, attempt } = f;
	if (attempt.squeeze) {
		const sent = estimateTokens(f.plan.messages, f.plan.tools);
		if (f.c.cap !== undefined) {
			return giveUp(
				f,
				`The server allows ${f.c.cap} tokens and Keel sent about ${sent} after compacting old tool outputs; waiting does not change that. Choose a smaller keel.model.contextWindow, a plan or tier with a higher limit, or another model.`,
			);
		}
		return giveUp(
			f,
			`Keel sent about ${sent} tokens after compacting old tool outputs (keel.model.contextWindow = ${ctx.settings.contextWindow}). Start a new chat, or ${ctx.settings.serverContextHint ?? serverHints('custom').context}.`,
		);
	}
	attempt.squeeze = true;
	attempt.squeezeTo = f.c.serverWindow ?? f.c.cap;
	f.notice(
		'warning',
		'contextOverflow',
		"The request did not fit the model's context window; old tool outputs were compacted and it was sent again.",
	);
	return undefined;
}

/** The server refused the output budget asked for: ask once for what it said it allows (or half). */
function lowerMaxTokens(f: Failure): RequestResult | undefined {
	const { ctx, attempt, c } = f;
	const asked = f.maxTokens ?? ctx.settings.contextWindow;
	const lower = Math.floor(Math.min(c.cap ?? asked / 2, asked - 1));
	if (attempt.outputCap !== undefined || lower < 256) {
		return giveUp(
			f,
			`The server refused an output budget of ${asked} tokens${attempt.outputCap !== undefined ? ` and of ${attempt.outputCap}` : ''}: raise the server's context size, or choose a model with a larger output limit.`,
		);
	}
	attempt.outputCap = lower;
	f.notice(
		'warning',
		'outputBudget',
		`The server refused max_tokens ${asked} ("${c.words.slice(0, 160)}"); sent the request again asking for ${lower}.`,
	);
	return undefined;
}

/** R1 and R2, and errors nobody recognises (at most twice): the same request again after a pause. */
async function retry(f: Failure): Promise<RequestResult | undefined> {
	const { ctx, attempt, c, error } = f;
	// Nothing listening is usually a server that is not running (or restarting): a few quick tries, then say how to start it.
	// An error nobody recognises is sent again at most MAX_UNKNOWN_RETRIES times, then shown as it came.
	const unreachable = error.code === 'modelUnreachable';
	const unknown = c.action === 'retryUnknown';
	const kindLeft = unreachable
		? MAX_UNREACHABLE_RETRIES - attempt.unreachable
		: unknown
			? MAX_UNKNOWN_RETRIES - attempt.unknown
			: Infinity;
	const limit = retryLimit(kindLeft, ctx.budget);
	if (!limit.canRetry || !ctx.budget.take()) {
		if (unknown && !limit.byBudget) {
			return giveUp(
				f,
				`Keel does not recognise this error; it was sent ${attempt.unknown + 1} times and failed each time, so these are the server's own words.`,
			);
		}
		return giveUp(f, gaveUp(ctx.budget, limit.bound('the server is not answering')));
	}
	attempt.unknown += unknown ? 1 : 0;
	attempt.retries++;
	attempt.unreachable += unreachable ? 1 : 0;
	retract(ctx, f.partial, 'retry');
	const quick = c.action !== 'retry' || error.code === 'modelUnreachable';
	const delay = quick
		? Math.min(retryDelayMs(attempt.retries, ctx.settings, undefined, ctx.random), UNREACHABLE_MAX_DELAY_MS)
		: retryDelayMs(attempt.retries, ctx.settings, c.retryAfterMs, ctx.random);
	const when = delay >= 1000 ? `in ${Math.round(delay / 1000)} s` : 'now';
	const why = `${c.label}${f.partial ? ' (partial answer discarded)' : ''}`;
	// A long wait is worth a notification (with Cancel): the user may be looking elsewhere.
	const inStream = c.action === 'retryStream' || error.details.inStream === true;
	f.notice(
		'warning',
		inStream ? 'streamRetry' : 'transportRetry',
		`${why}, retrying ${when} — ${ctx.budget.used}/${limit.max}`,
		delay >= LONG_WAIT_MS || undefined,
	);
	await pause(ctx, delay);
	return undefined;
}

/**
 * The turn's retries of every kind share one count, shown on every retry line as "k/N": N is
 * the retries the turn has made plus what is left before a limit stops it (the turn's budget, or
 * this kind's own cap), so the last line before a give-up reads "N/N" and the give-up names the
 * same N and the limit that ended it: never "1/6 … gave up after 3".
 */
function retryLimit(
	kindLeft: number,
	budget: RetryBudget,
): { canRetry: boolean; byBudget: boolean; max: number; bound(capName: string): string } {
	const left = budget.max - budget.used;
	const byBudget = left <= kindLeft;
	return {
		canRetry: Math.min(left, kindLeft) > 0,
		byBudget,
		max: budget.used + 1 + Math.max(0, Math.min(kindLeft, left) - 1),
		bound: capName =>
			byBudget ? `the turn's retries are used up (keel.recovery.maxRetriesPerTurn = ${budget.max})` : capName,
	};
}

function gaveUp(budget: RetryBudget, because: string): string {
	const count = budget.used;
	return count === 0
		? `No retry was left: ${because}.`
		: `Gave up after ${count} ${count === 1 ? 'retry' : 'retries'} this turn: ${because}.`;
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
