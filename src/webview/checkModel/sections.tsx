import { useEffect, useRef } from 'preact/hooks';
import type { CheckReportView } from '../../shared/checkModelProtocol';
import { drawChart, type ChartKind } from './charts';
import { perSecond, percent, durationText, tokens } from './format';

type Report = CheckReportView;

const marks = (passes: boolean[]) => passes.map(p => (p ? '✓' : '✗')).join('');

export function TasksTable({ report }: { report: Report }) {
	return (
		<table data-testid="tasks">
			<thead>
				<tr>
					<th>Task</th>
					{report.modes.map(m => (
						<th key={m.mode} colSpan={2}>
							{m.mode}
						</th>
					))}
				</tr>
			</thead>
			<tbody>
				{report.tasks.map(task => {
					const skipped = report.skipped.find(s => s.taskId === task.id);
					return (
						<tr key={task.id} data-testid={`task-${task.id}`}>
							<td title={task.skill}>{task.title}</td>
							{report.modes.map(m => {
								const summary = m.tasks.find(t => t.taskId === task.id);
								if (skipped || !summary) {
									return (
										<td key={m.mode} colSpan={2} class="muted" title={skipped?.why}>
											not run
										</td>
									);
								}
								return [
									<td key={`${m.mode}-t`} class="marks" title={summary.why ?? 'every trial passed'}>
										{marks(summary.passes)}
									</td>,
									<td key={`${m.mode}-k`} class={summary.passAll ? 'pass' : 'fail'}>
										{summary.passAll ? 'pass^k ✓' : 'pass^k ✗'}
									</td>,
								];
							})}
						</tr>
					);
				})}
				<tr class="overall">
					<td>Overall</td>
					{report.modes.map(m => [
						<td key={`${m.mode}-1`} data-testid={`overall-${m.mode}`}>
							pass@1 {percent(m.passAt1)} ({m.passedTrials}/{m.trials})
						</td>,
						<td key={`${m.mode}-k`}>pass^k {percent(m.passHatK)}</td>,
					])}
				</tr>
			</tbody>
		</table>
	);
}

export function ChartBox({ report, kind, title }: { report: Report; kind: ChartKind; title: string }) {
	const canvas = useRef<HTMLCanvasElement>(null);
	useEffect(() => {
		const chart = canvas.current ? drawChart(canvas.current, report, kind) : undefined;
		return () => chart?.destroy();
	}, [report, kind]);
	const rows = report.tasks.length - report.skipped.length;
	return (
		<figure class="chart" data-testid={`chart-${kind}`}>
			<figcaption>{title}</figcaption>
			<div style={{ height: `${Math.max(160, rows * 28 + 60)}px` }}>
				<canvas ref={canvas} role="img" aria-label={title} />
			</div>
		</figure>
	);
}

/** "the model broke 6 of 18 calls (1 in 3)"; "the model made no tool calls": the Markdown export's words. */
function callsLine(m: { brokenCalls: number; toolCalls: number }): string {
	return m.toolCalls === 0 ? 'the model made no tool calls' : `the model broke ${brokenShare(m)}`;
}

/** "6 of 18 calls (1 in 3)"; "all 18 calls"; "none of its 18 calls". */
function brokenShare(m: { brokenCalls: number; toolCalls: number }): string {
	if (m.brokenCalls === 0) {
		return `none of its ${m.toolCalls} calls`;
	}
	if (m.brokenCalls >= m.toolCalls) {
		return `all ${m.toolCalls} calls`;
	}
	return `${m.brokenCalls} of ${m.toolCalls} calls (1 in ${Math.max(1, Math.round(m.toolCalls / m.brokenCalls))})`;
}

export function Recoveries({ report }: { report: Report }) {
	const broken = report.modes.map(m => (
		<li key={m.mode}>
			{m.mode}: {callsLine(m)}
		</li>
	));
	return (
		<div data-testid="recoveries">
			{report.recoveries.length === 0 ? (
				<p>Nothing: Keel repaired no call and asked for no answer again.</p>
			) : (
				<table>
					<thead>
						<tr>
							<th>What happened</th>
							{report.modes.map(m => (
								<th key={m.mode}>{m.mode}</th>
							))}
						</tr>
					</thead>
					<tbody>
						{report.recoveries.map(r => (
							<tr key={r.key} data-testid={`recovery-${r.key}`}>
								<td>{r.label}</td>
								{report.modes.map(m => (
									<td key={m.mode}>{r.byMode[m.mode] ?? 0}</td>
								))}
							</tr>
						))}
					</tbody>
				</table>
			)}
			<ul class="plain">{broken}</ul>
		</div>
	);
}

function Figures({ rows, testId }: { rows: Array<[string, string]>; testId: string }) {
	return (
		<table class="figures" data-testid={testId}>
			<tbody>
				{rows.map(([label, value]) => (
					<tr key={label}>
						<th scope="row">{label}</th>
						<td>{value}</td>
					</tr>
				))}
			</tbody>
		</table>
	);
}

export function Speed({ report }: { report: Report }) {
	const { speed } = report;
	return (
		<Figures
			testId="speed"
			rows={[
				['Time to first token (median)', durationText(speed.ttftMs)],
				['Prompt processing', perSecond(speed.promptTokensPerSecond, speed.promptSource)],
				['Generation', perSecond(speed.generationTokensPerSecond, speed.generationSource)],
				['Tokens per task (prompt + answer)', tokens(speed.tokensPerTask)],
				['Longest answer', `${tokens(speed.longestAnswerTokens)} tokens`],
				...report.modes.map((m): [string, string] => [
					`Time per task, ${m.mode} (mean)`,
					durationText(m.meanDurationMs),
				]),
			]}
		/>
	);
}

export function Context({ report }: { report: Report }) {
	const { context } = report;
	return (
		<Figures
			testId="context"
			rows={[
				['Configured (keel.model.contextWindow)', tokens(context.configured)],
				['The model was trained for', tokens(context.advertised)],
				[
					'The server runs',
					context.running === undefined
						? tokens(undefined)
						: `${tokens(context.running)}${context.runningSource ? ` (${context.runningSource})` : ''}`,
				],
				['Largest prompt Keel sent (estimate)', tokens(context.largestPromptSent)],
				['Largest prompt the server read', tokens(context.largestPromptRead)],
				['Prompts the server cut', `${context.truncatedRequests} of ${context.requests}`],
				...(context.servedWindow === undefined
					? []
					: [
							['Really given (most it read of a cut prompt)', tokens(context.servedWindow)] as [
								string,
								string,
							],
						]),
			]}
		/>
	);
}
