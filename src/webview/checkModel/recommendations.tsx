import { useState } from 'preact/hooks';
import type { CheckReportView } from '../../shared/checkModelProtocol';
import { post } from './api';

type Setting = CheckReportView['recommendations'][number]['setting'];

export interface ApplyResult {
	applied: Setting[];
	error?: string;
}

/**
 * Each setting the suite speaks to: now, recommended, why. What Apply will write is exactly
 * what the table shows, ticked by default; nothing is written until the button is pressed.
 */
export function Recommendations({ report, result }: { report: CheckReportView; result?: ApplyResult }) {
	const changes = report.recommendations.filter(r => r.change);
	const [chosen, setChosen] = useState<Set<Setting>>(() => new Set(changes.map(r => r.setting)));
	const toggle = (setting: Setting) => {
		const next = new Set(chosen);
		if (!next.delete(setting)) {
			next.add(setting);
		}
		setChosen(next);
	};
	return (
		<div data-testid="recommendations">
			<table>
				<thead>
					<tr>
						<th />
						<th>Setting</th>
						<th>Now</th>
						<th>Recommended</th>
						<th>Why</th>
					</tr>
				</thead>
				<tbody>
					{report.recommendations.map(r => (
						<tr
							key={r.setting}
							data-testid={`recommendation-${r.setting}`}
							class={r.change ? 'change' : ''}
						>
							<td>
								{r.change ? (
									<input
										type="checkbox"
										aria-label={`Apply ${r.setting}`}
										checked={chosen.has(r.setting)}
										onChange={() => toggle(r.setting)}
									/>
								) : null}
							</td>
							<td>
								<code>{r.setting}</code>
							</td>
							<td>{String(r.current)}</td>
							<td>{r.change ? <strong>{String(r.recommended)}</strong> : 'keep'}</td>
							<td>{r.why}</td>
						</tr>
					))}
				</tbody>
			</table>
			{changes.length > 0 ? (
				<p class="actions">
					<button
						data-testid="apply"
						disabled={chosen.size === 0}
						onClick={() => post({ type: 'apply', reportId: report.id, settings: [...chosen] })}
					>
						Apply to my user settings
					</button>{' '}
					<span class="muted">Writes the ticked values above to your user settings.</span>
				</p>
			) : (
				<p class="muted">Nothing to change: your settings already suit this model.</p>
			)}
			{result ? (
				<p data-testid="applied" class={result.error ? 'warning' : 'ok'}>
					{result.applied.length
						? `Written to your user settings: ${result.applied.join(', ')}.`
						: 'Nothing was written.'}
					{result.error ? ` ${result.error}` : ''}
				</p>
			) : null}
		</div>
	);
}
