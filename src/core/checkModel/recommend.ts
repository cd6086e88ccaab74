import { percent } from './score';
import type {
	ContextFigures,
	CurrentSettings,
	ModeSummary,
	Recommendation,
	SpeedFigures,
	ToolCallMode,
	Verdict,
} from './types';

export interface RecommendInput {
	model: string;
	modes: readonly ModeSummary[];
	better: { mode: ToolCallMode; why: string };
	nativeOffered: boolean;
	speed: SpeedFigures;
	context: ContextFigures;
	current: CurrentSettings;
}

export interface Advice {
	recommendations: Recommendation[];
	verdict: Verdict;
	summary: string;
	warnings: string[];
}

/** Below this share of trials passed, the model fails too often for agent work. */
export const USABLE_PASS_AT_1 = 0.5;
/** From this share of tasks passed every time, the model can be relied on. */
export const GOOD_PASS_HAT_K = 0.8;
/** Room a request needs beyond Keel's smallest one (the system prompt, the tools, a short task) to get work done. */
const WORKING_ROOM = 1.5;

const tokens = (n: number) => Math.round(n).toLocaleString('en-US');
const roundUp = (n: number, step: number) => Math.ceil(n / step) * step;
const nextPowerOfTwo = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, n)));

/** The three settings the suite can speak to, each against its current value, and the verdict with its numbers. */
export function advise(input: RecommendInput): Advice {
	const context = contextAdvice(input.context, input.current.contextWindow);
	const recommendations = [
		toolModeAdvice(input),
		context.recommendation,
		maxTokensAdvice(input.speed, input.modes, input.current, input.context.configured),
	];
	const best = input.modes.find(m => m.mode === input.better.mode) ?? input.modes[0];
	const warnings = [...context.warnings];
	const passed = `${best.passedTrials}/${best.trials} trials passed (${percent(best.passAt1)})`;
	let verdict: Verdict = best.passHatK >= GOOD_PASS_HAT_K && !context.cut ? 'good' : 'usable';
	if (best.passAt1 < USABLE_PASS_AT_1) {
		verdict = 'notUsable';
		warnings.unshift(
			`${input.model} is not usable for agent work as it is: only ${passed} with ${best.mode} tool calls; ${
				best.toolCalls === 0
					? 'it made no tool calls at all.'
					: `Keel repaired ${best.brokenCalls} of its ${best.toolCalls} calls.`
			}`,
		);
	}
	if (context.blocking) {
		verdict = 'notUsable';
	}
	const buts = [
		best.passHatK < GOOD_PASS_HAT_K ? `only ${percent(best.passHatK)} of the tasks passed every time (pass^k)` : '',
		context.cut ? `the server cut ${input.context.truncatedRequests} of ${input.context.requests} prompts` : '',
	].filter(Boolean);
	const summaryByVerdict: Record<Verdict, string> = {
		good: `${input.model} works well with Keel using ${best.mode} tool calls: ${passed}, and ${percent(best.passHatK)} of the tasks passed every time (pass^k).`,
		usable: `${input.model} is usable with Keel using ${best.mode} tool calls, with care: ${passed}, but ${buts.join(', and ')}.`,
		notUsable: `${input.model} is not usable for agent work as set up: ${passed} with ${best.mode} tool calls${context.blocking ? ', and the server reads too little of each prompt' : ''}.`,
	};
	return { recommendations, verdict, summary: summaryByVerdict[verdict], warnings };
}

function toolModeAdvice(input: RecommendInput): Recommendation {
	const current = input.current.toolMode;
	// `auto` already starts native and falls back to text on its own: no reason to pin native.
	const recommended = input.better.mode === 'text' ? 'text' : current === 'auto' ? 'auto' : 'native';
	const why = input.nativeOffered
		? input.better.why
		: 'The server refused native tool calls for this model, so only text-mode calls were checked.';
	return { setting: 'keel.recovery.toolMode', current, recommended, change: recommended !== current, why };
}

function contextAdvice(
	figures: ContextFigures,
	configured: number,
): { recommendation: Recommendation; warnings: string[]; cut: boolean; blocking: boolean } {
	const keep = (why: string) => ({
		recommendation: rec(configured, configured, why),
		warnings: [],
		cut: false,
		blocking: false,
	});
	if (figures.servedWindow !== undefined) {
		const served = figures.servedWindow;
		const needed = Math.max(8192, nextPowerOfTwo(figures.largestPromptSent * 1.25));
		const cutWarning = `The server cut ${figures.truncatedRequests} of ${figures.requests} prompts: it read at most ${tokens(served)} tokens while Keel sent up to ${tokens(figures.largestPromptSent)}. Raise the server's context to ${tokens(needed)} (Ollama: the Ollama provider sends it as num_ctx, or set OLLAMA_CONTEXT_LENGTH; llama.cpp: -c ${needed}).`;
		if (served >= figures.smallestPromptSent * WORKING_ROOM) {
			const fit = Math.floor(served / 256) * 256;
			return {
				recommendation: rec(
					configured,
					fit,
					`The server reads only about ${tokens(served)} tokens of a prompt. With ${tokens(fit)} Keel compacts old tool output to fit instead of having the start of the conversation cut off; after raising the server's context, set this to match it.`,
				),
				warnings: [cutWarning],
				cut: true,
				blocking: false,
			};
		}
		return {
			recommendation: rec(
				configured,
				needed,
				`The server reads only about ${tokens(served)} tokens, less than Keel's smallest request with room to work (${tokens(figures.smallestPromptSent)} tokens for the system prompt, the tools and the task). Raise the server's context to ${tokens(needed)} and set this to match (the Ollama provider sends it as num_ctx).`,
			),
			warnings: [
				cutWarning,
				`Until the server's context is raised, the model sees only part of each request: not usable for agent work.`,
			],
			cut: true,
			blocking: true,
		};
	}
	if (figures.running !== undefined && figures.running < configured) {
		return {
			recommendation: rec(
				configured,
				figures.running,
				`The server runs ${tokens(figures.running)} tokens${figures.runningSource ? ` (${figures.runningSource})` : ''}, less than the ${tokens(configured)} configured. Keel plans for what the server runs either way; set this to match, or give the server a larger window (llama.cpp --ctx-size, LM Studio's Context Length, vLLM --max-model-len).`,
			),
			warnings: [],
			cut: false,
			blocking: false,
		};
	}
	if (figures.advertised !== undefined && figures.advertised < configured) {
		return {
			recommendation: rec(
				configured,
				figures.advertised,
				`The server says the model was trained for ${tokens(figures.advertised)} tokens, less than the ${tokens(configured)} configured; Keel plans for ${tokens(figures.advertised)} either way: set this to match.`,
			),
			warnings: [],
			cut: false,
			blocking: false,
		};
	}
	const read = figures.largestPromptRead ?? figures.largestPromptSent;
	return keep(
		`The server read every prompt whole (the largest ${tokens(read)} tokens, of ${tokens(configured)} configured).`,
	);
}

function maxTokensAdvice(
	speed: SpeedFigures,
	modes: readonly ModeSummary[],
	current: CurrentSettings,
	contextWindow: number,
): Recommendation {
	const current_ = current.maxOutputTokens;
	const cutCalls = modes.reduce((n, m) => n + (m.recoveries.cutCall ?? 0), 0);
	const cut = speed.cutAtLimit + cutCalls;
	const degenerate = modes.reduce((n, m) => n + (m.recoveries.degenerate ?? 0), 0);
	const ceiling = Math.max(1024, Math.floor(contextWindow / 2));
	const longest = speed.longestAnswerTokens;
	if (cut > 0) {
		const raised = Math.min(ceiling, Math.max(current_ ? current_ * 2 : 8192, roundUp(longest * 2, 1024)));
		return recTokens(
			current_,
			raised,
			// Say what was cut: a call only where one was, not every answer cut off.
			`${cut} answer(s) were cut off at the output limit (the longest was ${tokens(longest)} tokens)${
				cutCalls > 0 ? `, ${cutCalls} of them in the middle of a tool call, which cannot run` : ''
			}.`,
		);
	}
	if (degenerate > 0 && current_ === 0) {
		const cap = Math.min(ceiling, roundUp(Math.max(2048, longest * 2), 1024));
		return recTokens(
			current_,
			cap,
			`The model repeated itself ${degenerate} time(s); a cap of ${tokens(cap)} tokens ends such an answer early (the longest answer was ${tokens(longest)} tokens).`,
		);
	}
	return recTokens(
		current_,
		current_,
		`No answer was cut off and none ran away; the longest was ${tokens(longest)} tokens.`,
	);
}

function rec(current: number, recommended: number, why: string): Recommendation {
	return { setting: 'keel.model.contextWindow', current, recommended, change: current !== recommended, why };
}

function recTokens(current: number, recommended: number, why: string): Recommendation {
	return { setting: 'keel.model.maxOutputTokens', current, recommended, change: current !== recommended, why };
}
