import type { ToolResultData } from '../../llm/canonical';
import type { Workspace } from '../../ports';
import type { Preparation, Subject, ToolDefinition } from '../../tools/defineTool';
import { PathRefused } from '../../tools/paths';
import { redactPreview, redactSecrets, StreamRedactor } from '../../tools/redact';
import { UrlRefused } from '../../tools/urls';
import type { ToolRegistry } from '../../tools/registry';
import { requestApprovalSafely, type Approver } from '../approval/approvalGate';
import { decidePermission, type ApprovalSettings } from '../approval/approvalPolicy';
import { describeRule } from '../approval/permissions';
import type { AgentEvent, ToolCallState } from '../events';
import type { StepCall } from './modelStep';
import {
	classifyFailure,
	describeFailure,
	formatToolError,
	INFRASTRUCTURE,
	type ToolErrorCategory,
} from '../recovery/toolErrors';

export interface ToolRunContext {
	turnId: string;
	registry: ToolRegistry;
	approvals: Approver | undefined;
	approvalSettings: ApprovalSettings;
	workspace: Workspace;
	signal: AbortSignal;
	emit(event: AgentEvent): void;
	/** Scopes stored outputs (read_output) to the conversation. */
	sessionId?: string;
}

/**
 * Validate → policy → approval → execute, for one call. Never throws: every outcome, a
 * denial or a crash included, becomes a result the model reads.
 */
export async function runToolCall(call: StepCall, ctx: ToolRunContext): Promise<ToolResultData> {
	const card: ToolCallState = {
		id: call.id,
		name: call.name,
		title: call.name,
		argumentsText: call.rawArguments,
		status: 'running',
	};
	const update = (patch: Partial<ToolCallState>) => {
		Object.assign(card, patch);
		ctx.emit({ type: 'toolCallUpdated', turnId: ctx.turnId, call: { ...card } });
	};
	const policy = ctx.registry.policy?.session(ctx.sessionId ?? '');
	const finish = (
		ok: boolean,
		output: string,
		status: ToolCallState['status'],
		errorKind?: string,
		fields?: Record<string, unknown>,
	): ToolResultData => {
		// Every output the card shows is redacted, whichever tool (or tool source) produced it.
		output = redactSecrets(output).text;
		let category: ToolErrorCategory | undefined;
		let retryable: boolean | undefined;
		if (!ok) {
			category = classifyFailure({ errorKind, message: output, fields });
			// Failures get the [tool_error] block; the user's own decisions keep their plain words.
			if (status === 'failed') {
				const info = describeFailure(category, policy ? policy.qualityAttemptLeft(call.name, category) : true);
				// Only reads and fetches are retried by the system; a command or a write is not run twice.
				if (INFRASTRUCTURE.has(category) && card.effect !== 'read' && card.effect !== 'network') {
					info.retryable = false;
				}
				retryable = info.retryable;
				output = formatToolError(info, output);
			}
		}
		const blockedAt = policy?.record(call.name, ok, category);
		update({ status, output, progress: undefined, errorCategory: category });
		if (blockedAt !== undefined) {
			ctx.emit({
				type: 'notice',
				turnId: ctx.turnId,
				level: 'warning',
				code: 'toolBlocked',
				text: `${call.name} failed in ${Math.round(blockedAt * 100)}% of its recent calls and is blocked for this chat: it is no longer offered to the model. Unblock it with "Keel: Unblock Tools".`,
			});
		}
		return {
			toolCallId: call.id,
			name: call.name,
			output,
			ok,
			errorKind,
			...(category ? { errorCategory: category, retryable } : {}),
		};
	};

	const rawArguments = policy ? policy.prepareArguments(call.name, call.rawArguments) : call.rawArguments;
	const refusal = policy?.refuse(call.name, new Set(ctx.registry.list().map(t => t.name)));
	if (refusal) {
		return finish(false, refusal, 'failed', 'blocked');
	}
	const parsed = ctx.registry.parse(call.name, rawArguments);
	if (!parsed.ok) {
		return finish(false, parsed.message, 'failed', parsed.errorKind);
	}
	const tool: ToolDefinition = parsed.tool;
	card.effect = tool.effect;
	card.argumentsText = JSON.stringify(parsed.input, null, 2);
	try {
		card.title = tool.describe(parsed.input);
	} catch {
		card.title = tool.name;
	}

	const toolContext = (prepared?: Preparation) => ({
		workspace: ctx.workspace,
		signal: ctx.signal,
		sessionId: ctx.sessionId,
		prepared,
		recheck: (subjects: Subject[]) =>
			decidePermission({ ...tool, subjects: () => subjects }, parsed.input, ctx.approvalSettings).verdict,
		// The live stream shows what the final output would: credentials cut out, each chunk once.
		progress: (text: string) => update({ progress: stream.push(text) }),
	});
	const stream = new StreamRedactor();
	// Look before asking: resolve paths and compute the diff, so the card shows what will happen.
	let prepared: Preparation | undefined;
	if (tool.prepare && (ctx.approvalSettings.trusted !== false || tool.effect === 'read')) {
		try {
			prepared = await tool.prepare(parsed.input, toolContext());
		} catch (error) {
			const refused = error instanceof PathRefused || error instanceof UrlRefused;
			return finish(
				false,
				refused
					? (error as Error).message
					: `${tool.name} failed: ${(error as Error)?.message ?? String(error)}`,
				'failed',
				'error',
				{ refused },
			);
		}
		card.title = prepared.title ?? card.title;
		// The card shows the change redacted; execute still writes exactly what prepare computed.
		card.diffs = prepared.diffs?.map(d =>
			redactPreview({
				path: d.path,
				unified: d.unified,
				...(small(d.before) && small(d.after) ? { before: d.before, after: d.after } : {}),
			}),
		);
	}

	const permission = decidePermission(tool, parsed.input, ctx.approvalSettings, prepared);
	card.policyReason = permission.verdict === 'allow' ? undefined : permission.reason;
	if (permission.verdict === 'deny') {
		return finish(
			false,
			`${tool.name} is not allowed: ${permission.reason}. Do not call it again; find another way or ask the user.`,
			'denied',
			'denied',
		);
	}
	if (permission.verdict === 'ask') {
		const suggested =
			ctx.approvalSettings.persistRule && permission.suggestedRule
				? { ...permission.suggestedRule, action: 'allow' as const }
				: undefined;
		// Register the pending approval before the card says so: a UI that answers straight
		// from the event must find the id already waiting.
		const pending = requestApprovalSafely(
			ctx.approvals,
			{ id: call.id, name: tool.name, title: card.title },
			ctx.signal,
		);
		update({ status: 'awaitingApproval', suggestedRule: suggested });
		const decision = await pending;
		if (ctx.signal.aborted) {
			return finish(false, 'The user stopped the turn before this call ran.', 'cancelled', 'cancelled');
		}
		if (!decision.approved) {
			const why = decision.reason ? ` Reason: ${decision.reason.trim().replace(/([^.!?])$/, '$1.')}` : '';
			return finish(
				false,
				`The user denied this call; it did not run.${why} Do not retry it unchanged.`,
				'denied',
				'denied',
			);
		}
		if (decision.always && suggested && ctx.approvalSettings.persistRule) {
			// A failure to save the rule must not undo the approval the user just gave.
			await ctx.approvalSettings.persistRule(suggested).then(
				() =>
					ctx.emit({
						type: 'notice',
						turnId: ctx.turnId,
						level: 'info',
						code: 'ruleAdded',
						text: `Added the permission rule "${describeRule(suggested)}" to keel.permissions.rules (keel.permissions.alwaysAllowScope says which settings).`,
					}),
				error =>
					ctx.emit({
						type: 'notice',
						turnId: ctx.turnId,
						level: 'warning',
						code: 'ruleNotSaved',
						text: `Could not save the rule: ${(error as Error).message}`,
					}),
			);
		}
	}

	update({ status: 'running' });
	try {
		let result = await raceAbort(tool.execute(parsed.input, toolContext(prepared)), ctx.signal);
		// Infrastructure failures of idempotent tools are retried here, never charged to the model.
		for (
			let attempt = 1;
			policy &&
			!result.ok &&
			(tool.effect === 'read' || tool.effect === 'network') &&
			attempt <= policy.settings.infraRetries;
			attempt++
		) {
			const category = classifyFailure({ errorKind: 'error', message: result.display, fields: result });
			if (!INFRASTRUCTURE.has(category)) {
				break;
			}
			ctx.emit({
				type: 'notice',
				turnId: ctx.turnId,
				level: 'info',
				code: 'toolRetry',
				text: `${tool.name}: ${category.replace('_', ' ')}; retrying (${attempt}/${policy.settings.infraRetries}).`,
			});
			await sleep(policy.settings.infraRetryDelayMs * 2 ** (attempt - 1), ctx.signal);
			result = await raceAbort(tool.execute(parsed.input, toolContext(prepared)), ctx.signal);
		}
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
		return finish(
			result.ok,
			result.display,
			result.ok ? 'succeeded' : 'failed',
			result.ok ? undefined : 'error',
			result,
		);
	} catch (error) {
		if (ctx.signal.aborted) {
			return finish(false, 'The user stopped the turn while this call was running.', 'cancelled', 'cancelled');
		}
		const refused = error instanceof PathRefused || error instanceof UrlRefused;
		const message = refused
			? (error as Error).message
			: `${tool.name} failed: ${(error as Error)?.message ?? String(error)}`;
		return finish(false, message, 'failed', 'error', { refused });
	}
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise(resolve => {
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal.removeEventListener('abort', done);
			resolve();
		}
		signal.addEventListener('abort', done, { once: true });
	});
}

/** A tool that ignores its signal must still not hold the turn once the user pressed Stop. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) {
		return Promise.reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
	}
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
		signal.addEventListener('abort', onAbort, { once: true });
		promise.then(
			value => {
				signal.removeEventListener('abort', onAbort);
				resolve(value);
			},
			error => {
				signal.removeEventListener('abort', onAbort);
				reject(error);
			},
		);
	});
}

/** Diff sides travel to the host's diff editor only when they are small enough to post. */
function small(text: string | undefined): boolean {
	return text === undefined || text.length <= 200_000;
}
