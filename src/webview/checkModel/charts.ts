import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import type { CheckReportView } from '../../shared/checkModelProtocol';

// Only what a bar chart needs: Chart.js tree-shakes the rest out of this bundle.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/** The theme's own chart colours, so the picture reads in every theme, high contrast included. */
function themeColor(name: string, fallback: string): string {
	return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

const MODE_COLORS: Record<string, [string, string]> = {
	native: ['--vscode-charts-blue', '#3794ff'],
	text: ['--vscode-charts-orange', '#d18616'],
};

export type ChartKind = 'pass' | 'time';

/** Pass rate per task (what fails), or mean time per task (what is slow), one bar per tool-call mode. */
export function drawChart(canvas: HTMLCanvasElement, report: CheckReportView, kind: ChartKind): Chart {
	const ran = report.tasks.filter(task => !report.skipped.some(s => s.taskId === task.id));
	const foreground = themeColor('--vscode-foreground', '#cccccc');
	const grid = themeColor('--vscode-editorWidget-border', '#454545');
	const datasets = report.modes.map(mode => {
		const [variable, fallback] = MODE_COLORS[mode.mode];
		return {
			label: mode.mode === 'native' ? 'native calls' : 'text-mode calls',
			backgroundColor: themeColor(variable, fallback),
			data: ran.map(task => {
				const summary = mode.tasks.find(t => t.taskId === task.id);
				if (!summary || summary.passes.length === 0) {
					return 0;
				}
				return kind === 'pass'
					? (100 * summary.passes.filter(Boolean).length) / summary.passes.length
					: summary.meanDurationMs / 1000;
			}),
		};
	});
	const axis = { ticks: { color: foreground }, grid: { color: grid } };
	return new Chart(canvas, {
		type: 'bar',
		data: { labels: ran.map(task => task.title), datasets },
		options: {
			animation: false,
			maintainAspectRatio: false,
			indexAxis: 'y',
			plugins: { legend: { labels: { color: foreground } } },
			scales: {
				x: {
					...axis,
					beginAtZero: true,
					...(kind === 'pass' ? { max: 100 } : {}),
					title: {
						display: true,
						color: foreground,
						text: kind === 'pass' ? '% of trials passed' : 'seconds per trial',
					},
				},
				y: axis,
			},
		},
	});
}
