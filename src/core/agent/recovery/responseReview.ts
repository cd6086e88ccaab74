import type { NoticeCode } from '../noticeCodes';
import type { ToolSpec } from '../../llm/chatModel';
import type { ToolRegistry } from '../../tools/registry';
import { recoverCalls } from './callRepair';
import type { AgentEvent, NoticeLevel } from '../events';
import type { StepOutput } from '../loop/modelStep';
import { nudgeText, postReview, preReview, shortfallLabel, type Shortfall } from './stepReview';
import type { ToolModeState } from './textMode';

export interface ReviewContext {
	turnId: string;
	registry: ToolRegistry;
	offered: readonly ToolSpec[];
	mode: ToolModeState;
	notice(level: NoticeLevel, code: NoticeCode, text: string): void;
	emit(event: AgentEvent): void;
	/** A fresh call id; `tag` keeps ids from the different recoveries apart. */
	makeId(tag: string, index: number): string;
}

export interface ReviewedResponse {
	output: StepOutput;
	/** Why the response gave the loop nothing to do (re-asked once by the caller). */
	shortfall?: Shortfall;
	detail: string;
	/** A correction for the next request while the response's complete calls still run (a sibling call was cut off). */
	followUp?: string;
}

/**
 * R3 on a complete response, in order: Harmony calls and cut-off calls (before repair, so a
 * cut-off write is never completed by guesswork), calls written as text and argument repair,
 * then a call hidden in the reasoning or the reason the response was empty.
 */
export function reviewResponse(output: StepOutput, ctx: ReviewContext): ReviewedResponse {
	const pre = preReview(output, ctx.registry, ctx.offered, i => ctx.makeId('h', i));
	pre.notes.forEach(note => ctx.notice('info', 'repair', `${note}.`));
	const recovery = recoverCalls(pre.output, ctx.registry, ctx.offered, i => ctx.makeId('t', i));
	if (recovery.fromText) {
		ctx.emit({ type: 'textRetracted', turnId: ctx.turnId, reason: 'recovered' });
		if (recovery.output.text) {
			ctx.emit({ type: 'textDelta', turnId: ctx.turnId, text: recovery.output.text });
		}
	}
	recovery.notes.forEach(note => ctx.notice('info', 'repair', `${note}.`));
	for (let i = 0; i < recovery.unrepairable + (recovery.fromText && ctx.mode.mode === 'native' ? 1 : 0); i++) {
		ctx.mode.nativeFailure();
	}
	const post = postReview(recovery.output, ctx.registry, ctx.offered, i => ctx.makeId('m', i));
	if (post.note) {
		ctx.notice('info', 'repair', `${post.note}.`);
	}
	let shortfall = post.shortfall;
	let detail = post.detail ?? pre.truncated[0] ?? '';
	let followUp: string | undefined;
	if (pre.truncated.length > 0 && !shortfall) {
		if (post.output.calls.length === 0) {
			shortfall = 'truncatedCall';
		} else {
			// The complete calls run; the cut one is asked for again with the next request.
			ctx.notice('warning', 'truncatedCall', `${shortfallLabel('truncatedCall', detail)}.`);
			followUp = nudgeText('truncatedCall', detail);
		}
	}
	if (shortfall === 'empty' && pre.unoffered) {
		shortfall = 'unofferedCall';
		detail = pre.unoffered;
	}
	return { output: post.output, shortfall, detail, followUp };
}
