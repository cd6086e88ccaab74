import * as z from 'zod';

/**
 * The Check Model report view's protocol: the report as the view draws it, the host → view
 * notifications and the view → host commands. Both ends validate and drop what fails. The
 * report mirrors the engine's CheckReport (src/core/checkModel/types.ts); the host checks at
 * compile time that every report it sends fits this schema.
 */

const mode = z.enum(['native', 'text']);
const counts = z.record(z.string(), z.number());
const settingKey = z.enum(['keel.recovery.toolMode', 'keel.model.contextWindow', 'keel.model.maxOutputTokens']);
const id = z.string().min(1).max(300);

const TaskSummary = z.object({
	taskId: z.string(),
	passes: z.array(z.boolean()),
	passAll: z.boolean(),
	meanDurationMs: z.number(),
	meanTokens: z.number(),
	why: z.string().optional(),
});

const ModeSummary = z.object({
	mode,
	passAt1: z.number(),
	passHatK: z.number(),
	passedTrials: z.number(),
	trials: z.number(),
	tasks: z.array(TaskSummary),
	recoveries: counts,
	brokenCalls: z.number(),
	toolCalls: z.number(),
	meanDurationMs: z.number(),
	meanTokensPerTask: z.number(),
});

const Recommendation = z.object({
	setting: settingKey,
	current: z.union([z.string(), z.number()]),
	recommended: z.union([z.string(), z.number()]),
	change: z.boolean(),
	why: z.string(),
});

const source = z.enum(['server', 'measured']).optional();

export const CheckReportView = z.object({
	version: z.literal(1),
	id,
	model: z.string(),
	provider: z.string(),
	endpoint: z.string(),
	startedAt: z.string(),
	durationMs: z.number(),
	trials: z.number(),
	tasks: z.array(z.object({ id: z.string(), title: z.string(), skill: z.string() })),
	skipped: z.array(z.object({ taskId: z.string(), why: z.string() })),
	sandbox: z.boolean(),
	probe: z.string(),
	forcing: z.object({ required: z.string(), named: z.string(), detail: z.string() }).optional(),
	nativeOffered: z.boolean(),
	modes: z.array(ModeSummary),
	recoveries: z.array(z.object({ key: z.string(), label: z.string(), byMode: z.record(z.string(), z.number()) })),
	better: mode,
	betterWhy: z.string(),
	speed: z.object({
		ttftMs: z.number().optional(),
		promptTokensPerSecond: z.number().optional(),
		promptSource: source,
		generationTokensPerSecond: z.number().optional(),
		generationSource: source,
		tokensPerTask: z.number(),
		longestAnswerTokens: z.number(),
		cutAtLimit: z.number(),
	}),
	context: z.object({
		configured: z.number(),
		advertised: z.number().optional(),
		running: z.number().optional(),
		runningSource: z.string().optional(),
		largestPromptRead: z.number().optional(),
		largestPromptSent: z.number(),
		smallestPromptSent: z.number(),
		truncatedRequests: z.number(),
		requests: z.number(),
		servedWindow: z.number().optional(),
	}),
	recommendations: z.array(Recommendation),
	verdict: z.enum(['good', 'usable', 'notUsable']),
	verdictLabel: z.string(),
	summary: z.string(),
	warnings: z.array(z.string()),
});
export type CheckReportView = z.infer<typeof CheckReportView>;

/** A kept report in the Compare list. */
export const StoredReportView = z.object({
	id,
	model: z.string(),
	endpoint: z.string(),
	startedAt: z.string(),
	verdict: z.enum(['good', 'usable', 'notUsable']),
});
export type StoredReportView = z.infer<typeof StoredReportView>;

export const CheckModelToView = z.discriminatedUnion('type', [
	/** The report to draw, the one to compare it with (if chosen), and every kept report. */
	z.object({
		type: z.literal('didShowReport'),
		report: CheckReportView,
		compare: CheckReportView.optional(),
		stored: z.array(StoredReportView),
	}),
	/** After Apply: what was written to the user's settings, or why not. */
	z.object({ type: z.literal('didApply'), applied: z.array(settingKey), error: z.string().optional() }),
]);
export type CheckModelToView = z.infer<typeof CheckModelToView>;

export const CheckModelToHost = z.discriminatedUnion('type', [
	z.object({ type: z.literal('ready') }).strict(),
	/** Writes these recommendations of the report shown to the user's settings. */
	z.object({ type: z.literal('apply'), reportId: id, settings: z.array(settingKey).min(1).max(3) }).strict(),
	z.object({ type: z.literal('compare'), reportId: id.optional() }).strict(),
	z.object({ type: z.literal('exportMarkdown'), reportId: id }).strict(),
	z.object({ type: z.literal('runAgain') }).strict(),
]);
export type CheckModelToHost = z.infer<typeof CheckModelToHost>;
