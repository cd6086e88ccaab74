import type { Clock } from '../../ports';
import type { ToolEffect, ToolResult } from '../../tools/defineTool';
import { PathRefused } from '../../gate/paths/paths';
import { UrlRefused } from '../../gate/network/urls';
import { classifyToolFailure, INFRASTRUCTURE, type ToolErrorCategory } from './toolErrors';

/**
 * The one retry layer for tools. A read or a fetch that failed for a reason outside the
 * model's control (a rate limit, a server error, the network, a timeout: `classifyToolFailure`
 * decides, the same classifier that writes the model's [tool_error] block) runs again after a
 * pause that doubles, up to `retries` more times. A command or a write never runs twice: it may
 * have done half its work. Nothing above this layer retries a tool, so what the user is told
 * ("retrying (1/2)", "(2/2)") is exactly how often it ran.
 */
export interface ToolRetrySettings {
	/** Runs after the first; 0 turns the layer off. */
	retries: number;
	/** The pause before the first retry; each later one waits twice as long. */
	delayMs: number;
}

/** Safe to run twice: reading changes nothing, whatever happened to the first attempt. */
export function isIdempotent(effect: ToolEffect | undefined): boolean {
	return effect === 'read' || effect === 'network';
}

/** The system retries this failure itself, so the model is told it may try again too. */
export function retriedBySystem(effect: ToolEffect | undefined, category: ToolErrorCategory): boolean {
	return INFRASTRUCTURE.has(category) && isIdempotent(effect);
}

export interface ToolAttempts {
	name: string;
	effect: ToolEffect;
	retry: ToolRetrySettings | undefined;
	clock: Clock;
	signal: AbortSignal;
	/** Said before each retry, in the chat. */
	notice(text: string): void;
}

/**
 * Runs `execute` once, and again while the failure is a passing one and retries are left. A
 * throw is classified like a failed result (a network error often arrives as one) and, when
 * no retry follows, rethrown for the caller to report as before.
 */
export async function executeWithRetry(execute: () => Promise<ToolResult>, run: ToolAttempts): Promise<ToolResult> {
	const retries = run.retry && isIdempotent(run.effect) ? run.retry.retries : 0;
	for (let attempt = 1; ; attempt++) {
		const outcome = await execute().then(
			result => ({ result }),
			(error: unknown) => ({ error }),
		);
		const category = 'result' in outcome ? resultCategory(outcome.result) : thrownCategory(outcome.error);
		if (attempt > retries || run.signal.aborted || !category || !INFRASTRUCTURE.has(category)) {
			if ('error' in outcome) {
				throw outcome.error;
			}
			return outcome.result;
		}
		run.notice(`${run.name}: ${category.replace('_', ' ')}; retrying (${attempt}/${retries}).`);
		// A Stop during the pause ends it early; the next attempt then reports the cancellation.
		await run.clock.sleep((run.retry?.delayMs ?? 0) * 2 ** (attempt - 1), run.signal).catch(() => undefined);
	}
}

function resultCategory(result: ToolResult): ToolErrorCategory | undefined {
	return result.ok ? undefined : classifyToolFailure({ errorKind: 'error', message: result.display, fields: result });
}

function thrownCategory(error: unknown): ToolErrorCategory | undefined {
	if ((error as Error)?.name === 'AbortError') {
		return undefined;
	}
	const refused = error instanceof PathRefused || error instanceof UrlRefused;
	return classifyToolFailure({ errorKind: 'error', message: (error as Error)?.message ?? String(error), refused });
}
