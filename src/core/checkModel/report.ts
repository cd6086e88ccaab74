import { advise } from './recommend';
import type { ForcingReport } from './forcingProbe';
import { RECOVERY_LABELS } from './recoveries';
import { betterMode, contextFigures, speedFigures, summarizeMode, type ServerWindowFigures } from './score';
import type { CheckTask } from './suite';
import type { CheckReport, CurrentSettings, RecoveryClass, RequestSample, ToolCallMode, TrialResult } from './types';

export const VERDICT_LABELS: Record<CheckReport['verdict'], string> = {
	good: 'works well',
	usable: 'usable with care',
	notUsable: 'not usable for agent work',
};

export interface ReportInput {
	endpoint: { provider: string; baseUrl: string; model: string };
	startedAt: number;
	durationMs: number;
	trials: number;
	tasks: readonly CheckTask[];
	skipped: CheckReport['skipped'];
	sandbox: boolean;
	probe: string;
	forcing?: ForcingReport;
	nativeOffered: boolean;
	modes: readonly ToolCallMode[];
	results: readonly TrialResult[];
	samples: readonly RequestSample[];
	current: CurrentSettings;
	/** What the server says of its window (trained, running). */
	server?: ServerWindowFigures;
}

/** The report from what the trials and the meter recorded: scores per mode, figures, and what to change. */
export function buildReport(input: ReportInput): CheckReport {
	const ran = input.tasks.filter(task => !input.skipped.some(s => s.taskId === task.id)).map(task => task.id);
	const modes = input.modes.map(mode => summarizeMode(mode, ran, input.results));
	const better = betterMode(modes);
	const speed = speedFigures(input.samples, input.results);
	const context = contextFigures(input.samples, input.current.contextWindow, input.server);
	const advice = advise({
		model: input.endpoint.model,
		modes,
		better,
		nativeOffered: input.nativeOffered,
		speed,
		context,
		current: input.current,
	});
	const startedAt = new Date(input.startedAt).toISOString();
	return {
		version: 1,
		id: reportId(input.endpoint, startedAt),
		model: input.endpoint.model,
		provider: input.endpoint.provider,
		endpoint: input.endpoint.baseUrl,
		startedAt,
		durationMs: Math.round(input.durationMs),
		trials: input.trials,
		tasks: input.tasks.map(task => ({ id: task.id, title: task.title, skill: task.skill })),
		skipped: input.skipped,
		sandbox: input.sandbox,
		probe: input.probe,
		...(input.forcing ? { forcing: input.forcing } : {}),
		nativeOffered: input.nativeOffered,
		modes,
		recoveries: (Object.keys(RECOVERY_LABELS) as RecoveryClass[])
			.filter(key => modes.some(m => (m.recoveries[key] ?? 0) > 0))
			.map(key => ({
				key,
				label: RECOVERY_LABELS[key],
				byMode: Object.fromEntries(modes.map(m => [m.mode, m.recoveries[key] ?? 0])),
			})),
		better: better.mode,
		betterWhy: better.why,
		results: [...input.results],
		speed,
		context,
		recommendations: advice.recommendations,
		verdict: advice.verdict,
		verdictLabel: VERDICT_LABELS[advice.verdict],
		summary: advice.summary,
		warnings: [
			...advice.warnings,
			...input.skipped.map(
				s => `${input.tasks.find(t => t.id === s.taskId)?.title ?? s.taskId} did not run: ${s.why}.`,
			),
		],
	};
}

/** Safe as a file name: the model, the endpoint's host and port, the date and time. */
export function reportId(endpoint: { baseUrl: string; model: string }, startedAt: string): string {
	let host = endpoint.baseUrl;
	try {
		host = new URL(endpoint.baseUrl).host;
	} catch {
		// A label such as "vscode-lm" is not a URL; it is used as it is.
	}
	const slug = (text: string) =>
		text
			.toLowerCase()
			.replace(/[^a-z0-9.]+/g, '-')
			.replace(/^-+|-+$/g, '');
	return `${slug(endpoint.model)}@${slug(host)}-${startedAt.replace(/[:.]/g, '-')}`;
}
