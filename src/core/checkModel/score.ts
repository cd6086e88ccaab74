import { promptWasCut } from '../agent/guards/guards';
import { addCounts } from './recoveries';
import type {
	ContextFigures,
	FigureSource,
	ModeSummary,
	RequestSample,
	SpeedFigures,
	TaskSummary,
	ToolCallMode,
	TrialResult,
} from './types';

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

export function median(values: number[]): number | undefined {
	if (!values.length) {
		return undefined;
	}
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * One mode's scores. pass@1 is the share of all trials that passed (what one try is worth);
 * pass^k the share of tasks that passed every one of their k trials (what the user can rely on).
 */
export function summarizeMode(
	mode: ToolCallMode,
	taskIds: readonly string[],
	results: readonly TrialResult[],
): ModeSummary {
	const ofMode = results.filter(r => r.mode === mode);
	const tasks: TaskSummary[] = taskIds.map(taskId => {
		const trials = ofMode.filter(r => r.taskId === taskId).sort((a, b) => a.trial - b.trial);
		return {
			taskId,
			passes: trials.map(r => r.passed),
			passAll: trials.length > 0 && trials.every(r => r.passed),
			meanDurationMs: mean(trials.map(r => r.durationMs)),
			meanTokens: mean(trials.map(r => r.promptTokens + r.completionTokens)),
			why: trials.find(r => !r.passed)?.why,
		};
	});
	const ran = tasks.filter(t => t.passes.length > 0);
	const passedTrials = ofMode.filter(r => r.passed).length;
	return {
		mode,
		passAt1: ofMode.length ? passedTrials / ofMode.length : 0,
		passHatK: ran.length ? ran.filter(t => t.passAll).length / ran.length : 0,
		passedTrials,
		trials: ofMode.length,
		tasks,
		recoveries: ofMode.reduce((all, r) => addCounts(all, r.recoveries), {}),
		brokenCalls: ofMode.reduce((n, r) => n + r.brokenCalls, 0),
		toolCalls: ofMode.reduce((n, r) => n + r.toolCalls, 0),
		meanDurationMs: mean(ofMode.map(r => r.durationMs)),
		meanTokensPerTask: mean(ofMode.map(r => r.promptTokens + r.completionTokens)),
	};
}

/**
 * Which mode to use: the one the user can rely on more, then the one that passes more, then
 * the one that needs less rescue; otherwise native, the server's own format. Never speed: one
 * run's timings are too noisy to pick a format on.
 */
export function betterMode(modes: readonly ModeSummary[]): { mode: ToolCallMode; why: string } {
	if (modes.length === 1) {
		const only = modes[0];
		return { mode: only.mode, why: `Only ${only.mode} tool calls were checked.` };
	}
	const keys: Array<[string, (m: ModeSummary) => number]> = [
		['were relied on more often (pass^k)', m => m.passHatK],
		['passed more trials (pass@1)', m => m.passAt1],
		['needed Keel to repair fewer calls', m => -m.brokenCalls],
	];
	const [a, b] = modes;
	for (const [reason, key] of keys) {
		if (Math.abs(key(a) - key(b)) > 1e-9) {
			const [win, lose] = key(a) > key(b) ? [a, b] : [b, a];
			return { mode: win.mode, why: `${label(win.mode)} ${reason}: ${figures(win)} against ${figures(lose)}.` };
		}
	}
	const native = modes.find(m => m.mode === 'native') ?? a;
	return {
		mode: native.mode,
		why: `Both modes did the same (${figures(native)}); native is the server's own format.`,
	};
}

const label = (mode: ToolCallMode) => (mode === 'native' ? 'Native tool calls' : 'Text-mode calls');
// "Native tool calls were relied on more often", "… passed more trials": the reasons read after a plural subject.

function figures(m: ModeSummary): string {
	return `${m.mode} ${m.passedTrials}/${m.trials} trials, pass^k ${percent(m.passHatK)}, ${m.brokenCalls} repaired`;
}

export function percent(share: number): string {
	return `${Math.round(share * 100)}%`;
}

/** Time to first token and tokens per second: the server's own timings where it sent them, else Keel's stopwatch. */
export function speedFigures(samples: readonly RequestSample[], results: readonly TrialResult[]): SpeedFigures {
	const ok = samples.filter(s => !s.failed);
	const timed = ok.filter(s => s.server?.promptMs && s.server.promptTokens !== undefined);
	const generated = ok.filter(s => s.server?.generationMs && s.server.generatedTokens !== undefined);
	// The server's own timings where it sent them, else what Keel measured.
	const serverRate = (
		list: RequestSample[],
		tokens: (s: RequestSample) => number,
		ms: (s: RequestSample) => number,
	) => {
		const total = list.reduce((n, s) => n + ms(s), 0);
		return {
			value: total > 0 ? (list.reduce((n, s) => n + tokens(s), 0) * 1000) / total : undefined,
			source: 'server' as FigureSource,
		};
	};
	const prompt = timed.length
		? serverRate(
				timed,
				s => s.server!.promptTokens!,
				s => s.server!.promptMs!,
			)
		: measuredPrompt(ok);
	const generation = generated.length
		? serverRate(
				generated,
				s => s.server!.generatedTokens!,
				s => s.server!.generationMs!,
			)
		: measuredGeneration(ok);
	return {
		ttftMs: median(ok.flatMap(s => (s.ttftMs === undefined ? [] : [s.ttftMs]))),
		promptTokensPerSecond: prompt.value,
		promptSource: prompt.value === undefined ? undefined : prompt.source,
		generationTokensPerSecond: generation.value,
		generationSource: generation.value === undefined ? undefined : generation.source,
		tokensPerTask: mean(results.map(r => r.promptTokens + r.completionTokens)),
		longestAnswerTokens: Math.max(0, ...ok.map(s => s.completionTokens ?? 0)),
		cutAtLimit: ok.filter(s => s.finishReason === 'length').length,
	};
}

/** Up to the first token the server was reading the prompt (and the network, which is small locally). */
function measuredPrompt(samples: RequestSample[]): { value?: number; source: FigureSource } {
	const usable = samples.filter(s => s.ttftMs && s.ttftMs > 0);
	const tokens = usable.reduce((n, s) => n + (s.promptTokens ?? s.estimatedPromptTokens), 0);
	const ms = usable.reduce((n, s) => n + s.ttftMs!, 0);
	return { value: ms > 0 ? (tokens * 1000) / ms : undefined, source: 'measured' };
}

/** After the first token the server was generating. */
function measuredGeneration(samples: RequestSample[]): { value?: number; source: FigureSource } {
	const usable = samples.filter(s => s.ttftMs !== undefined && s.completionTokens && s.durationMs > s.ttftMs);
	const tokens = usable.reduce((n, s) => n + s.completionTokens!, 0);
	const ms = usable.reduce((n, s) => n + (s.durationMs - s.ttftMs!), 0);
	return { value: ms > 0 ? (tokens * 1000) / ms : undefined, source: 'measured' };
}

/**
 * A prompt the server read only part of: a count well under what Keel sent. A server that counts
 * only what it evaluated (Ollama, with the previous request's prefix cached) is held to the part
 * that was new; reading well under even that is a cut.
 */
export function wasCut(sample: RequestSample): boolean {
	return promptWasCut(
		sample.estimatedPromptTokens,
		sample.promptTokens,
		sample.countsNewOnly ? sample.newPromptTokens : undefined,
	);
}

/** What the server says of its window: trained for, running now, and where it said so. */
export interface ServerWindowFigures {
	trained?: number;
	running?: number;
	source?: string;
}

/** What the server really gave: a prompt it read only part of shows as a count well under what Keel sent. */
export function contextFigures(
	samples: readonly RequestSample[],
	configured: number,
	server: ServerWindowFigures = {},
): ContextFigures {
	const ok = samples.filter(s => !s.failed);
	const read = ok.flatMap(s => (s.promptTokens === undefined ? [] : [s.promptTokens]));
	const truncated = ok.filter(wasCut);
	const sent = ok.map(s => s.estimatedPromptTokens);
	return {
		configured,
		advertised: server.trained,
		...(server.running !== undefined ? { running: server.running, runningSource: server.source } : {}),
		largestPromptRead: read.length ? Math.max(...read) : undefined,
		largestPromptSent: Math.max(0, ...sent),
		smallestPromptSent: sent.length ? Math.min(...sent) : 0,
		truncatedRequests: truncated.length,
		requests: ok.length,
		servedWindow: truncated.length ? Math.max(...truncated.map(s => s.promptTokens!)) : undefined,
	};
}
