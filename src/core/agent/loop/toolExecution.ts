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
 * denial or a crash included, becomes a result the model reads.
 */
export async function runToolCall(call: StepCall, ctx: ToolRunContext): Promise<ToolResultData> {
	const policy = ctx.toolPolicy?.session(ctx.sessionId ?? '');
	const card = new ToolCard(call, ctx.turnId, ctx.emit, policy);
	const refusal = policy?.refuse(call.name, new Set(ctx.registry.list().map(t => t.name)));
	if (refusal) {
		return card.fail(refusal, 'blocked');
	}
	const oversized = droppedArgumentChars(call.rawArguments);
	if (oversized !== undefined) {
		return card.fail(oversizedMessage(oversized), 'invalidArguments');
	}
	const rawArguments = policy ? policy.prepareArguments(call.name, call.rawArguments) : call.rawArguments;
	const parsed = ctx.registry.parse(call.name, rawArguments);
	if (!parsed.ok) {
		return card.fail(parsed.message, parsed.errorKind);
	}
	const run = parsedCall(parsed.tool, parsed.input, ctx, card);
	const looked = await prepareCall(run);
	if ('result' in looked) {
		return looked.result;
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
	return refused ?? executeCall(run, looked.prepared);
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

/** Look before asking: resolve paths and compute the diff, so the card shows what will happen. */
async function prepareCall(
	run: ParsedCall,
): Promise<{ prepared: Preparation | undefined } | { result: ToolResultData }> {
	const { tool, ctx, card } = run;
	if (!tool.prepare || (ctx.approvalSettings.trusted === false && tool.effect !== 'read')) {
		return { prepared: undefined };
	}
	let prepared: Preparation;
	try {
		prepared = await tool.prepare(run.input, run.toolContext());
	} catch (error) {
		return { result: failedWith(run, error) };
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
async function executeCall(run: ParsedCall, prepared: Preparation | undefined): Promise<ToolResultData> {
	const { tool, ctx, card } = run;
	card.update({ status: 'running' });
	try {
		const result = await executeWithRetry(
			() => raceAbort(tool.execute(run.input, run.toolContext(prepared)), ctx.signal, ctx.abandoned),
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
		showShaping(card.state, result);
		return card.finish({
			ok: result.ok,
			output: result.display,
			status: result.ok ? 'succeeded' : 'failed',
			errorKind: result.ok ? undefined : 'error',
			fields: result,
		});
	} catch (error) {
		if (ctx.signal.aborted) {
			return card.finish({
				ok: false,
				output: 'The user stopped the turn while this call was running.',
				status: 'cancelled',
				errorKind: 'cancelled',
			});
		}
		return failedWith(run, error);
	}
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
 */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, abandoned?: Set<Promise<unknown>>): Promise<T> {
	if (signal.aborted) {
		return Promise.reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
	}
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
