import type { ToolResultData } from '../../llm/canonical';
import { systemClock, type Clock, type Workspace } from '../../ports';
import type { Preparation, Subject, ToolContext, ToolDefinition, ToolResult } from '../../tools/defineTool';
import { CallMismatch, PathRefused } from '../../gate/paths/paths';
import { redactPreview, StreamRedactor } from '../../gate/redact/redact';
import type { ToolRegistry } from '../../tools/registry';
import { UrlRefused } from '../../gate/network/urls';
import type { Approver } from '../approval/approvalGate';
import { decidePermission, type ApprovalSettings } from '../approval/approvalPolicy';
import { approveCall } from '../approval/callApproval';
import type { AgentEvent, ToolCallState } from '../events';
import type { ToolPolicy } from '../toolPolicy/toolPolicy';
import { executeWithRetry, type ToolRetrySettings } from '../recovery/toolRetry';
import type { StepCall } from './modelStep';
import { ToolCard } from './toolCard';
import { bringBack } from './writesBack';
import { cardArguments, droppedArgumentChars, oversizedMessage } from './callBounds';
import { onAbort } from '../../util/abort';

export interface ToolRunContext {
	turnId: string;
	registry: ToolRegistry;
	/** The session's tool policy: refuses blocked calls, prepares arguments, counts failures. */
	toolPolicy?: ToolPolicy;
	approvals: Approver | undefined;
	approvalSettings: ApprovalSettings;
	workspace: Workspace;
	signal: AbortSignal;
	emit(event: AgentEvent): void;
	/** Scopes stored outputs (read_output) to the conversation. */
	sessionId?: string;
	/** Retries of reads and fetches after a passing failure (toolRetry.ts); none when left out. */
	retry?: ToolRetrySettings;
	clock?: Clock;
	/** Where a call a Stop left running is recorded (the turn's list); none when nobody waits for it. */
	abandoned?: Set<Promise<unknown>>;
}

/**
 * Validate → policy → approval → execute, for one call. Never throws: every outcome, a
 * denial or a crash included, becomes a result the model reads. `ahead` is the same call
 * started before its turn (runAhead): its preparation and execution are taken from there, and
 * everything that depends on the calls before it (the policy's refusal, the approval, the
 * result the card and the policy record) is decided here, in call order, as if it ran now.
 */
export async function runToolCall(call: StepCall, ctx: ToolRunContext, ahead?: AheadRun): Promise<ToolResultData> {
	const policy = ctx.toolPolicy?.session(ctx.sessionId ?? '');
	const refusal = policy?.refuse(call.name, new Set(ctx.registry.list().map(t => t.name)));
	const oversized = droppedArgumentChars(call.rawArguments);
	if (refusal !== undefined || oversized !== undefined) {
		// What started early is not this call's outcome: it stops, and its card says only this.
		ahead?.drop();
		const card = new ToolCard(call, ctx.turnId, ctx.emit, policy);
		return refusal !== undefined
			? card.fail(refusal, 'blocked')
			: card.fail(oversizedMessage(oversized!), 'invalidArguments');
	}
	const card = ahead?.run.card ?? new ToolCard(call, ctx.turnId, ctx.emit, policy);
	let run = ahead?.run;
	if (!run) {
		const rawArguments = policy ? policy.prepareArguments(call.name, call.rawArguments) : call.rawArguments;
		const parsed = ctx.registry.parse(call.name, rawArguments);
		if (!parsed.ok) {
			return card.fail(parsed.message, parsed.errorKind);
		}
		run = parsedCall(parsed.tool, parsed.input, ctx, card);
	}
	const looked = await (ahead?.looked ?? prepareCall(run));
	if ('error' in looked) {
		return failedWith(run, looked.error);
	}
	const refused = await approveCall({
		id: call.id,
		tool: run.tool,
		input: run.input,
		prepared: looked.prepared,
		settings: ctx.approvalSettings,
		approvals: ctx.approvals,
		signal: ctx.signal,
		card,
		notice: (level, code, text) => ctx.emit({ type: 'notice', turnId: ctx.turnId, level, code, text }),
	});
	if (refused) return refused;
	const executed = await ((await ahead?.executed) ?? executeCall(run, looked.prepared));
	// A command on a copied workspace hands its changes back as file-tool calls, each decided here like any call.
	return finishCall(
		run,
		'result' in executed
			? { result: await bringBack(call, executed.result, back => runToolCall(back, ctx)) }
			: executed,
	);
}

/** A call started before the calls ahead of it finished: only a read that needs no approval gets this far. */
export interface AheadRun {
	run: ParsedCall;
	looked: Promise<Looked>;
	/** The execution, when the preparation showed the call runs without asking; undefined otherwise. */
	executed: Promise<Executed | undefined>;
	/** Settles when nothing of the call is running any more. */
	settled: Promise<unknown>;
	/** The call is not run after all: it is stopped (recorded as abandoned if it goes on) and its card hears no more of it. */
	drop(): void;
}

/**
 * Starts `call` now, beside the calls before it, when it only reads (the tool's declared effect,
 * or what the tool proves of this call: `readsOnly`), passes validation, is not refused by the
 * session's policy, and (once prepared) needs no approval. Undefined when it must wait its turn.
 * Nothing here records an outcome: runToolCall does, in call order.
 */
export function runAhead(call: StepCall, ctx: ToolRunContext): AheadRun | undefined {
	const policy = ctx.toolPolicy?.session(ctx.sessionId ?? '');
	if (
		ctx.signal.aborted ||
		policy?.refuse(call.name, new Set(ctx.registry.list().map(t => t.name))) ||
		droppedArgumentChars(call.rawArguments) !== undefined
	) {
		return undefined;
	}
	const rawArguments = policy ? policy.prepareArguments(call.name, call.rawArguments) : call.rawArguments;
	const parsed = ctx.registry.parse(call.name, rawArguments);
	if (!parsed.ok || !readsOnly(parsed.tool, parsed.input)) {
		return undefined;
	}
	// Its own Stop (the turn's, or being dropped) and its own voice, which a drop silences.
	const own = new AbortController();
	const forwarding = onAbort(ctx.signal, () => own.abort());
	let heard = true;
	let spoke = false;
	const emit = (event: AgentEvent) => {
		spoke ||= event.type === 'toolCallUpdated';
		if (heard) ctx.emit(event);
	};
	const runCtx: ToolRunContext = { ...ctx, signal: own.signal, emit };
	const run = parsedCall(parsed.tool, parsed.input, runCtx, new ToolCard(call, ctx.turnId, emit, policy));
	const looked = prepareCall(run);
	const executed = looked.then(found =>
		'prepared' in found &&
		decidePermission(run.tool, run.input, ctx.approvalSettings, found.prepared).verdict === 'allow'
			? executeCall(run, found.prepared)
			: undefined,
	);
	const settled = executed.finally(() => forwarding.dispose());
	return {
		run,
		looked,
		executed,
		settled,
		drop: () => {
			if (heard && spoke) {
				// The card said it was running: it now says why it stopped (the call's own turn may still run it).
				const output = 'Stopped: the model changed its reply before this call took its turn.';
				const state = { ...run.card.state, status: 'cancelled' as const, progress: undefined, output };
				ctx.emit({ type: 'toolCallUpdated', turnId: ctx.turnId, call: state });
			}
			heard = false;
			own.abort();
		},
	};
}

/** Whether a call started early is the call the step asks for: the same card, tool and arguments. */
export function isTheStepsCall(a: StepCall, b: StepCall): boolean {
	return a.id === b.id && a.name === b.name && a.rawArguments === b.rawArguments;
}

/** Whether this call of `tool` only reads: what it proves of this input, else its declared effect. */
function readsOnly(tool: ToolDefinition, input: unknown): boolean {
	try {
		return tool.readsOnly?.(input) ?? tool.effect === 'read';
	} catch {
		return false;
	}
}

/** A call whose arguments passed validation, with the card it reports to. */
interface ParsedCall {
	tool: ToolDefinition;
	input: unknown;
	ctx: ToolRunContext;
	card: ToolCard;
	/** What `prepare` and `execute` are given; progress streams into the card, redacted. */
	toolContext(prepared?: Preparation): ToolContext;
}

function parsedCall(tool: ToolDefinition, input: unknown, ctx: ToolRunContext, card: ToolCard): ParsedCall {
	card.state.effect = tool.effect;
	card.state.argumentsText = cardArguments(JSON.stringify(input, null, 2));
	try {
		card.state.title = tool.describe(input);
	} catch {
		card.state.title = tool.name;
	}
	const stream = new StreamRedactor();
	return {
		tool,
		input,
		ctx,
		card,
		toolContext: prepared => ({
			workspace: ctx.workspace,
			signal: ctx.signal,
			sessionId: ctx.sessionId,
			prepared,
			recheck: (subjects: Subject[], asTool = tool.name) =>
				decidePermission({ ...tool, name: asTool, subjects: () => subjects }, input, ctx.approvalSettings)
					.verdict,
			// The live stream shows what the final output would: credentials cut out, each chunk once.
			progress: (text: string) => card.update({ progress: stream.push(text) }),
		}),
	};
}

type Looked = { prepared: Preparation | undefined } | { error: unknown };
type Executed = { result: ToolResult } | { error: unknown };

/** Look before asking: resolve paths and compute the diff, so the card shows what will happen. */
async function prepareCall(run: ParsedCall): Promise<Looked> {
	const { tool, ctx, card } = run;
	if (!tool.prepare || (ctx.approvalSettings.trusted === false && tool.effect !== 'read')) {
		return { prepared: undefined };
	}
	let prepared: Preparation;
	try {
		prepared = await tool.prepare(run.input, run.toolContext());
	} catch (error) {
		return { error };
	}
	card.state.title = prepared.title ?? card.state.title;
	card.state.caution = prepared.caution;
	// The card shows the change redacted; execute still writes exactly what prepare computed. Both
	// sides go along for "Open diff" (up to what an editor tab holds), redacted a slice at a time.
	card.state.diffs = prepared.diffs
		? await Promise.all(
				prepared.diffs.map(d =>
					redactPreview({
						path: d.path,
						unified: d.unified,
						...(d.tooLarge ? { tooLarge: d.tooLarge } : {}),
						...(small(d.before) && small(d.after) ? { before: d.before, after: d.after } : {}),
					}),
				),
			)
		: undefined;
	return { prepared };
}

/** Runs exactly what was approved (a passing failure of a read or fetch again, toolRetry.ts). */
async function executeCall(run: ParsedCall, prepared: Preparation | undefined): Promise<Executed> {
	const { tool, ctx, card } = run;
	card.update({ status: 'running' });
	try {
		const result = await executeWithRetry(
			() => raceAbort(() => tool.execute(run.input, run.toolContext(prepared)), ctx.signal, ctx.abandoned),
			{
				name: tool.name,
				effect: tool.effect,
				retry: ctx.retry,
				clock: ctx.clock ?? systemClock,
				signal: ctx.signal,
				notice: text =>
					ctx.emit({ type: 'notice', turnId: ctx.turnId, level: 'info', code: 'toolRetry', text }),
			},
		);
		return { result };
	} catch (error) {
		return { error };
	}
}

/** The result the card shows and the model reads. */
function finishCall(run: ParsedCall, executed: Executed): ToolResultData {
	const { ctx, card } = run;
	if ('result' in executed) {
		const result = executed.result;
		showShaping(card.state, result);
		return card.finish({
			ok: result.ok,
			output: result.display,
			status: result.ok ? 'succeeded' : 'failed',
			errorKind: result.ok ? undefined : 'error',
			fields: result,
		});
	}
	if (ctx.signal.aborted) {
		return card.finish({
			ok: false,
			output: 'The user stopped the turn while this call was running.',
			status: 'cancelled',
			errorKind: 'cancelled',
		});
	}
	return failedWith(run, executed.error);
}

/** What the output shaping did (cache, filter, redaction), for the card. */
function showShaping(card: ToolCallState, result: ToolResult): void {
	if (result.cached === true) {
		card.cached = true;
	}
	if (typeof result.filterConfidence === 'string') {
		card.filterConfidence = result.filterConfidence as ToolCallState['filterConfidence'];
		card.filterRule = typeof result.filterRule === 'string' ? result.filterRule : undefined;
		card.rawOutputRef = typeof result.filteredRef === 'string' ? result.filteredRef : undefined;
	}
	if (
		typeof result.linesBefore === 'number' &&
		typeof result.linesAfter === 'number' &&
		result.linesBefore !== result.linesAfter
	) {
		card.filtered = { from: result.linesBefore, to: result.linesAfter };
	}
	if (typeof result.redactions === 'number') {
		card.redactions = result.redactions;
	}
}

/** A throw from prepare or execute: a refused path or URL, or a call that does not fit the file, says why in its own words. */
function failedWith(run: ParsedCall, error: unknown): ToolResultData {
	if (error instanceof CallMismatch) {
		return run.card.fail(error.message, 'mismatch');
	}
	const refused = error instanceof PathRefused || error instanceof UrlRefused;
	const message = refused
		? (error as Error).message
		: `${run.tool.name} failed: ${(error as Error)?.message ?? String(error)}`;
	return run.card.fail(message, 'error', { refused });
}

/**
 * A tool that ignores its signal must still not hold the turn once the user pressed Stop; its
 * work goes on the turn's abandoned list so whoever cleans up after the turn can wait for it.
 * Nothing starts after Stop (a call started early may finish looking only then), so every
 * execution that outlives the turn is on that list.
 */
function raceAbort<T>(start: () => Promise<T>, signal: AbortSignal, abandoned?: Set<Promise<unknown>>): Promise<T> {
	if (signal.aborted) {
		return Promise.reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
	}
	const promise = start();
	return new Promise<T>((resolve, reject) => {
		const stopped = onAbort(signal, () => {
			abandoned?.add(promise.catch(() => undefined));
			reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
		});
		promise.then(resolve, reject).finally(() => stopped.dispose());
	});
}

/** Diff sides travel to the host's diff editor only when they are small enough to post. */
/** Sides up to this size go to the diff editor; a larger file is past what "Open diff" is for. */
const SIDE_LIMIT = 16 * 1024 * 1024;

function small(text: string | undefined): boolean {
	return text === undefined || text.length <= SIDE_LIMIT;
}
