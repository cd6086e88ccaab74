import { AgentError } from '../../../errors';
import type { RecoveryContext, RequestResult } from '../recoveryContext';
import type { Failure } from './failure';

/** Ends the request: the error as it came, the server's own words in it, and what to do. */
export function giveUp(f: Failure, why?: string): Extract<RequestResult, { ok: false }> {
	const words = f.c.words.trim();
	const said =
		words && !f.error.message.includes(words.slice(0, 200)) ? ` The server said: "${words.slice(0, 500)}".` : '';
	const error =
		why || said
			? new AgentError(f.error.code, joinSentences(`${f.error.message}${said}`, why ?? ''), f.error.details)
			: f.error;
	return { ok: false, error, partial: f.partial };
}

/** An error's sentence and what recovery adds to it, as two sentences. */
export function joinSentences(first: string, second: string): string {
	const head = first.trim();
	if (!second) {
		return head;
	}
	return head && !/[.!?:]$/.test(head) ? `${head}. ${second}` : `${head} ${second}`.trim();
}

export function retract(ctx: RecoveryContext, partial: string, reason: 'retry' | 'recovered'): void {
	if (partial) {
		ctx.emit({ type: 'textRetracted', turnId: ctx.turnId, reason });
	}
}
