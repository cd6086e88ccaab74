import type { NoticeCode } from '../../noticeCodes';
import type { ToolSpec } from '../../../llm/chatModel';
import type { ToolRegistry } from '../../../tools/registry';
import { recoverCalls } from './callRepair';
import { stopReasonNotice } from '../../../llm/stream/stopReasons';
import type { AgentEvent, NoticeLevel } from '../../events';
import type { StepOutput } from '../../loop/modelStep';
import { nudgeText, postReview, preReview, shortfallLabel, type Shortfall } from './stepReview';
import type { CallProblem } from '../../../llm/textCalls/callJudge';
import type { TextCallExtraction } from './textCalls';
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
	/** The user's message this turn answers (a call it asked to be shown is an example). */
	prompt?: string;
	/** How calls written as text are read (the bench compares the dialect parsers alone). */
	extraction?: TextCallExtraction;
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
	const reading = { prompt: ctx.prompt, extraction: ctx.extraction };
	// A refusal, a filter, a pause or a reason nobody listed: said, never read as a normal stop.
	const stopped = stopReasonNotice(output.finishReason);
	if (stopped) {
		ctx.notice('warning', 'stopReason', stopped);
	}
	const pre = preReview(output, ctx.registry, ctx.offered, i => ctx.makeId('h', i));
	pre.notes.forEach(note => ctx.notice('info', 'repair', `${note}.`));
	const recovery = recoverCalls(pre.output, ctx.registry, ctx.offered, i => ctx.makeId('t', i), reading);
	if (recovery.fromText || recovery.output.text !== pre.output.text) {
		// What was shown is replaced by the prose around the calls: wrappers, calls and anything
		// written after them (before any result could exist) are not the answer.
		ctx.emit({ type: 'textRetracted', turnId: ctx.turnId, reason: 'recovered' });
		if (recovery.output.text) {
			ctx.emit({ type: 'textDelta', turnId: ctx.turnId, text: recovery.output.text });
		}
	}
	recovery.notes.forEach(note => ctx.notice('info', 'repair', `${note}.`));
	if (recovery.afterCalls && recovery.output.calls.length > 0) {
		ctx.notice(
			'info',
			'repair',
			`Set aside what the model wrote after its call, before it could see the result ("${recovery.afterCalls.slice(0, 80)}"); the call runs and its real result is used.`,
		);
	}
	for (let i = 0; i < recovery.unrepairable + (recovery.fromText && ctx.mode.mode === 'native' ? 1 : 0); i++) {
		ctx.mode.nativeFailure();
	}
	const empty = withoutEmptyCalls(recovery.output, ctx);
	const post = postReview(empty.output, ctx.registry, ctx.offered, i => ctx.makeId('m', i), reading);
	if (post.note) {
		ctx.notice('info', 'repair', `${post.note}.`);
	}
	return shortfallOf(post, pre, recovery.problems, empty.names, ctx);
}

/** Why the response gave nothing to do, most specific first; or a follow-up when its other calls still run. */
function shortfallOf(
	post: ReturnType<typeof postReview>,
	pre: ReturnType<typeof preReview>,
	problems: CallProblem[],
	emptyNames: string[],
	ctx: ReviewContext,
): ReviewedResponse {
	let shortfall = post.shortfall;
	let detail = post.detail ?? pre.truncated[0] ?? '';
	let followUp: string | undefined;
	const calls = post.output.calls.length;
	// A call the limit cut off left the response empty of calls: that is what went wrong, not silence.
	if (pre.truncated.length > 0 && (!shortfall || shortfall === 'empty' || shortfall === 'toolCallsWithoutCalls')) {
		if (calls === 0) {
			shortfall = 'truncatedCall';
		} else {
			// The complete calls run; the cut one is asked for again with the next request.
			ctx.notice('warning', 'truncatedCall', `${shortfallLabel('truncatedCall', detail)}.`);
			followUp = nudgeText('truncatedCall', detail);
		}
	}
	if (emptyNames.length > 0 && (shortfall === 'empty' || shortfall === 'toolCallsWithoutCalls' || calls > 0)) {
		if (calls === 0) {
			[shortfall, detail] = ['emptyArguments', emptyNames.join(', ')];
		} else {
			followUp ??= nudgeText('emptyArguments', emptyNames.join(', '));
		}
	}
	if (
		problems.length > 0 &&
		calls === 0 &&
		(!shortfall || shortfall === 'empty' || shortfall === 'announcedAction')
	) {
		[shortfall, detail] = ['textCallProblem', `${problems[0].name} call ${problems[0].detail}`];
	}
	if (shortfall === 'empty' && pre.unoffered) {
		[shortfall, detail] = ['unofferedCall', pre.unoffered];
	}
	return { output: post.output, shortfall, detail, followUp };
}

/** Calls with no arguments to tools that need some never run: the model is asked for them instead. */
function withoutEmptyCalls(output: StepOutput, ctx: ReviewContext): { output: StepOutput; names: string[] } {
	const names: string[] = [];
	const calls = output.calls.filter(call => {
		const raw = call.rawArguments.trim();
		const empty = raw === '' || /^\{\s*\}$/.test(raw);
		if (empty && !ctx.registry.parse(call.name, '{}').ok && ctx.offered.some(tool => tool.name === call.name)) {
			names.push(call.name);
			const card = { id: call.id, name: call.name, title: call.name, argumentsText: raw || '{}' };
			const output = 'Not run: the call had no arguments. The model was asked for them.';
			ctx.emit({ type: 'toolCallUpdated', turnId: ctx.turnId, call: { ...card, status: 'failed', output } });
			return false;
		}
		return true;
	});
	return { output: { ...output, calls }, names };
}
