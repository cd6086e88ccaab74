import type { CheckReportView, StoredReportView } from '../../shared/checkModelProtocol';
import { post } from './api';
import { perSecond, percent, durationText, tokens, when } from './format';

type Report = CheckReportView;

function best(report: Report) {
	return report.modes.find(m => m.mode === report.better) ?? report.modes[0];
}

/** The figures that decide between two models, one row each. */
const ROWS: Array<[string, (r: Report) => string]> = [
	['Endpoint', r => `${r.endpoint} · ${r.provider}`],
	['Checked', r => when(r.startedAt)],
	['Verdict', r => r.verdictLabel],
	['Better tool calls', r => r.better],
	['pass@1 (better mode)', r => `${percent(best(r).passAt1)} (${best(r).passedTrials}/${best(r).trials})`],
	['pass^k (better mode)', r => percent(best(r).passHatK)],
	['Calls Keel repaired', r => `${best(r).brokenCalls} of ${best(r).toolCalls}`],
	['Time per task', r => durationText(best(r).meanDurationMs)],
	['Time to first token', r => durationText(r.speed.ttftMs)],
	['Generation', r => perSecond(r.speed.generationTokensPerSecond, r.speed.generationSource)],
	['Tokens per task', r => tokens(r.speed.tokensPerTask)],
	['Context really given', r => (r.context.servedWindow === undefined ? 'all sent' : tokens(r.context.servedWindow))],
];

export function ComparePicker({
	report,
	compare,
	stored,
}: {
	report: Report;
	compare?: Report;
	stored: StoredReportView[];
}) {
	const others = stored.filter(s => s.id !== report.id);
	return (
		<label class="compare-picker">
			Compare with{' '}
			<select
				data-testid="compare"
				disabled={others.length === 0}
				value={compare?.id ?? ''}
				onChange={event =>
					post({ type: 'compare', reportId: (event.target as HTMLSelectElement).value || undefined })
				}
			>
				<option value="">{others.length ? '— another report —' : 'no other report yet'}</option>
				{others.map(s => (
					<option key={s.id} value={s.id}>
						{s.model} · {s.endpoint} · {when(s.startedAt)}
					</option>
				))}
			</select>
		</label>
	);
}

export function Comparison({ report, compare }: { report: Report; compare: Report }) {
	return (
		<section>
			<h2>Side by side</h2>
			<table data-testid="comparison">
				<thead>
					<tr>
						<th />
						<th>{report.model}</th>
						<th>{compare.model}</th>
					</tr>
				</thead>
				<tbody>
					{ROWS.map(([label, value]) => (
						<tr key={label}>
							<th scope="row">{label}</th>
							<td>{value(report)}</td>
							<td>{value(compare)}</td>
						</tr>
					))}
				</tbody>
			</table>
		</section>
	);
}
