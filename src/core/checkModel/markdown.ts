import { durationText } from '../util/duration';
import { percent } from './score';
import type { CheckReport, ModeSummary } from './types';

export { VERDICT_LABELS } from './report';

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const row = (cells: Array<string | number>) => `| ${cells.map(c => cell(String(c))).join(' | ')} |`;
const table = (head: string[], rows: Array<Array<string | number>>) =>
	[row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

export function trialMarks(passes: readonly boolean[]): string {
	return passes.map(p => (p ? '✓' : '✗')).join('');
}

/** The report as Markdown, to paste into an issue or keep beside a model's notes. */
export function reportMarkdown(report: CheckReport): string {
	return [
		`# Keel Check Model: ${report.model}`,
		`${report.model} at ${report.endpoint} · ${report.provider} · ${report.startedAt.slice(0, 16).replace('T', ' ')} UTC · ${report.trials} trials per task · took ${durationText(report.durationMs)} · commands ${report.sandbox ? 'in the Docker sandbox' : 'not run (no sandbox)'}`,
		`**Verdict: ${report.verdictLabel}.** ${report.summary}`,
		...(report.warnings.length ? ['## Warnings', report.warnings.map(w => `- ${w}`).join('\n')] : []),
		'## Recommended settings',
		table(
			['Setting', 'Now', 'Recommended', 'Why'],
			report.recommendations.map(r => [
				`\`${r.setting}\``,
				String(r.current),
				r.change ? `**${r.recommended}**` : 'keep',
				r.why,
			]),
		),
		'## Tasks',
		tasksTable(report),
		`Better: **${report.better}** tool calls. ${report.betterWhy}`,
		'## What Keel recovered',
		recoveriesSection(report),
		'## Speed',
		speedTable(report),
		'## Context window',
		contextTable(report),
		`Probe: ${report.probe}`,
		...(report.forcing ? [`Forced calls: ${report.forcing.detail}`] : []),
	].join('\n\n');
}

function tasksTable(report: CheckReport): string {
	const head = ['Task', ...report.modes.flatMap(m => [`${m.mode}: trials`, `${m.mode}: pass^k`])];
	const rows = report.tasks.map(task => {
		const skipped = report.skipped.find(s => s.taskId === task.id);
		return [
			task.title,
			...report.modes.flatMap(m => {
				const summary = m.tasks.find(t => t.taskId === task.id);
				return skipped || !summary
					? ['not run', '—']
					: [trialMarks(summary.passes), summary.passAll ? '✓' : '✗'];
			}),
		];
	});
	const overall = [
		'**Overall**',
		...report.modes.flatMap(m => [
			`pass@1 ${percent(m.passAt1)} (${m.passedTrials}/${m.trials})`,
			`pass^k ${percent(m.passHatK)}`,
		]),
	];
	return table(head, [...rows, overall]);
}

function recoveriesSection(report: CheckReport): string {
	const broken = report.modes.map(m => `${m.mode}: ${callsLine(m)}`).join('; ');
	if (!report.recoveries.length) {
		// Only what was seen: no recovery step says nothing about the answers being right.
		return `Nothing: Keel repaired no call and asked for no answer again. ${broken}.`;
	}
	return [
		table(
			['What happened', ...report.modes.map(m => m.mode)],
			report.recoveries.map(r => [r.label, ...report.modes.map(m => r.byMode[m.mode] ?? 0)]),
		),
		`${broken}.`,
	].join('\n\n');
}

/** "the model broke 6 of 18 calls (1 in 3)"; "the model made no tool calls". */
function callsLine(m: ModeSummary): string {
	return m.toolCalls === 0 ? 'the model made no tool calls' : `the model broke ${brokenShare(m)}`;
}

/** "6 of 18 calls (1 in 3)"; "all 18 calls"; "none of its 18 calls". */
export function brokenShare(m: ModeSummary): string {
	if (m.brokenCalls === 0) {
		return `none of its ${m.toolCalls} calls`;
	}
	if (m.brokenCalls >= m.toolCalls) {
		return `all ${m.toolCalls} calls`;
	}
	return `${m.brokenCalls} of ${m.toolCalls} calls (1 in ${Math.max(1, Math.round(m.toolCalls / m.brokenCalls))})`;
}

function speedTable(report: CheckReport): string {
	const { speed } = report;
	const perSecond = (value: number | undefined, source: string | undefined) =>
		value === undefined
			? 'not measured'
			: `${value.toFixed(1)} tokens/s (${source === 'server' ? 'server timings' : 'measured by Keel'})`;
	return table(
		['Figure', 'Value'],
		[
			['Time to first token (median)', speed.ttftMs === undefined ? 'not measured' : durationText(speed.ttftMs)],
			['Prompt processing', perSecond(speed.promptTokensPerSecond, speed.promptSource)],
			['Generation', perSecond(speed.generationTokensPerSecond, speed.generationSource)],
			['Tokens per task (prompt + answer)', n(speed.tokensPerTask)],
			['Longest answer', `${n(speed.longestAnswerTokens)} tokens`],
			...report.modes.map(m => [`Time per task, ${m.mode} (mean)`, durationText(m.meanDurationMs)]),
		],
	);
}

function contextTable(report: CheckReport): string {
	const { context } = report;
	return table(
		['Figure', 'Tokens'],
		[
			['Configured (keel.model.contextWindow)', n(context.configured)],
			['The model was trained for', context.advertised === undefined ? 'not reported' : n(context.advertised)],
			[
				'The server runs',
				context.running === undefined
					? 'not reported'
					: `${n(context.running)}${context.runningSource ? ` (${context.runningSource})` : ''}`,
			],
			['Largest prompt Keel sent (estimate)', n(context.largestPromptSent)],
			[
				'Largest prompt the server read',
				context.largestPromptRead === undefined ? 'not reported' : n(context.largestPromptRead),
			],
			['Prompts the server cut', `${context.truncatedRequests} of ${context.requests}`],
			...(context.servedWindow === undefined
				? []
				: [['Really given (most it read of a cut prompt)', n(context.servedWindow)]]),
		],
	);
}
