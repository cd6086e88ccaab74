/** Numbers and times as the report prints them (the same words as its Markdown export). */
export const tokens = (n: number | undefined) =>
	n === undefined ? 'not reported' : Math.round(n).toLocaleString('en-US');
export const percent = (share: number) => `${Math.round(share * 100)}%`;

export function durationText(ms: number | undefined): string {
	if (ms === undefined) {
		return 'not measured';
	}
	if (ms < 1000) {
		return `${Math.round(ms)} ms`;
	}
	return ms < 60_000
		? `${(ms / 1000).toFixed(1)} s`
		: `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function perSecond(value: number | undefined, source: string | undefined): string {
	return value === undefined
		? 'not measured'
		: `${value.toFixed(1)} tokens/s (${source === 'server' ? 'server timings' : 'measured by Keel'})`;
}

export const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
