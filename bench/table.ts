/** Small helpers shared by the bench modules: percentiles and an aligned table. */
export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))] ?? NaN;
}

export function printTable(header: string[], rows: Array<Array<string | number>>): void {
	const cells = [header, ...rows.map(row => row.map(cell => (typeof cell === 'number' ? formatNumber(cell) : cell)))];
	const widths = header.map((_, i) => Math.max(...cells.map(row => String(row[i] ?? '').length)));
	for (const [index, row] of cells.entries()) {
		console.log(
			row
				.map((cell, i) => String(cell ?? '').padEnd(widths[i]))
				.join('  ')
				.trimEnd(),
		);
		if (index === 0) {
			console.log(widths.map(w => '-'.repeat(w)).join('  '));
		}
	}
}

function formatNumber(value: number): string {
	if (!Number.isFinite(value)) {
		return String(value);
	}
	return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
}

export async function timeIt(fn: () => Promise<unknown>): Promise<number> {
	const start = process.hrtime.bigint();
	await fn();
	return Number(process.hrtime.bigint() - start) / 1e6;
}
