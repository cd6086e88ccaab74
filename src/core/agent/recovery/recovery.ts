import type { NoticeCode } from '../noticeCodes';
import { AgentError, toAgentError } from '../../errors';
import type { ChatModel, ChatRequest } from '../../llm/chatModel';
import { forcedTools } from './review/forcedCall';
import { classifyFailure } from './failures/failureTable';
import { estimateTokens } from '../guards/guards';
import { runModelStep } from '../loop/modelStep';
import type { RecoverySettings } from './recoverySettings';
import { handleFailure, type Attempt } from './failures/failureActions';
import type { RecoveryContext, RequestPlan, RequestResult } from './recoveryContext';

// The contract of a request with recovery, in a file of its own so each failure's action can name it too.
export type { RecoveryContext, RequestPlan, RequestResult } from './recoveryContext';

/**
 * One model request with layers R1–R3 around it: backoff on transient failures, replay of
 * broken or stalled streams (their partial text retracted), recovery or reflection of
 * server-side tool-call parse errors, one squeeze on context overflow, one smaller output
 * budget when the server refuses the one asked for. Everything is a notice.
 */
export async function requestWithRecovery(ctx: RecoveryContext): Promise<RequestResult> {
	const attempt: Attempt = { reflections: 0, squeeze: false, retries: 0, unreachable: 0, unknown: 0, extra: [] };
	const notice = (level: 'info' | 'warning' | 'error', code: NoticeCode, text: string, notify?: boolean) =>
		ctx.emit({ type: 'notice', turnId: ctx.turnId, level, code, text, notify });
	for (;;) {
		if (ctx.signal.aborted) {
			// Stopped while waiting to retry: no further request.
			return { ok: false, error: new AgentError('cancelled', 'Stopped.'), partial: '' };
		}
		let partial = '';
		const plan = ctx.plan(attempt.squeeze, attempt.squeezeTo);
		const maxTokens = tokensLeft(ctx.settings, plan, attempt.outputCap);
		try {
			const output = await runModelStep({
				...ctx,
				model: withRequest(ctx.model, { ...ctx.request, ...(maxTokens === undefined ? {} : { maxTokens }) }),
				messages: [...plan.messages, ...attempt.extra],
				tools: ctx.toolChoice ? forcedTools(plan.tools, ctx.toolChoice) : plan.tools,
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
			const c = classifyFailure(error, {
				now: ctx.clock.now,
				retryAfterCapMs: ctx.settings.retryAfterCapMs * Math.max(1, ctx.settings.maxRetriesPerTurn),
				askedMaxTokens: maxTokens,
			});
			const done = await handleFailure({ ctx, attempt, error, c, partial, plan, maxTokens, notice });
			if (done) {
				return done;
			}
		}
	}
}

/**
 * The output budget to ask for: what is left of the context window after the request (with
 * room for the estimate being short), never more than a cap the server named. None with
 * recovery off: the naive loop sends what it always sent.
 */
export function tokensLeft(settings: RecoverySettings, plan: RequestPlan, cap?: number): number | undefined {
	if (!settings.enabled) {
		return undefined;
	}
	const used = Math.ceil(estimateTokens(plan.messages, plan.tools) * 1.15) + 256;
	const left = Math.max(256, settings.contextWindow - used);
	return cap === undefined ? left : Math.min(left, cap);
}

/** The model with these fields (an output budget, the window, the reasoning budget) on every request it is sent. */
function withRequest(model: ChatModel, extra: Partial<ChatRequest>): ChatModel {
	return {
		id: model.id,
		server: model.server,
		forcing: model.forcing,
		stream: request => model.stream({ ...request, ...extra }),
	};
}
