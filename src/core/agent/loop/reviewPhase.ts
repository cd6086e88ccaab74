import { fencedShellCommands } from '../recovery/review/fencedShell';
import { reviewResponse } from '../recovery/review/responseReview';
import { escalation, nudgeText, shortfallLabel, type Shortfall } from '../recovery/review/stepReview';
import { looksDegenerate } from '../guards/guards';
import { forcedStep } from '../recovery/review/forcedCall';
import { continuationPrefix } from '../recovery/review/continuation';
import type { StepOutput } from './modelStep';
import { appendMessage, failTurn, uniqueId, type TurnContext, type TurnEnd, type TurnState } from './turnState';

/** The loop asks the model again at once, with the nudge the review left in the state. */
export const REASK = 'reask';

/** How often one turn is sent back after the server paused it. */
const MAX_PAUSES = 3;

/**
 * Phase: what a small model got wrong is repaired (calls written as text, near-valid JSON,
 * Harmony channels, cut-off calls). A response that still gives the loop nothing to do is
 * re-asked once with a precise correction; a second one in a row ends the turn. In text mode
 * a reply ending in a ```bash block becomes run_command calls.
 */
export function reviewStep(
	state: TurnState,
	ctx: TurnContext,
	response: StepOutput,
): StepOutput | typeof REASK | TurnEnd {
	let output = response;
	let shortfall: Shortfall | undefined;
	let detail = '';
	if (ctx.settings.enabled) {
		const step = state.step;
		const review = reviewResponse(output, {
			turnId: ctx.turnId,
			registry: ctx.options.registry,
			offered: state.offered,
			mode: state.mode,
			notice: ctx.notice,
			emit: ctx.options.emit,
			makeId: (tag, i) => uniqueId(state, undefined, `${ctx.turnId}-s${step}-${tag}${i}`),
			prompt: state.added.find(m => m.kind === 'user')?.content,
			extraction: ctx.settings.textCallExtraction,
		});
		({ output, shortfall, detail } = review);
		if (review.followUp) {
			state.nudge = { text: review.followUp };
		}
	}
	if (shortfall) {
		const cut = response.finishReason === 'length' || response.finishReason === 'max_tokens';
		const prefix =
			ctx.settings.enabled && !state.continued ? continuationPrefix(response, state.offered) : undefined;
		if (prefix && (shortfall === 'truncatedCall' || shortfall === 'textCallProblem')) {
			// Not a rung: the model is not corrected, the server writes the rest of what it began.
			state.continued = true;
			if (response.text) {
				ctx.options.emit({ type: 'textRetracted', turnId: ctx.turnId, reason: 'retry' });
			}
			const tool = shortfall === 'truncatedCall' ? detail : detail.split(' ')[0];
			ctx.notice(
				'warning',
				'truncatedCall',
				`${shortfallLabel('truncatedCall', tool)}; asked the server to continue it.`,
			);
			state.nudge = { text: '', continuation: prefix, textMode: true };
			return REASK;
		}
		return shortfallStep(
			state,
			ctx,
			{ shown: response.text, degenerate: output.degenerate, cut },
			shortfall,
			detail,
		);
	}
	state.shortfalls = 0;
	state.continued = false;
	// A server that paused a long turn (Anthropic's `pause_turn`) continues it from what was
	// written: that goes back as it is, the model's own message last, a few times a turn.
	if (ctx.settings.enabled && response.finishReason === 'pause' && output.calls.length === 0) {
		if ((state.pauses ?? 0) < MAX_PAUSES) {
			state.pauses = (state.pauses ?? 0) + 1;
			appendAnswer(state, ctx, output);
			return REASK;
		}
	}
	return fencedShellCalls(state, ctx, output);
}

/** Shown text that is not an answer (repetition, a call that cannot run, an announcement) is folded. */
const FOLDED: ReadonlySet<Shortfall> = new Set(['degenerate', 'unofferedCall', 'textCallProblem', 'announcedAction']);

/**
 * A response that gave the loop nothing to do: re-asked with a precise correction; if that did
 * not help, once more with a different remedy (the exact form expected, with an example from
 * the tool's schema, asked for as text this once); then the turn ends with a clear message.
 */
function shortfallStep(
	state: TurnState,
	ctx: TurnContext,
	response: { shown: string; degenerate?: boolean; cut?: boolean },
	shortfall: Shortfall,
	detail: string,
): typeof REASK | TurnEnd {
	if ((response.degenerate || FOLDED.has(shortfall)) && response.shown) {
		// Fold what was shown: it stays visible as a discarded attempt, never as the answer.
		ctx.options.emit({ type: 'textRetracted', turnId: ctx.turnId, reason: 'retry' });
	}
	const repetition = shortfall === 'degenerate';
	const runaway = shortfall === 'reasoningRunaway';
	const label = shortfallLabel(shortfall, detail);
	const attempt = state.shortfalls++;
	if (attempt === 0) {
		const how = repetition
			? ' with a correction and sampling that discourages repetition'
			: runaway
				? ' for the answer or the call without more thinking'
				: ' with a correction';
		ctx.notice('warning', 'reask', `${label}; asked it again${how}.`);
		state.nudge = {
			text: nudgeText(shortfall, detail),
			avoidRepetition: repetition,
			...(runaway ? { noThinking: true } : {}),
		};
		return REASK;
	}
	if (attempt === 1) {
		const remedy = escalation(shortfall, detail, state.offered);
		const how = remedy.textMode
			? 'the exact form expected, with an example, as a text call this once'
			: runaway
				? 'the answer or a call written as text, without thinking'
				: 'a shorter answer and stronger sampling against repetition';
		ctx.notice('warning', 'reask', `${label}, again after a correction; asked once more differently: ${how}.`);
		state.nudge = remedy;
		return REASK;
	}
	// A forced call fixes the form of a call; it adds no output tokens to one the limit cut off.
	if (attempt === 2 && !state.forced && !response.cut) {
		const forced = forcedStep(shortfall, detail, state.offered, ctx.options.model, ctx.options.forcingMemory);
		if (forced && state.mode.mode === 'native') {
			const how = forced.force.kind === 'named' ? `a call of ${forced.force.name}` : 'a tool call';
			ctx.notice(
				'warning',
				'forcedCall',
				`${label}, again after two different corrections; asked once more with the server holding the model to ${how} (tool_choice, strict schemas).`,
			);
			state.forced = true;
			state.nudge = { text: forced.text, force: forced.force, avoidRepetition: repetition };
			return REASK;
		}
	}
	const tried = state.forced ? ' two different corrections and a forced call' : ' two different corrections';
	return failTurn(
		ctx,
		'noAnswer',
		'modelFormat',
		`${label}, again after${tried}, so the turn ended with no answer. Rephrase the request, or try a larger model${repetition ? ' or a lower temperature' : ''}.`,
	);
}

/** Text mode: a reply ending in a ```bash block is a run_command call (approved like any other). */
export function fencedShellCalls(state: TurnState, ctx: TurnContext, output: StepOutput): StepOutput {
	if (
		state.mode.mode !== 'text' ||
		output.calls.length > 0 ||
		!state.offered.some(tool => tool.name === 'run_command')
	) {
		return output;
	}
	const fenced = fencedShellCommands(output.text);
	if (!fenced.length) {
		return output;
	}
	ctx.options.emit({ type: 'textRetracted', turnId: ctx.turnId, reason: 'recovered' });
	if (fenced[0].prose) {
		ctx.options.emit({ type: 'textDelta', turnId: ctx.turnId, text: fenced[0].prose });
	}
	return {
		...output,
		text: fenced[0].prose,
		calls: fenced.map((f, i) => ({
			id: uniqueId(state, undefined, `${ctx.turnId}-s${state.step}-b${i}`),
			name: 'run_command',
			rawArguments: JSON.stringify({ command: f.command }),
		})),
	};
}

/** Phase: the answer's text joins the history; an answer that is one phrase repeated gets a warning. */
export function appendAnswer(state: TurnState, ctx: TurnContext, output: StepOutput): void {
	if (!output.text) {
		return;
	}
	appendMessage(state, ctx, { kind: 'assistant', content: output.text });
	if (ctx.settings.enabled && output.calls.length === 0 && looksDegenerate(output.text)) {
		ctx.notice(
			'warning',
			'degenerate',
			'The model repeated one phrase instead of answering. Ask again, or try a larger model or a lower temperature.',
		);
	}
}
