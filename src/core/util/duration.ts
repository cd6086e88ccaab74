/** A duration as Keel writes it to people and to the model: "850 ms", "12.4 s", "3 min 5 s". */
export function durationText(ms: number): string {
	if (ms < 1000) {
		return `${Math.round(ms)} ms`;
	}
	return ms < 60_000
		? `${(ms / 1000).toFixed(1)} s`
		: `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
