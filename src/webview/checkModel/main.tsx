import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { CheckModelToView, type CheckReportView, type StoredReportView } from '../../shared/checkModelProtocol';
import { post } from './api';
import { Comparison, ComparePicker } from './compare';
import { durationText, when } from './format';
import { Recommendations, type ApplyResult } from './recommendations';
import { ChartBox, Context, Recoveries, Speed, TasksTable } from './sections';

interface Shown {
	report: CheckReportView;
	compare?: CheckReportView;
	stored: StoredReportView[];
}

/** The Check Model report: what the host sent, validated; the host owns the reports and the settings. */
function ReportApp() {
	const [shown, setShown] = useState<Shown>();
	const [applied, setApplied] = useState<ApplyResult>();
	useEffect(() => {
		const onMessage = (event: MessageEvent) => {
			const parsed = CheckModelToView.safeParse(event.data);
			if (!parsed.success) {
				return;
			}
			const message = parsed.data;
			if (message.type === 'didShowReport') {
				setShown(before => {
					if (before?.report.id !== message.report.id) {
						setApplied(undefined);
					}
					return { report: message.report, compare: message.compare, stored: message.stored };
				});
			} else {
				setApplied({ applied: message.applied, error: message.error });
			}
		};
		window.addEventListener('message', onMessage);
		post({ type: 'ready' });
		return () => window.removeEventListener('message', onMessage);
	}, []);
	if (!shown) {
		return <p class="muted">Loading the report…</p>;
	}
	const { report, compare, stored } = shown;
	return (
		<main key={report.id}>
			<ReportHeader report={report} compare={compare} stored={stored} />
			<p class={`verdict ${report.verdict}`} data-testid="verdict" data-verdict={report.verdict}>
				<strong>{report.verdictLabel[0].toUpperCase() + report.verdictLabel.slice(1)}.</strong> {report.summary}
			</p>
			{report.warnings.length > 0 ? (
				<ul class="warnings" data-testid="warnings">
					{report.warnings.map(w => (
						<li key={w}>{w}</li>
					))}
				</ul>
			) : null}
			{compare ? <Comparison report={report} compare={compare} /> : null}
			<section>
				<h2>Recommended settings</h2>
				<Recommendations key={report.id} report={report} result={applied} />
			</section>
			<section>
				<h2>Tasks</h2>
				<TasksTable report={report} />
				<p data-testid="better">
					Better: <strong>{report.better}</strong> tool calls. {report.betterWhy}
				</p>
				<div class="charts">
					<ChartBox report={report} kind="pass" title="Trials passed per task" />
					<ChartBox report={report} kind="time" title="Time per task" />
				</div>
			</section>
			<section>
				<h2>What Keel recovered</h2>
				<Recoveries report={report} />
			</section>
			<div class="columns">
				<section>
					<h2>Speed</h2>
					<Speed report={report} />
				</section>
				<section>
					<h2>Context window</h2>
					<Context report={report} />
				</section>
			</div>
			<p class="muted">Probe: {report.probe}</p>
			{report.forcing ? <p class="muted">Forced calls: {report.forcing.detail}</p> : null}
		</main>
	);
}

function ReportHeader({ report, compare, stored }: Shown) {
	return (
		<header>
			<h1>Check Model: {report.model}</h1>
			<p class="muted">
				{report.endpoint} · {report.provider} · {when(report.startedAt)} · {report.trials} trials per task ·
				took {durationText(report.durationMs)} · commands {report.sandbox ? 'in the Docker sandbox' : 'not run'}
			</p>
			<div class="toolbar">
				<ComparePicker report={report} compare={compare} stored={stored} />
				<button data-testid="export" onClick={() => post({ type: 'exportMarkdown', reportId: report.id })}>
					Export Markdown
				</button>
				<button class="secondary" onClick={() => post({ type: 'runAgain' })}>
					Check again
				</button>
			</div>
		</header>
	);
}

render(<ReportApp />, document.getElementById('root')!);
